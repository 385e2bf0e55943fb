import { Injectable } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { MCP_TOOL_METADATA } from '../mcp.constants.js';

/** Every read of decorator metadata the library needs goes through here. */
@Injectable()
export class McpMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  getToolOptions(method: unknown): McpToolOptions | undefined {
    if (typeof method !== 'function') return undefined;
    return this.reflector.get<McpToolOptions | undefined>(MCP_TOOL_METADATA, method);
  }
}
