import type http from 'node:http';
import net from 'node:net';
import { HttpExchange, SseParser, type SseEvent } from './sse-reader.js';

/**
 * Raw HTTP helpers for the SSE e2e tests: every SSE field the server writes (`id`, `event`,
 * `data`, `retry`) is kept, in order, so tests can assert on ids, priming events and `retry` lines,
 * which higher-level clients hide. The parsing itself is {@link SseParser}'s.
 */

/** One SSE block as written: any of its fields. Comment-only blocks (keep-alives) are not records. */
export type SseRecord = SseEvent;

/** The complete SSE blocks of `text` (a trailing partial block is left out). */
export const parseSse = (text: string): SseRecord[] => SseParser.parse(text);

/** How a response ended: `end` when the server finished it, `aborted` when the connection broke. */
export type SseEnd = 'end' | 'aborted';

/** One HTTP exchange read as it arrives: an SSE stream, or any other (short) answer. */
export class SseConnection extends HttpExchange<SseEnd> {
  private constructor(req: http.ClientRequest, res: http.IncomingMessage) {
    super(req, res, (how) => (how === 'error' ? 'aborted' : how), 3000);
  }

  /**
   * Sends a request and resolves once the response head arrived.
   * @param agent a keep-alive agent to reuse connections; by default each request has its own.
   */
  static open(
    url: string,
    method: string,
    headers: Record<string, string>,
    body?: string,
    agent: http.Agent | false = false,
    timeoutMs = 3000,
  ): Promise<SseConnection> {
    return HttpExchange.send((req, res) => new SseConnection(req, res), url, method, headers, body, agent, timeoutMs);
  }

  get isSse(): boolean {
    return this.isEventStream;
  }

  /** How the response ended, once it has. */
  get ended(): SseEnd | undefined {
    return this.finishedAs;
  }

  /** Every complete SSE block so far. */
  records(): SseRecord[] {
    return [...this.parser.events];
  }

  /** The ids of every block that carried one, in order. */
  ids(): string[] {
    return this.records().flatMap((record) => (record.id === undefined ? [] : [record.id]));
  }

  /** The records of events that carry a message (priming events and lone `retry` blocks excluded). */
  messageRecords(): SseRecord[] {
    return this.records().filter((record) => record.data !== undefined && record.data !== '');
  }

  /** The JSON-RPC messages received so far, parsed. */
  messages(): Record<string, unknown>[] {
    return this.messageRecords().map((record) => JSON.parse(record.data!) as Record<string, unknown>);
  }

  /** The id of the last event that carried one. */
  lastId(): string | undefined {
    return this.ids().at(-1);
  }

  /** Resolves once at least `count` messages arrived. */
  waitForMessages(count: number, timeoutMs?: number): Promise<void> {
    return this.waitFor((connection) => connection.messages().length >= count, timeoutMs);
  }

  /** Resolves with how the response ended; rejects if it is still open after `timeoutMs`. */
  async waitForEnd(timeoutMs = 3000): Promise<SseEnd> {
    await this.waitFor((connection) => connection.ended !== undefined, timeoutMs);
    return this.finishedAs!;
  }

  /** The whole (non-SSE) body, parsed, once the response ended. */
  async json(): Promise<unknown> {
    await this.finished;
    return this.raw === '' ? undefined : (JSON.parse(this.raw) as unknown);
  }

  /** Drops the connection, as a client that goes away does. */
  override close(): void {
    super.close();
    this.res.destroy();
  }
}

/** Connections a test opened, closed together when it ends. */
export class ConnectionTracker {
  private readonly open = new Set<{ close(): void }>();

  track<T extends { close(): void }>(connection: T): T {
    this.open.add(connection);
    return connection;
  }

  closeAll(): void {
    for (const connection of this.open) connection.close();
    this.open.clear();
  }
}

const POST_HEADERS = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

/** A minimal MCP client over raw HTTP: one session, every exchange an {@link SseConnection}. */
export class McpHttpSession {
  private constructor(
    readonly mcpUrl: string,
    readonly id: string,
    readonly protocolVersion: string,
    private readonly tracker: ConnectionTracker,
    private readonly agent: http.Agent | false,
  ) {}

  /**
   * Initializes a session at `protocolVersion` and sends `notifications/initialized`.
   * @param agent for POSTs and DELETE (GET streams always get their own connection).
   */
  static async open(
    mcpUrl: string,
    protocolVersion: string,
    tracker: ConnectionTracker,
    capabilities: Record<string, unknown> = {},
    agent: http.Agent | false = false,
  ): Promise<McpHttpSession> {
    const init = await SseConnection.open(
      mcpUrl,
      'POST',
      POST_HEADERS,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion, capabilities, clientInfo: { name: 'sse-events', version: '1.0.0' } },
      }),
    );
    const body = (await init.json()) as { result?: { protocolVersion?: string } };
    const id = init.headers['mcp-session-id'];
    if (init.status !== 200 || typeof id !== 'string' || body.result?.protocolVersion !== protocolVersion) {
      throw new Error(`initialize failed: ${init.status} ${init.text}`);
    }
    const session = new McpHttpSession(mcpUrl, id, protocolVersion, tracker, agent);
    const initialized = await session.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    await initialized.finished;
    return session;
  }

  /** Headers of every request of this session, plus `extra`. */
  headers(extra: Record<string, string> = {}): Record<string, string> {
    return { 'mcp-session-id': this.id, 'mcp-protocol-version': this.protocolVersion, ...extra };
  }

  /** POSTs one message (or batch); resolves with the response as it starts. */
  async post(message: unknown): Promise<SseConnection> {
    const connection = await SseConnection.open(
      this.mcpUrl,
      'POST',
      this.headers(POST_HEADERS),
      JSON.stringify(message),
      this.agent,
    );
    return this.tracker.track(connection);
  }

  /** POSTs `tools/call`; `progressToken` goes in `_meta`. */
  call(id: number | string, name: string, args: object, progressToken?: string | number): Promise<SseConnection> {
    const params: Record<string, unknown> = { name, arguments: args };
    if (progressToken !== undefined) params._meta = { progressToken };
    return this.post({ jsonrpc: '2.0', id, method: 'tools/call', params });
  }

  /** POSTs `notifications/cancelled` for request `requestId`; resolves with the status. */
  async cancel(requestId: number | string): Promise<number> {
    const response = await this.post({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId, reason: 'test' },
    });
    await response.finished;
    return response.status;
  }

  /** Opens a GET stream; with `lastEventId`, a resumption. */
  async get(lastEventId?: string): Promise<SseConnection> {
    const extra: Record<string, string> = { accept: 'text/event-stream' };
    if (lastEventId !== undefined) extra['last-event-id'] = lastEventId;
    return this.tracker.track(await SseConnection.open(this.mcpUrl, 'GET', this.headers(extra)));
  }

  /** Ends the session; resolves with the status. */
  async delete(): Promise<number> {
    const response = await SseConnection.open(this.mcpUrl, 'DELETE', this.headers(), undefined, this.agent);
    await response.finished;
    return response.status;
  }
}

/**
 * A request sent on a raw socket whose client reads the response head and then stops reading:
 * the server's writes back up into its socket, as with a client that hangs.
 */
export class StalledRequest {
  private body: Buffer;
  /** The SSE records read before the client stalled. */
  readonly recordsBeforeStall: readonly SseRecord[];

  private constructor(
    readonly socket: net.Socket,
    readonly status: number,
    readonly head: string,
    rest: Buffer,
  ) {
    this.body = rest;
    this.recordsBeforeStall = parseSse(dechunk(rest));
  }

  /**
   * @param readRecords SSE records to read before stalling (say, 1 to learn a priming event's id).
   */
  static open(
    url: string,
    method: string,
    headers: Record<string, string>,
    body = '',
    readRecords = 0,
  ): Promise<StalledRequest> {
    const { hostname, port, pathname } = new URL(url);
    return new Promise((resolve, reject) => {
      const socket = net.connect(Number(port), hostname);
      let received = Buffer.alloc(0);
      const onData = (chunk: Buffer): void => {
        received = Buffer.concat([received, chunk]);
        const end = received.indexOf('\r\n\r\n');
        if (end === -1) return;
        const rest = received.subarray(end + 4);
        if (parseSse(dechunk(rest)).length < readRecords) return;
        // From here on nothing is read: the kernel's buffers fill, then the server's.
        socket.pause();
        socket.off('data', onData);
        socket.off('error', reject);
        const head = received.subarray(0, end).toString('latin1');
        const status = Number(/^HTTP\/1\.1 (\d{3})/.exec(head)?.[1] ?? 0);
        resolve(new StalledRequest(socket, status, head, rest));
      };
      socket.on('data', onData);
      socket.on('error', reject);
      const lines = [
        `${method} ${pathname} HTTP/1.1`,
        `host: ${hostname}:${port}`,
        ...Object.entries(headers).map(([name, value]) => `${name}: ${value}`),
        `content-length: ${Buffer.byteLength(body)}`,
        'connection: close',
        '',
        '',
      ];
      socket.write(lines.join('\r\n') + body);
    });
  }

  /**
   * Reads again, to the end of the response (its last chunk, or the connection closing), and
   * returns the SSE records of the body. Rejects if the server has not finished within `timeoutMs`.
   */
  drain(timeoutMs = 3000): Promise<SseRecord[]> {
    return new Promise((resolve, reject) => {
      const finish = (): void => {
        clearTimeout(timer);
        this.socket.off('data', onData);
        this.socket.off('close', finish);
        resolve(parseSse(dechunk(this.body)));
      };
      const onData = (chunk: Buffer): void => {
        this.body = Buffer.concat([this.body, chunk]);
        if (this.body.subarray(-7).toString('latin1').endsWith('\r\n0\r\n\r\n')) finish();
      };
      const timer = setTimeout(() => {
        this.socket.destroy();
        reject(new Error(`the stalled response did not end within ${timeoutMs} ms (${this.body.length} bytes read)`));
      }, timeoutMs);
      this.socket.on('data', onData);
      this.socket.once('close', finish);
      this.socket.resume();
    });
  }

  close(): void {
    this.socket.destroy();
  }
}

/** The payload of a chunked HTTP/1.1 body (complete chunks only). */
function dechunk(body: Buffer): string {
  const parts: Buffer[] = [];
  let at = 0;
  while (at < body.length) {
    const lineEnd = body.indexOf('\r\n', at);
    if (lineEnd === -1) break;
    const size = parseInt(body.subarray(at, lineEnd).toString('latin1'), 16);
    if (!Number.isFinite(size) || size === 0) break;
    const start = lineEnd + 2;
    if (start + size > body.length) break;
    parts.push(body.subarray(start, start + size));
    at = start + size + 2;
  }
  return Buffer.concat(parts).toString('utf8');
}

/** Connections an HTTP server holds open now. */
export function openConnections(server: http.Server): Promise<number> {
  return new Promise((resolve, reject) =>
    server.getConnections((error, count) => (error ? reject(error) : resolve(count))),
  );
}
