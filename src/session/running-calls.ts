import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import { CallAbort } from './call-abort.js';

/**
 * The calls one session is running, by request id: each with the controller that aborts it when
 * the client cancels it or the session ends.
 */
export class RunningCalls {
  private readonly calls = new Map<RequestId, CallAbort>();

  get size(): number {
    return this.calls.size;
  }

  has(id: RequestId): boolean {
    return this.calls.has(id);
  }

  begin(id: RequestId): CallAbort {
    const controller = new CallAbort();
    this.calls.set(id, controller);
    return controller;
  }

  end(id: RequestId, controller: CallAbort): void {
    // A newer call may have taken the id after this one was answered.
    if (this.calls.get(id) === controller) this.calls.delete(id);
  }

  /** @returns false when no call with that id runs (it finished, or never was). */
  cancel(id: RequestId, reason?: string): boolean {
    const controller = this.calls.get(id);
    if (!controller) return false;
    controller.abort(
      new McpCallAbortedError('cancelled', reason ? `Cancelled by the client: ${reason}` : 'Cancelled by the client'),
    );
    return true;
  }

  /** Aborts every call: their session ended. */
  abortAll(error: McpCallAbortedError): void {
    for (const controller of this.calls.values()) controller.abort(error);
    this.calls.clear();
  }
}
