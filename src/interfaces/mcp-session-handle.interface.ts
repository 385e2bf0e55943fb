import type { JsonRpcParams } from '../protocol/json-rpc.types.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import type { ClientCapabilities, Implementation } from '../protocol/mcp.types.js';

/**
 * An MCP session as application code sees it: who the client is, and a way to reach it outside
 * a call. Injected with `@McpSession()` or the `MCP_SESSION` token, and listed by
 * `McpSessionRegistry`.
 * @category Context
 */
export interface McpSessionHandle {
  /** The `Mcp-Session-Id`. */
  readonly id: string;
  /** The protocol version negotiated for the session. */
  readonly protocolVersion: string;
  /** The client as it introduced itself. */
  readonly clientInfo: Implementation;
  /** What the client declared it can do. */
  readonly clientCapabilities: ClientCapabilities;
  /** The principal that created the session (`auth.principalOf`), if it was not anonymous. */
  readonly owner: string | undefined;
  /** The least severe log level the client wants. */
  readonly logLevel: LoggingLevel;
  /** Whether the session has ended. */
  readonly ended: boolean;
  /** Whether a GET stream is open: what is sent now arrives now. */
  readonly hasStream: boolean;
  /** Whether the client subscribed to updates of the resource with this URI (`resources/subscribe`). */
  isSubscribed(uri: string): boolean;
  /**
   * Sends a notification on the session's GET stream (it waits there, bounded, while none is open).
   * @returns false when the session ended or the message cannot be serialised.
   */
  notify(method: string, params?: JsonRpcParams): boolean;
  /**
   * Sends a log message on the session's GET stream, if the client's level lets it through.
   * @returns whether it was sent.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): boolean;
}
