import type { IncomingHttpHeaders } from 'node:http';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { ClientCapabilities, Implementation, Meta } from '../protocol/mcp.types.js';

/**
 * What a tool handler knows about the call it serves: its second parameter.
 */
export interface McpContext {
  /** The `Mcp-Session-Id` of the calling session. */
  readonly sessionId: string;
  /** The protocol version negotiated for the session. */
  readonly protocolVersion: string;
  /** The JSON-RPC id of the `tools/call` request. */
  readonly requestId: RequestId;
  /** The name of the tool being called. */
  readonly toolName: string;
  /** The client as it introduced itself in `initialize`. */
  readonly clientInfo: Implementation;
  /** The capabilities the client declared in `initialize`. */
  readonly clientCapabilities: ClientCapabilities;
  /** `_meta` of the request, if the client sent one. */
  readonly meta: Meta | undefined;
  /** The HTTP request carrying this call, as the HTTP framework gives it (Express or Fastify). */
  readonly request: unknown;
  /** Headers of the HTTP request carrying this call. */
  readonly headers: IncomingHttpHeaders;
  /** `request.user`, as set by the authentication guard of the endpoint, if any. */
  readonly user: unknown;
  /**
   * Aborts when the call must stop: its session ended (DELETE, idle timeout, outbox overflow) or the
   * application is shutting down.
   */
  readonly signal: AbortSignal;
}
