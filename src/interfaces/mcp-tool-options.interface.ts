import type { Type } from '@nestjs/common';
import type { Meta, ToolAnnotations } from '../protocol/mcp.types.js';

/** Options of {@link McpTool}. */
export interface McpToolOptions {
  /**
   * Tool name: 1 to 128 characters of `A-Za-z0-9_-.`, unique in the application.
   * @default the method's name
   */
  name?: string;
  /** Human-readable display name. */
  title?: string;
  /** What the tool does, written for a model: it decides whether to call the tool from this text. */
  description: string;
  /**
   * A class-validator DTO describing the arguments. Its JSON Schema is advertised as `inputSchema`,
   * and arguments are transformed and validated with it (unknown properties rejected) before the call.
   * Without it the tool takes no arguments.
   */
  input?: Type<object>;
  /** Behavioural hints (read-only, destructive, idempotent, open-world). */
  annotations?: ToolAnnotations;
  /**
   * Milliseconds a call may run: past it, the call's `ctx.signal` aborts and the call is answered
   * with an error result saying it timed out, whether or not the handler stops.
   * @default no limit
   */
  timeoutMs?: number;
  /** Extra metadata advertised with the tool. */
  _meta?: Meta;
}
