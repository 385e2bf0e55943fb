import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { McpCompletionOptions } from '../interfaces/mcp-completion.interface.js';
import type { McpPromptOptions } from '../interfaces/mcp-prompt-options.interface.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { McpRouteOptions } from '../interfaces/mcp-route-options.interface.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import {
  MCP_COMPLETION_METADATA,
  MCP_PROMPT_METADATA,
  MCP_RESOURCE_METADATA,
  MCP_RESOURCE_TEMPLATE_METADATA,
  MCP_ROUTE_METADATA,
  MCP_TOOL_METADATA,
} from '../mcp.constants.js';

/** What the MCP decorators on one method declare. */
export interface MethodMetadata {
  readonly tool?: McpToolOptions;
  readonly resource?: McpResourceOptions;
  readonly resourceTemplate?: McpResourceTemplateOptions;
  readonly prompt?: McpPromptOptions;
  readonly completions?: readonly McpCompletionOptions[];
  /** `@McpRoute()`: a controller route served as a tool. */
  readonly route?: McpRouteOptions;
}

/** Every read of decorator metadata the library needs goes through here. */
@Injectable()
export class MetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  getToolOptions(method: unknown): McpToolOptions | undefined {
    if (typeof method !== 'function') return undefined;
    return this.reflector.get<McpToolOptions | undefined>(MCP_TOOL_METADATA, method);
  }

  /** The `@McpRoute()` of a controller class: its routes served as tools in bulk. */
  getRouteClassOptions(classRef: object): McpRouteOptions | undefined {
    return this.reflector.get<McpRouteOptions | undefined>(MCP_ROUTE_METADATA, classRef as never);
  }

  /** What the MCP decorators on `method` declare; `undefined` when it carries none. */
  getMethodMetadata(method: unknown): MethodMetadata | undefined {
    if (typeof method !== 'function') return undefined;
    // What each decorator stored under its key (the decorators' own types).
    const read = (key: string): unknown => this.reflector.get(key, method);
    const metadata: MethodMetadata = {
      tool: read(MCP_TOOL_METADATA) as McpToolOptions | undefined,
      resource: read(MCP_RESOURCE_METADATA) as McpResourceOptions | undefined,
      resourceTemplate: read(MCP_RESOURCE_TEMPLATE_METADATA) as McpResourceTemplateOptions | undefined,
      prompt: read(MCP_PROMPT_METADATA) as McpPromptOptions | undefined,
      completions: read(MCP_COMPLETION_METADATA) as McpCompletionOptions[] | undefined,
      route: read(MCP_ROUTE_METADATA) as McpRouteOptions | undefined,
    };
    return Object.values(metadata).some((value) => value !== undefined) ? metadata : undefined;
  }
}
