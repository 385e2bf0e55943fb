import type { Type } from '@nestjs/common';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { ToolDefinition } from '../protocol/mcp.types.js';

/** A tool ready to serve: its advertised definition and how to call it. */
export interface RegisteredTool {
  readonly definition: ToolDefinition;
  /** DTO the arguments are validated with; none means the tool takes no arguments. */
  readonly input: Type<object> | undefined;
  /** The method, bound to its provider instance. */
  readonly handler: (args: object, context: McpContext) => unknown;
  /** Milliseconds after which the call's signal aborts and it is answered with an error result. */
  readonly timeoutMs?: number;
  /** `Class.method`, for messages and logs. */
  readonly owner: string;
}
