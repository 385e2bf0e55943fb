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
  constructor(
    private readonly origin: Caller,
    private readonly abort: CallAbortHandle,
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

  /** Log messages have no stream to go on once the request is answered. */
  wantsLog(_level: LoggingLevel): boolean {
    return false;
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
