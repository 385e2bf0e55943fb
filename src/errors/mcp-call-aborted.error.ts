/** Why a call's `signal` aborted. */
export type McpCallAbortKind = 'cancelled' | 'timeout' | 'session-ended';

/**
 * The `reason` of a tool call's `ctx.signal` once it aborted: the client cancelled the call, the
 * tool's `timeoutMs` passed, or the session ended.
 */
export class McpCallAbortedError extends Error {
  constructor(
    readonly kind: McpCallAbortKind,
    message: string,
  ) {
    super(message);
    this.name = 'McpCallAbortedError';
  }
}
