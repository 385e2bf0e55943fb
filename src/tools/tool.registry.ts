import { Injectable } from '@nestjs/common';
import { McpToolDefinitionError } from '../errors/mcp-tool-definition.error.js';
import { duplicateToolMessage } from '../mcp.messages.js';
import type { ListToolsResult } from '../protocol/mcp.types.js';
import type { RegisteredTool } from './registered-tool.interface.js';

/** The tools one application serves, by name. */
@Injectable()
export class McpToolRegistry {
  private readonly tools = new Map<string, RegisteredTool>();
  private listResult: ListToolsResult | undefined;

  /** @throws McpToolDefinitionError when the name is taken. */
  register(tool: RegisteredTool): void {
    const existing = this.tools.get(tool.definition.name);
    if (existing) {
      throw new McpToolDefinitionError(duplicateToolMessage(tool.definition.name, existing.owner, tool.owner));
    }
    this.tools.set(tool.definition.name, tool);
    this.listResult = undefined;
  }

  get(name: string): RegisteredTool | undefined {
    return this.tools.get(name);
  }

  get size(): number {
    return this.tools.size;
  }

  /** The `tools/list` result, built once per change of the tool set, not per request. */
  list(): ListToolsResult {
    this.listResult ??= Object.freeze({
      tools: Object.freeze([...this.tools.values()].map((tool) => tool.definition)),
    });
    return this.listResult;
  }
}
