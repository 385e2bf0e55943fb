import type { Type } from '@nestjs/common';
import {
  checkIcons,
  checkTimeout,
  deepFreeze,
  optional,
  optionalMeta,
  optionalText,
} from '../items/definition-checks.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpPromptArgumentOptions, McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import type { JsonSchemaObject, PromptArgument, PromptDefinition } from '../protocol/mcp.types.js';
import type { DtoJsonSchemaConverter } from '../schemas/dto-json-schema.js';
import { argumentsValidator } from '../schemas/arguments.validator.js';
import type { ArgumentsChecker } from '../schemas/arguments-checker.js';

/** Longest prompt name accepted. */
const MAX_PROMPT_NAME_LENGTH = 256;

/** Whether `text` holds a control character (C0, DEL or C1): names end up in UIs and logs. */
function hasControl(text: string): boolean {
  for (const char of text) {
    const code = char.codePointAt(0)!;
    if (code < 0x20 || (code >= 0x7f && code <= 0x9f)) return true;
  }
  return false;
}

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
  // The specification sets no rule for prompt names (the tool-name rule is for tools); they must only be usable.
  if (typeof name !== 'string' || name.trim() === '' || name.length > MAX_PROMPT_NAME_LENGTH || hasControl(name)) {
    throw new McpDefinitionError(
      `${label}: prompt name ${JSON.stringify(name)} is invalid; use 1 to ${MAX_PROMPT_NAME_LENGTH} characters, no control characters`,
    );
  }
  if (typeof options.description !== 'string' || options.description.trim() === '') {
    throw new McpDefinitionError(`${label}: a description is required (users choose prompts by it)`);
  }
  checkTimeout(options.timeoutMs, label);
  const { args } = options;
  let prepared: { arguments: PromptArgument[]; check: ArgumentsChecker; schema?: JsonSchemaObject };
  if (args === undefined) prepared = { arguments: [], check: declaredChecker([]) };
  else if (typeof args === 'function') prepared = fromDto(args, schemas, label);
  else if (Array.isArray(args)) prepared = fromList(args, label);
  else
    throw new McpDefinitionError(`${label}: args must be a DTO class or a list of { name, description?, required? }`);
  const definition = deepFreeze(
    structuredClone({
      name,
      ...optionalText('title', options.title, label),
      description: options.description,
      ...(prepared.arguments.length === 0 ? {} : { arguments: prepared.arguments }),
      ...optional('icons', checkIcons(options.icons, label)),
      ...optionalMeta(options._meta, label),
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
  label: string,
): { arguments: PromptArgument[]; check: ArgumentsChecker; schema: JsonSchemaObject } {
  const schema = schemas.toSchema(dto, `${label} (args)`);
  const properties = (schema.properties ?? {}) as Record<string, { description?: unknown; title?: unknown }>;
  const required = new Set((schema.required ?? []) as string[]);
  const promptArguments = Object.entries(properties).map(([name, property]) => ({
    name,
    ...(typeof property.title === 'string' ? { title: property.title } : {}),
    ...(typeof property.description === 'string' ? { description: property.description } : {}),
    required: required.has(name),
  }));
  return { arguments: promptArguments, check: argumentsValidator(dto), schema };
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
      ...optionalText('title', argument.title, `${label}: argument ${argument.name}`),
      ...optionalText('description', argument.description, `${label}: argument ${argument.name}`),
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
