import { type JsonSchemaObject } from '../../src/protocol/index.js';

/**
 * The arguments of `json_schema_2020_12_tool`, as a raw JSON Schema: the scenario checks that
 * `$schema`, `$defs`, `$anchor`, composition (`allOf`/`anyOf`), conditionals (`if`/`then`/`else`)
 * and `additionalProperties` reach the client unchanged, and mcp42 enforces the schema with Ajv
 * (2020-12 dialect).
 */
export const JSON_SCHEMA_2020_12_INPUT: JsonSchemaObject = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  $defs: {
    address: {
      $anchor: 'addressDef',
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
    contactMethod: { type: 'string', enum: ['phone', 'email'] },
    phone: { type: 'string' },
    email: { type: 'string' },
  },
  allOf: [{ anyOf: [{ required: ['phone'] }, { required: ['email'] }] }],
  if: { properties: { contactMethod: { const: 'phone' } }, required: ['contactMethod'] },
  then: { required: ['phone'] },
  else: { required: ['email'] },
  additionalProperties: false,
};
