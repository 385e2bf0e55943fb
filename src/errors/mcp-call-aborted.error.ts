import { IntrinsicException } from '@nestjs/common';

/**
 * Why a call's `signal` aborted.
 * @category Errors
 */
export type McpCallAbortKind = 'cancelled' | 'timeout' | 'session-ended';

/**
 * The `reason` of a tool call's `ctx.signal` once it aborted: the client cancelled the call, the
 * tool's `timeoutMs` passed, or the session ended. An `IntrinsicException`: a handler that rethrows
 * it is not logged as failing by Nest's exception handler.
 * @category Errors
 */
export class McpCallAbortedError extends IntrinsicException {
  constructor(
    readonly kind: McpCallAbortKind,
    message: string,
  ) {
    super(message);
    this.name = 'McpCallAbortedError';
  }
}
