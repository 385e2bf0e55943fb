import { Injectable } from '@nestjs/common';
import {
  EXCEPTION_FILTERS_METADATA,
  GUARDS_METADATA,
  INTERCEPTORS_METADATA,
  PIPES_METADATA,
} from '@nestjs/common/constants.js';
import { Reflector } from '@nestjs/core';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { MCP_TOOL_METADATA } from '../mcp.constants.js';

const ENHANCER_KINDS: readonly (readonly [string, string])[] = [
  [GUARDS_METADATA, 'guards'],
  [INTERCEPTORS_METADATA, 'interceptors'],
  [PIPES_METADATA, 'pipes'],
  [EXCEPTION_FILTERS_METADATA, 'exception filters'],
];

/** Every read of decorator metadata the library needs goes through here. */
@Injectable()
export class McpMetadataAccessor {
  constructor(private readonly reflector: Reflector) {}

  /**
   * Which Nest enhancers (`@UseGuards`, `@UseInterceptors`, `@UsePipes`, `@UseFilters`) a method or
   * class declares, by kind.
   */
  getEnhancerKinds(target: object): string[] {
    return ENHANCER_KINDS.filter(([key]) => {
      const value: unknown = this.reflector.get(key, target as never);
      return Array.isArray(value) && value.length > 0;
    }).map(([, kind]) => kind);
  }

  getToolOptions(method: unknown): McpToolOptions | undefined {
    if (typeof method !== 'function') return undefined;
    return this.reflector.get<McpToolOptions | undefined>(MCP_TOOL_METADATA, method);
  }
}
