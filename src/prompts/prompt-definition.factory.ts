import type { Type } from '@nestjs/common';
import { checkIcons, checkTimeout, deepFreeze, ITEM_NAME, optional } from '../catalogue/definition-checks.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpPromptArgumentOptions, McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import type { JsonSchemaObject, PromptArgument, PromptDefinition } from '../protocol/mcp.types.js';
import type { DtoJsonSchemaConverter } from '../tools/dto-json-schema.js';
import { validateArguments } from '../tools/tool-arguments.validator.js';
import type { ArgumentsChecker } from '../tools/tool-checks.js';

/** A prompt's definition and what serving it needs, computed once. */
export interface PreparedPrompt {
  readonly definition: PromptDefinition;
  readonly argumentNames: readonly string[];
  readonly checkArguments: ArgumentsChecker;
  /** The arguments' JSON Schema, for a DTO (its `enum`s feed completion). */
  readonly schema?: JsonSchemaObject;
}

/**
 * Builds the advertised definition of a prompt and its arguments check.
 * @throws McpDefinitionError for an invalid name, a missing description, or malformed arguments.
 */
export function preparePrompt(
  options: McpPromptOptions,
  defaultName: string,
  label: string,
  schemas: DtoJsonSchemaConverter,
): PreparedPrompt {
  const name = options.name ?? defaultName;
  if (typeof name !== 'string' || !ITEM_NAME.test(name)) {
    throw new McpDefinitionError(
      `${label}: prompt name "${String(name)}" is invalid; use 1 to 128 characters of A-Z, a-z, 0-9, "_", "-" and "."`,
    );
  }
  if (typeof options.description !== 'string' || options.description.trim() === '') {
    throw new McpDefinitionError(`${label}: a description is required (users choose prompts by it)`);
  }
  checkTimeout(options.timeoutMs, label);
  const { args } = options;
  let prepared: { arguments: PromptArgument[]; check: ArgumentsChecker; schema?: JsonSchemaObject };
  if (args === undefined) prepared = { arguments: [], check: declaredChecker([]) };
  else if (typeof args === 'function') prepared = fromDto(args, schemas);
  else if (Array.isArray(args)) prepared = fromList(args, label);
  else
    throw new McpDefinitionError(`${label}: args must be a DTO class or a list of { name, description?, required? }`);
  const definition = deepFreeze(
    structuredClone({
      name,
      ...optional('title', options.title),
      description: options.description,
      ...(prepared.arguments.length === 0 ? {} : { arguments: prepared.arguments }),
      ...optional('icons', checkIcons(options.icons, label)),
      ...optional('_meta', options._meta),
    }),
  ) as PromptDefinition;
  return {
    definition,
    argumentNames: Object.freeze(prepared.arguments.map((argument) => argument.name)),
    checkArguments: prepared.check,
    ...optional('schema', prepared.schema),
  };
}

/** Each DTO property is an argument: required when the schema says so, described by its `description`. */
function fromDto(
  dto: Type<object>,
  schemas: DtoJsonSchemaConverter,
): { arguments: PromptArgument[]; check: ArgumentsChecker; schema: JsonSchemaObject } {
  const schema = schemas.toSchema(dto);
  const properties = (schema.properties ?? {}) as Record<string, { description?: unknown; title?: unknown }>;
  const required = new Set((schema.required ?? []) as string[]);
  const promptArguments = Object.entries(properties).map(([name, property]) => ({
    name,
    ...(typeof property.title === 'string' ? { title: property.title } : {}),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    required: required.has(name),
  }));
  return { arguments: promptArguments, check: (raw) => validateArguments(dto, raw), schema };
}

function fromList(
  list: readonly McpPromptArgumentOptions[],
  label: string,
): { arguments: PromptArgument[]; check: ArgumentsChecker } {
  const seen = new Set<string>();
  const promptArguments = list.map((argument, index) => {
    if (typeof argument?.name !== 'string' || argument.name === '') {
      throw new McpDefinitionError(`${label}: args[${index}] needs a name`);
    }
    if (seen.has(argument.name)) throw new McpDefinitionError(`${label}: argument ${argument.name} is declared twice`);
    seen.add(argument.name);
    return {
      name: argument.name,
      ...optional('title', argument.title),
      ...optional('description', argument.description),
      required: argument.required === true,
    };
  });
  return { arguments: promptArguments, check: declaredChecker(promptArguments) };
}

/** Required arguments present, no undeclared ones: all a list of declarations can check. */
function declaredChecker(declared: readonly PromptArgument[]): ArgumentsChecker {
  const names = new Set(declared.map((argument) => argument.name));
  return (raw) => {
    const problems = [
      ...declared
        .filter((argument) => argument.required && !Object.hasOwn(raw, argument.name))
        .map((argument) => `${argument.name}: is required`),
      ...Object.keys(raw)
        .filter((name) => !names.has(name))
        .map((name) => `${name}: the prompt has no such argument`),
    ];
    return Promise.resolve(problems.length === 0 ? { ok: true, value: raw } : { ok: false, problems });
  };
}
