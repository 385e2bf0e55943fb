import type { JsonSchemaObject } from '../protocol/mcp.types.js';

/**
 * Whether an option that takes a DTO class or a JSON Schema (`input`, `output`, `variables`,
 * `args`) was given a raw JSON Schema: an object, where a DTO is a class (a function).
 */
export function isJsonSchemaObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
