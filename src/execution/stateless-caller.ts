import type { Caller } from '../interfaces/caller.interface.js';
import type { McpEra } from '../protocol/era-classifier.js';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import { passesThreshold, type LoggingLevel } from '../protocol/logging-level.js';
import type { ClientCapabilities, Implementation } from '../protocol/mcp.types.js';
import type { RequestEnvelope } from '../protocol/request-envelope.js';
import { CallAbort } from '../session/call-abort.js';

/**
 * The caller of one request served without a session: a stateless 2026-07-28 request, whose
 * `_meta` is everything known of the client, or a 2025 request at an endpoint with
 * `sessions.enabled: false` (its version from the header, no capabilities known). Nothing outlives the
 * request; its one call is aborted when the client closes the response stream.
 */
export class StatelessCaller implements Caller {
  readonly session: McpSessionHandle | undefined = undefined;
  readonly cursorScope: string;
  private readonly controllers = new Set<CallAbort>();

  /**
   * @param principal who sends the request (`auth.principalOf`), `undefined` when anonymous.
   * @param era `legacy` for a 2025 request served without a session.
   */
  constructor(
    private readonly envelope: RequestEnvelope,
    readonly principal: string | undefined,
    readonly era: McpEra = 'modern',
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
