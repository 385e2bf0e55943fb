import type { JsonSchemaObject } from '../../src/index.js';

/**
 * The arguments of `json_schema_2020_12_tool`, as a raw JSON Schema: the scenario checks that
 * `$schema`, `$defs` and `additionalProperties` reach the client unchanged, and mcp42 enforces the
 * schema with Ajv (2020-12 dialect).
 */
export const JSON_SCHEMA_2020_12_INPUT: JsonSchemaObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      type: 'object',
      properties: {
        street: { type: 'string' },
        city: { type: 'string' },
      },
    },
  },
  properties: {
    name: { type: 'string' },
    address: { $ref: '#/$defs/address' },
  },
  additionalProperties: false,
};
