import type { McpCaller } from '../interfaces/mcp-caller.interface.js';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import { passesThreshold, type LoggingLevel } from '../protocol/logging-level.js';
import type { ClientCapabilities, Implementation } from '../protocol/mcp.types.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import { CallAbort } from '../session/call-abort.js';

/**
 * The caller of one stateless (2026-07-28) request: everything known of the client is what this
 * request's `_meta` says, and nothing outlives the request. Its one call is aborted when the client
 * closes the response stream (the revision's cancellation).
 */
export class StatelessCaller implements McpCaller {
  readonly era = 'modern' as const;
  readonly session: McpSessionHandle | undefined = undefined;
  readonly cursorScope: string;
  private readonly controllers = new Set<CallAbort>();

  /** @param principal who sends the request (`sessionOwner`), `undefined` when anonymous. */
  constructor(
    private readonly envelope: RequestEnvelope,
    readonly principal: string | undefined,
  ) {
    this.cursorScope = principal === undefined ? 'anonymous' : `principal:${principal}`;
  }

  get protocolVersion(): string {
    return this.envelope.protocolVersion;
  }

  get clientInfo(): Implementation | undefined {
    return this.envelope.clientInfo;
  }

  get clientCapabilities(): ClientCapabilities {
    return this.envelope.clientCapabilities;
  }

  /** Only a request that set `logLevel` gets log messages, and only at that level and above. */
  wantsLog(level: LoggingLevel): boolean {
    const threshold = this.envelope.logLevel;
    return threshold !== undefined && passesThreshold(level, threshold);
  }

  /** Requests of a stateless client are independent: an id says nothing about another request. */
  isRunning(): boolean {
    return false;
  }

  beginCall(): CallAbort {
    const controller = new CallAbort();
    this.controllers.add(controller);
    return controller;
  }

  endCall(_id: RequestId, controller: CallAbort): void {
    this.controllers.delete(controller);
  }

  /** The client closed the response stream, or the server is shutting down: what runs stops. */
  abort(reason: unknown): void {
    for (const controller of this.controllers) controller.abort(reason);
    this.controllers.clear();
  }
}
