import {
  checkIcons,
  deepFreeze,
  isValidTimeout,
  ITEM_NAME,
  optional,
  optionalMeta,
  optionalText,
} from '../items/definition-checks.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpToolOptions, McpToolTaskOptions } from '../interfaces/mcp-tool-options.interface.js';
import { invalidTimeoutMessage, invalidToolNameMessage, missingDescriptionMessage } from '../mcp.messages.js';
import type { JsonSchemaObject, ToolDefinition } from '../protocol/mcp.types.js';
import { NO_ARGUMENTS_SCHEMA, type DtoJsonSchemaConverter } from '../schemas/dto-json-schema.js';
import { isJsonSchemaObject } from '../schemas/schema-source.js';

/**
 * Builds the advertised definition of a decorated method, schema included: done once at bootstrap.
 * @throws McpDefinitionError for an invalid name or a missing description.
 */
export function buildToolDefinition(
  options: McpToolOptions,
  methodName: string,
  owner: string,
  schemas: DtoJsonSchemaConverter,
): ToolDefinition {
  const name = options.name ?? methodName;
  if (!ITEM_NAME.test(name)) throw new McpDefinitionError(invalidToolNameMessage(name, owner));
  if (typeof options.description !== 'string' || options.description.trim() === '') {
    throw new McpDefinitionError(missingDescriptionMessage(owner));
  }
  if (!isValidTimeout(options.timeoutMs)) {
    throw new McpDefinitionError(invalidTimeoutMessage(owner, options.timeoutMs));
  }
  const definition: ToolDefinition = {
    name,
    ...toolField(() => optionalText('title', options.title, `@McpTool() on ${owner}`)),
    description: options.description,
    inputSchema: schemaOf(options.input, 'input', owner, schemas) ?? NO_ARGUMENTS_SCHEMA,
    ...optional('outputSchema', schemaOf(options.output, 'output', owner, schemas)),
    ...optional('annotations', options.annotations),
    ...optional(
      'icons',
      toolField(() => checkIcons(options.icons, `@McpTool() on ${owner}`)),
    ),
    ...taskExecution(options.task, owner),
    ...toolField(() => optionalMeta(options._meta, `@McpTool() on ${owner}`)),
  };
  return deepFreeze(structuredClone(definition));
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
  if (typeof source === 'function') return schemas.toSchema(source, `@McpTool() on ${owner} (${role})`);
  if (!isJsonSchemaObject(source) || source.type !== 'object') {
    throw new McpDefinitionError(
      `@McpTool() on ${owner}: ${role} must be a DTO class or a JSON Schema object with type "object"`,
    );
  }
  return source;
}

/** A checked field; its definition error stays a {@link McpDefinitionError}. */
function toolField<T>(check: () => T): T {
  try {
    return check();
  } catch (error) {
    throw new McpDefinitionError((error as Error).message);
  }
}

/** `execution.taskSupport` of a tool that may run as a task; nothing for one that may not. */
function taskExecution(task: McpToolOptions['task'], owner: string): Pick<ToolDefinition, 'execution'> {
  if (task === undefined) return {};
  return { execution: { taskSupport: taskOptionsOf(task, owner).support } };
}

/**
 * The `task` option in its object form.
 * @throws McpDefinitionError for anything but `'optional'`, `'required'` or `{ support, start? }` of those.
 */
export function taskOptionsOf(task: NonNullable<McpToolOptions['task']>, owner: string): Required<McpToolTaskOptions> {
  const options = typeof task === 'string' ? { support: task } : task;
  const support = (options as { support?: unknown } | null)?.support;
  const start = (options as { start?: unknown } | null)?.start ?? 'call';
  if ((support !== 'optional' && support !== 'required') || (start !== 'call' && start !== 'handler')) {
    throw new McpDefinitionError(
      `@McpTool() on ${owner}: task must be 'optional', 'required' or { support: 'optional' | 'required', start?: 'call' | 'handler' }, got ${JSON.stringify(task)}`,
    );
  }
  return { support, start };
}
