import type { Type } from '@nestjs/common';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { JsonSchemaObject } from '../protocol/mcp.types.js';
import type { JsonSchemaValidatorFactory, SchemaCheck, SchemaValidator } from './json-schema.validator.js';
import { argumentsValidator, type ArgumentsCheck } from './arguments.validator.js';

/**
 * Checks (and, for a DTO, transforms) the arguments of one call: at once when it can (a DTO without
 * async constraints), else in a promise.
 */
export type ArgumentsChecker = (
  raw: Record<string, unknown>,
) => ArgumentsCheck<object> | Promise<ArgumentsCheck<object>>;

/**
 * The arguments check of a tool, built once: a DTO validates with class-validator, a raw JSON
 * Schema with a validator compiled now, and no `input` accepts only an empty object.
 * @throws McpDefinitionError when a raw schema does not compile.
 */
export function argumentsCheckerFor(
  input: Type<object> | JsonSchemaObject | undefined,
  validators: JsonSchemaValidatorFactory,
  owner: string,
  label = `@McpTool() on ${owner}`,
): ArgumentsChecker {
  if (input === undefined) {
    return (raw) => {
      const unexpected = Object.keys(raw);
      return unexpected.length === 0
        ? { ok: true, value: raw }
        : { ok: false, problems: unexpected.map((key) => `${key}: the tool takes no arguments`) };
    };
  }
  if (typeof input === 'function') return argumentsValidator(input);
  const validate = compileDeclaredSchema(input, validators, label, 'input');
  return (raw) => asChecked(raw, validate(raw));
}

/**
 * A validator of a schema a definition declares, compiled once (and shared with identical schemas).
 * @param role what the schema is for, in the message: `input`, `output`.
 * @throws McpDefinitionError naming the definition when the schema does not compile.
 */
export function compileDeclaredSchema(
  schema: JsonSchemaObject,
  validators: JsonSchemaValidatorFactory,
  label: string,
  role: string,
): SchemaValidator {
  try {
    return validators.compileShared(schema);
  } catch (error) {
    throw new McpDefinitionError(
      `${label}: the ${role} schema cannot be used: ${error instanceof Error ? error.message : String(error)}`,
    );
  }
}

/** A schema's check: the arguments go on as they are. */
function asChecked(raw: Record<string, unknown>, check: SchemaCheck): ArgumentsCheck<object> {
  return check.ok ? { ok: true, value: raw } : check;
}
