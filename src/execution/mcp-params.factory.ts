import type { ParamsFactory } from '@nestjs/core';
import type { McpInvocation } from './mcp-invocation.js';
import { McpParamType } from './mcp-param-type.js';

/** Gives each marked parameter of a tool method its value from the execution arguments. */
export class McpParamsFactory implements ParamsFactory {
  exchangeKeyForValue(type: number, data: unknown, args: unknown[]): unknown {
    const invocation = args[3] as McpInvocation | undefined;
    if (!invocation) return undefined;
    switch (type) {
      case McpParamType.Args: {
        const values = invocation.arguments as Record<string, unknown> | undefined;
        return typeof data === 'string' && values ? values[data] : values;
      }
      case McpParamType.Context:
        return invocation.context;
      case McpParamType.Session:
        return invocation.session;
      case McpParamType.Uri:
        return invocation.uri;
      default:
        return undefined;
    }
  }
}
