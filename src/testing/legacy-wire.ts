import type { JSONRPCMessage, RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ACCEPT_BOTH, drain, readAnswer } from './http-answers.js';
import type { HttpReply, InProcessHttp } from './in-process-http.js';
import { isRequest, requestIdOf, type Wire, type WireEvents } from './wire.js';

/**
 * The 2025-11-25 era over Streamable HTTP, as the SDK's own HTTP transport speaks it: each message
 * POSTed, its answer read as JSON or SSE (server requests, progress and logs of a call arrive on its
 * stream, before its response); the session id the handshake gave and the negotiated version on
 * every later request; after `notifications/initialized`, a GET stream for what the server sends
 * outside calls (list changes, resource updates); DELETE when the client closes.
 */
export class LegacyWire implements Wire {
  private sessionId: string | undefined;
  private protocolVersion: string | undefined;
  private readonly open = new Set<HttpReply>();
  private closed = false;

  constructor(
    private readonly http: InProcessHttp,
    private readonly events: WireEvents,
  ) {}

  setProtocolVersion(version: string): void {
    this.protocolVersion = version;
  }

  async send(message: JSONRPCMessage): Promise<void> {
    const reply = await this.http.request(
      'POST',
      this.headers({ 'content-type': 'application/json', accept: ACCEPT_BOTH }),
      JSON.stringify(message),
    );
    if (isRequest(message) && message.method === 'initialize' && reply.status < 300) {
      const sessionId = reply.headers['mcp-session-id'];
      if (typeof sessionId === 'string') this.sessionId = sessionId;
    }
    await this.read(reply, requestIdOf(message));
    if ('method' in message && message.method === 'notifications/initialized') void this.listen();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    for (const reply of this.open) reply.close();
    if (this.sessionId === undefined) return;
    try {
      await drain(await this.http.request('DELETE', this.headers({})));
    } catch {
      // The application may be closing too: the session ends with it.
    }
  }

  /**
   * The session's GET stream, for messages outside calls. A server without one (sessions off, or
   * a 405) is left alone: nothing outside calls will come.
   */
  private async listen(): Promise<void> {
    if (this.sessionId === undefined || this.closed) return;
    try {
      const reply = await this.http.request('GET', this.headers({ accept: 'text/event-stream' }));
      if (reply.status !== 200 || this.closed) {
        reply.close();
        return;
      }
      await this.read(reply, undefined);
    } catch (error) {
      if (!this.closed) this.events.fail(error instanceof Error ? error : new Error(String(error)));
    }
  }

  private async read(reply: HttpReply, requestId: RequestId | undefined): Promise<void> {
    this.open.add(reply);
    try {
      await readAnswer(reply, requestId, (message) => this.events.deliver(message));
    } catch (error) {
      // Closed by the client: what was being read is no longer anyone's.
      if (!reply.closed && !this.closed) throw error;
    } finally {
      this.open.delete(reply);
    }
  }

  private headers(headers: Record<string, string>): Record<string, string> {
    return {
      ...headers,
      ...(this.sessionId === undefined ? {} : { 'mcp-session-id': this.sessionId }),
      ...(this.protocolVersion === undefined ? {} : { 'mcp-protocol-version': this.protocolVersion }),
    };
  }
}
