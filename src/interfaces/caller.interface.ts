import type { McpEra } from '../protocol/era-classifier.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import type { ClientCapabilities, Implementation } from '../protocol/mcp.types.js';
import type { McpSessionHandle } from './mcp-session-handle.interface.js';

/**
 * Who sent a request, as the call lifecycle needs to know them: a 2025 session (the session
 * itself), or the one request of a stateless 2026-07-28 client, which says all of it in its `_meta`.
 * Internal: not exported by the package.
 */
export interface Caller {
  readonly era: McpEra;
  /** The version of the session, or the one the request names. */
  readonly protocolVersion: string;
  /** The client as `initialize` or the request's `_meta` introduced it; a modern client need not. */
  readonly clientInfo: Implementation | undefined;
  /** What the client declared it can take: for the session, or for this request alone. */
  readonly clientCapabilities: ClientCapabilities;
  /** Who acts (`auth.principalOf` of the request, or the session's owner); `undefined` when anonymous. */
  readonly principal: string | undefined;
  /** The session, as handlers see it; `undefined` for a stateless request. */
  readonly session: McpSessionHandle | undefined;
  /** What list cursors are sealed to: the session, or the principal of a stateless request. */
  readonly cursorScope: string;
  /** Whether log messages at `level` go to the client (the session's level, or the request's `logLevel`). */
  wantsLog(level: LoggingLevel): boolean;
  /** Whether a call with this request id is running (a second one with the id is refused). */
  isRunning(id: RequestId): boolean;
  /** Registers a running call, so that its cancellation (or the caller's end) aborts it. */
  beginCall(id: RequestId): CallAbortHandle;
  /** Forgets a call that finished. */
  endCall(id: RequestId, controller: CallAbortHandle): void;
}

/**
 * What aborts one running call, as an `AbortController` does: its `signal` (what handlers see) is
 * made only when something reads it, and the lifecycle listens with {@link onAbort}, so that a call
 * nobody cancels costs no `AbortController` at all. Internal: not exported by the package.
 */
export interface CallAbortHandle {
  /** The call's `AbortSignal`, made on first read: aborted already, with the reason, if the call was. */
  readonly signal: AbortSignal;
  /** Whether the call aborted. */
  readonly aborted: boolean;
  /** Why it aborted; `undefined` while it has not. */
  readonly reason: unknown;
  /** Aborts the call with `reason`; the first abort wins. */
  abort(reason: unknown): void;
  /**
   * Calls `listener` when the call aborts (never, if it aborted already), before the signal's own
   * listeners. @returns what removes it.
   */
  onAbort(listener: () => void): () => void;
}
