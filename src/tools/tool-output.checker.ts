import type { JsonSchemaObject } from '../protocol/mcp.types.js';
import { compileDeclaredSchema } from '../schemas/arguments-checker.js';
import type { JsonSchemaValidatorFactory, SchemaValidator } from '../schemas/json-schema.validator.js';

/** The check of a tool's structured results against its `outputSchema`, compiled once. */
export function outputCheckerFor(
  outputSchema: JsonSchemaObject | undefined,
  validators: JsonSchemaValidatorFactory,
  owner: string,
): SchemaValidator | undefined {
  return outputSchema === undefined
    ? undefined
    : compileDeclaredSchema(outputSchema, validators, `@McpTool() on ${owner}`, 'output');
}
