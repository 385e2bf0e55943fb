import { McpToolDefinitionError } from '../errors/mcp-tool-definition.error.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { invalidTimeoutMessage, invalidToolNameMessage, missingDescriptionMessage } from '../mcp.messages.js';
import type { ToolDefinition } from '../protocol/mcp.types.js';
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
    inputSchema: options.input ? schemas.toSchema(options.input) : NO_ARGUMENTS_SCHEMA,
    ...(options.annotations === undefined ? {} : { annotations: options.annotations }),
    ...(options._meta === undefined ? {} : { _meta: options._meta }),
  };
  return deepFreeze(definition);
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const child of Object.values(value)) deepFreeze(child);
  }
  return value;
}
