import { Injectable } from '@nestjs/common';
import { ItemStore } from '../items/item-store.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { duplicateToolMessage } from '../mcp.messages.js';
import { paramHeadersOf } from '../protocol/param-headers.js';
import { argumentsCheckerFor } from '../schemas/arguments-checker.js';
import { Schemas } from '../schemas/schemas.js';
import { outputCheckerFor } from './tool-output.checker.js';
import { buildToolDefinition, taskOptionsOf } from './tool-definition.factory.js';
import type { RegisteredTool } from './registered-tool.interface.js';

/**
 * The tools one application serves, by name: filled by discovery at bootstrap and by
 * `McpToolRegistry` at run time, read by `tools/list` and `tools/call`. Every burst of changes to
 * the served set emits once on `changes`.
 */
@Injectable()
export class ToolStore extends ItemStore<RegisteredTool> {
  constructor(private readonly schemas: Schemas) {
    super(
      (tool) => tool.definition.name,
      (existing, added) =>
        new McpDefinitionError(duplicateToolMessage(added.definition.name, existing.owner, added.owner)),
    );
  }

  /**
   * Prepares a tool from its options (definition, schemas and checks, computed once) and registers it.
   * @throws McpDefinitionError for an invalid definition or a name already taken.
   */
  define(
    options: McpToolOptions,
    defaultName: string,
    owner: string,
    target: RegisteredTool['target'],
  ): RegisteredTool {
    const { converter, validators } = this.schemas;
    const definition = buildToolDefinition(options, defaultName, owner, converter);
    const tool: RegisteredTool = {
      definition,
      owner,
      timeoutMs: options.timeoutMs,
      checkArguments: argumentsCheckerFor(options.input, validators, owner),
      checkOutput: outputCheckerFor(definition.outputSchema, validators, owner),
      paramHeaders: paramHeadersOfTool(definition.inputSchema, owner),
      ...(options.task === undefined ? {} : { taskStart: taskOptionsOf(options.task, owner).start }),
      target,
    };
    this.add(tool);
    return tool;
  }
}

/** The arguments the tool's input mirrors into `Mcp-Param-*` headers; a misplaced `x-mcp-header` is a definition error. */
function paramHeadersOfTool(inputSchema: Record<string, unknown>, owner: string): RegisteredTool['paramHeaders'] {
  try {
    return paramHeadersOf(inputSchema);
  } catch (error) {
    throw new McpDefinitionError(`@McpTool() on ${owner}: ${(error as Error).message}`);
  }
}
