import { httpExchange, type HttpResult } from './http-exchange.js';
import { openSession } from './open-session.js';
import { MCP_POST_HEADERS } from './start-app.js';

/** A JSON-RPC answer as these tests read it. */
export interface ReplyBody {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown> & { content?: Record<string, unknown>[]; isError?: boolean };
  error?: { code: number; message: string };
}

export interface ExchangeOptions {
  readonly method?: 'POST' | 'GET' | 'DELETE';
  readonly headers?: Record<string, string>;
  /** A string is sent as is (hand-written JSON); anything else is JSON-encoded. */
  readonly body?: unknown;
}

/** `httpExchange`, POST unless told, the body JSON-encoded unless a string; 5 s to answer. */
export function exchange(url: string, options: ExchangeOptions = {}): Promise<HttpResult> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  return httpExchange(url, options.method ?? 'POST', options.headers, body, { timeoutMs: 5000 });
}

const json = (reply: HttpResult): ReplyBody => JSON.parse(reply.text) as ReplyBody;

/** The JSON-RPC message of an answer's body, if it has one (a 202 has none). */
export const replyOf = (reply: HttpResult): ReplyBody | undefined => (reply.text === '' ? undefined : json(reply));

/** The JSON-RPC message an endpoint's POST answered with; fails unless it is JSON. */
export function bodyOf(reply: HttpResult): ReplyBody {
  expect(reply.headers['content-type']).toMatch(/^application\/json\b/);
  return json(reply);
}

/**
 * A small MCP client over whole HTTP exchanges ({@link exchange}) for one endpoint: it holds one
 * session, sends exactly the headers given (the session id, and no MCP-Protocol-Version of its
 * own), and reads every answer to its end.
 */
export class HttpMcpClient {
  sessionId: string | undefined;

  constructor(
    readonly url: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  post(body: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
    return exchange(this.url, {
      headers: {
        ...MCP_POST_HEADERS,
        ...this.extraHeaders,
        ...(this.sessionId === undefined ? {} : { 'mcp-session-id': this.sessionId }),
        ...headers,
      },
      body,
    });
  }

  /**
   * Opens a session and holds its id; sends no `notifications/initialized` (nor any other request):
   * these tests send exactly what they mean to.
   */
  async initialize(protocolVersion = '2025-06-18'): Promise<string> {
    const { id } = await openSession(this.url, {
      protocolVersion,
      headers: this.extraHeaders,
      initialized: false,
      send: (headers, body) => exchange(this.url, { headers, body }),
    });
    expect(id).toMatch(/^[0-9a-f-]{36}$/);
    this.sessionId = id;
    return id;
  }

  call(name: string, args: unknown = {}, id: string | number = 1): Promise<HttpResult> {
    return this.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  }

  async ping(id: string | number = 'ping'): Promise<ReplyBody> {
    const reply = await this.post({ jsonrpc: '2.0', id, method: 'ping' });
    expect(reply.status).toBe(200);
    return bodyOf(reply);
  }

  get(headers: Record<string, string> = {}): Promise<HttpResult> {
    return exchange(this.url, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': this.sessionId ?? '',
        ...this.extraHeaders,
        ...headers,
      },
    });
  }
}
