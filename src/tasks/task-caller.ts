import type { CallAbortHandle, Caller } from '../interfaces/caller.interface.js';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import type { McpEra } from '../protocol/era-classifier.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import type { ClientCapabilities, Implementation } from '../protocol/mcp.types.js';

/**
 * The caller of a call running as a task: who made the request, as the handler sees it, but the
 * call is the task's own. It outlives its request (and, for 2025, its session), and only
 * `tasks/cancel` or the task's end aborts it.
 */
export class TaskCaller implements Caller {
  /**
   * @param logs whether the task's log messages have a stream to go on (2025-11-25: its
   *   `tasks/result` stream or its session's); then the session's log level applies.
   */
  constructor(
    private readonly origin: Caller,
    private readonly abort: CallAbortHandle,
    private readonly logs = false,
  ) {}

  get era(): McpEra {
    return this.origin.era;
  }

  get protocolVersion(): string {
    return this.origin.protocolVersion;
  }

  get clientInfo(): Implementation | undefined {
    return this.origin.clientInfo;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.origin.clientCapabilities;
  }

  get principal(): string | undefined {
    return this.origin.principal;
  }

  get session(): McpSessionHandle | undefined {
    return this.origin.session;
  }

  get cursorScope(): string {
    return this.origin.cursorScope;
  }

  /** A 2026-07-28 task's log messages have no stream to go on once the request is answered. */
  wantsLog(level: LoggingLevel): boolean {
    return this.logs && this.origin.wantsLog(level);
  }

  /** The task is the only call of this caller. */
  isRunning(): boolean {
    return false;
  }

  beginCall(): CallAbortHandle {
    return this.abort;
  }

  endCall(): void {
    // The task's end is the service's to record.
  }
}
