import { IntrinsicException } from '@nestjs/common';

/**
 * Why a call's `signal` aborted.
 * @category Errors
 */
export type McpCallAbortKind =
  'cancelled' | 'timeout' | 'session-ended' | 'input-required' | 'shutdown' | 'task-started';

/**
 * The `reason` of a call's `ctx.signal` once it aborted: the client cancelled the call (or, on
 * 2026-07-28, closed its response stream), the item's `timeoutMs` passed, the session ended, or
 * (`input-required`, 2026-07-28) the handler asked the client for input: this round of the request is
 * answered with `input_required`, and the handler runs again when the client retries with the answers;
 * `shutdown`: the application is shutting down (a stateless request; a session's call ends with its
 * session, `session-ended`); `task-started`: the handler called `ctx.startTask()` in its request, which
 * is answered with the task it runs again in. An `IntrinsicException`: a handler that rethrows
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
