import type { IncomingHttpHeaders } from 'node:http';
import { httpExchange } from './http-exchange.js';
import { initializeRequest, MCP_POST_HEADERS } from './start-app.js';

/** What a POST of the handshake returned, however it was sent. */
export interface HandshakeReply {
  /** Undefined when no answer came (a connection dropped, a timeout). */
  readonly status?: number;
  readonly headers: IncomingHttpHeaders;
  readonly text: string;
}

export interface OpenSessionOptions {
  /** The version `initialize` asks for; 2025-06-18 unless given. */
  readonly protocolVersion?: string;
  /** The client's capabilities in `initialize`; none unless given. */
  readonly capabilities?: object;
  /** Headers of every request of the session, `initialize` included: credentials, a role, a tenant. */
  readonly headers?: Record<string, string>;
  /** Whether the client acknowledges with `notifications/initialized` (answered 202); true unless given. */
  readonly initialized?: boolean;
  /** The JSON-RPC id of `initialize`; 0 unless given. */
  readonly id?: string | number;
  /**
   * How a POST is sent (the headers complete, the body a JSON-RPC message): {@link httpExchange} to
   * the URL unless given, for callers whose every request must go their own way (the fuzz's
   * connections and accounting).
   */
  readonly send?: (headers: Record<string, string>, body: unknown) => Promise<HandshakeReply>;
}

/** A 2025 session as the handshake left it. */
export interface OpenedSession {
  /** Its `Mcp-Session-Id`. */
  readonly id: string;
  /** The version the server negotiated (the one asked for, when it serves it). */
  readonly protocolVersion: string;
  /**
   * The headers of the session's later POSTs: the MCP POST headers, the caller's own,
   * `Mcp-Session-Id` and `MCP-Protocol-Version`.
   */
  readonly headers: Record<string, string>;
  /** The `initialize` result. */
  readonly result: Record<string, unknown>;
}

/** The one JSON-RPC message of an answer: a JSON body, or the last `data:` line of an SSE one. */
function messageOf(reply: HandshakeReply): { result?: Record<string, unknown>; error?: unknown } {
  if (String(reply.headers['content-type']).startsWith('text/event-stream')) {
    const data = reply.text.split(/\r?\n/).filter((line) => line.startsWith('data:'));
    return JSON.parse(data.at(-1)!.slice('data:'.length)) as ReturnType<typeof messageOf>;
  }
  return JSON.parse(reply.text) as ReturnType<typeof messageOf>;
}

/**
 * Opens a 2025 session at `url` as a client does: `initialize` (expected to succeed: 200, a result,
 * a session id), then `notifications/initialized` (expected 202) unless told not to. For tests of
 * something else than the handshake: the ones about the handshake itself write it out.
 */
export async function openSession(url: string, options: OpenSessionOptions = {}): Promise<OpenedSession> {
  const { protocolVersion = '2025-06-18', headers = {}, initialized = true, id = 0 } = options;
  const send =
    options.send ??
    ((sent: Record<string, string>, body: unknown) => httpExchange(url, 'POST', sent, JSON.stringify(body)));
  const initialize = initializeRequest(protocolVersion, id) as { params: Record<string, unknown> };
  if (options.capabilities !== undefined) initialize.params.capabilities = options.capabilities;
  const reply = await send({ ...MCP_POST_HEADERS, ...headers }, initialize);
  expect({ status: reply.status, text: reply.text }).toMatchObject({ status: 200 });
  const message = messageOf(reply);
  expect(message.error).toBeUndefined();
  const sessionId = reply.headers['mcp-session-id'];
  expect(typeof sessionId).toBe('string');
  const result = message.result!;
  const negotiated = result.protocolVersion as string;
  const session: OpenedSession = {
    id: sessionId as string,
    protocolVersion: negotiated,
    headers: {
      ...MCP_POST_HEADERS,
      ...headers,
      'mcp-session-id': sessionId as string,
      'mcp-protocol-version': negotiated,
    },
    result,
  };
  if (initialized) {
    const ack = await send(session.headers, { jsonrpc: '2.0', method: 'notifications/initialized' });
    expect(ack.status).toBe(202);
  }
  return session;
}
