import { McpToolDefinitionError } from '../errors/mcp-tool-definition.error.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { invalidTimeoutMessage, invalidToolNameMessage, missingDescriptionMessage } from '../mcp.messages.js';
import type { JsonSchemaObject, ToolDefinition } from '../protocol/mcp.types.js';
import { NO_ARGUMENTS_SCHEMA, type DtoJsonSchemaConverter } from './dto-json-schema.js';

/** The longest delay Node's timers honour. */
const MAX_TIMER_MS = 2 ** 31 - 1;

/** The specification's rule for tool names (2025-11-25). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/**
 * Builds the advertised definition of a decorated method, schema included: done once at bootstrap.
 * @throws McpToolDefinitionError for an invalid name or a missing description.
 */
export function buildToolDefinition(
  options: McpToolOptions,
  methodName: string,
  owner: string,
  schemas: DtoJsonSchemaConverter,
): ToolDefinition {
  const name = options.name ?? methodName;
  if (!TOOL_NAME.test(name)) throw new McpToolDefinitionError(invalidToolNameMessage(name, owner));
  if (typeof options.description !== 'string' || options.description.trim() === '') {
    throw new McpToolDefinitionError(missingDescriptionMessage(owner));
  }
  if (
    options.timeoutMs !== undefined &&
    (!Number.isInteger(options.timeoutMs) || options.timeoutMs <= 0 || options.timeoutMs > MAX_TIMER_MS)
  ) {
    throw new McpToolDefinitionError(invalidTimeoutMessage(owner, options.timeoutMs));
  }
  const definition: ToolDefinition = {
    name,
    ...(options.title === undefined ? {} : { title: options.title }),
    description: options.description,
    inputSchema: schemaOf(options.input, 'input', owner, schemas) ?? NO_ARGUMENTS_SCHEMA,
    ...optional('outputSchema', schemaOf(options.output, 'output', owner, schemas)),
    ...optional('annotations', options.annotations),
    ...optional('icons', checkIcons(options.icons, owner)),
    ...optional('_meta', options._meta),
  };
  return deepFreeze(structuredClone(definition));
}

/** Whether a tool's `input` or `output` is a raw JSON Schema rather than a DTO class. */
export function isJsonSchemaObject(value: unknown): value is JsonSchemaObject {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * The advertised schema of `input` or `output`: a DTO's, converted, or a raw schema as given (it must
 * describe an object: MCP arguments and structured results are objects).
 */
function schemaOf(
  source: McpToolOptions['input'],
  role: 'input' | 'output',
  owner: string,
  schemas: DtoJsonSchemaConverter,
): JsonSchemaObject | undefined {
  if (source === undefined) return undefined;
  if (typeof source === 'function') return schemas.toSchema(source);
  if (!isJsonSchemaObject(source) || source.type !== 'object') {
    throw new McpToolDefinitionError(
      `@McpTool() on ${owner}: ${role} must be a DTO class or a JSON Schema object with type "object"`,
    );
  }
  return source;
}

function checkIcons(icons: McpToolOptions['icons'], owner: string): McpToolOptions['icons'] {
  if (icons === undefined) return undefined;
  const bad = Array.isArray(icons) ? icons.findIndex((icon) => typeof icon?.src !== 'string' || icon.src === '') : 0;
  if (bad !== -1) throw new McpToolDefinitionError(`@McpTool() on ${owner}: icons[${bad}] needs a src URI`);
  return icons;
}

function optional<K extends string, V>(key: K, value: V | undefined): { [P in K]?: V } {
  return (value === undefined ? {} : { [key]: value }) as { [P in K]?: V };
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
