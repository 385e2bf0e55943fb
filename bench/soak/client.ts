import { Agent, request, type ClientRequest, type IncomingMessage } from 'node:http';
import { ECHO_TEXT, INITIALIZE_BODY, MODERN_PROTOCOL_VERSION, PROTOCOL_VERSION } from '../mcp-client.js';

const REQUEST_TIMEOUT_MS = 30_000;

const POST_HEADERS = Object.freeze({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

export interface Reply {
  readonly status: number;
  readonly sessionId: string | undefined;
  readonly contentType: string;
  readonly body: string;
}

/**
 * One POST, its whole body read as text; with `abortAfterMs`, the request is destroyed that long
 * after it was sent (mid-request or mid-answer), and resolves to 'aborted' unless it finished first.
 */
export function post(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  body: string,
  abortAfterMs?: number,
): Promise<Reply | 'aborted'> {
  return new Promise((resolve, reject) => {
    let settled = false;
    const req = request(url, { method: 'POST', agent, headers }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => {
        settled = true;
        clearTimeout(abortTimer);
        const sessionId = res.headers['mcp-session-id'];
        resolve({
          status: res.statusCode ?? 0,
          sessionId: typeof sessionId === 'string' ? sessionId : undefined,
          contentType: res.headers['content-type'] ?? '',
          body: Buffer.concat(chunks).toString('utf8'),
        });
      });
      res.on('error', (error) => (aborted ? resolve('aborted') : reject(error)));
      res.on('aborted', () => aborted && resolve('aborted'));
    });
    let aborted = false;
    const abortTimer =
      abortAfterMs === undefined
        ? undefined
        : setTimeout(() => {
            if (settled) return;
            aborted = true;
            req.destroy();
            resolve('aborted');
          }, abortAfterMs);
    req.on('error', (error) => (aborted ? resolve('aborted') : reject(error)));
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error(`POST ${url} timed out`)));
    req.end(body);
  });
}

/** A keep-alive agent for `sockets` concurrent requests. */
export function keepAlive(sockets: number): Agent {
  return new Agent({ keepAlive: true, maxSockets: sockets });
}

export const initializeHeaders = (): Record<string, string> => ({ ...POST_HEADERS });

export function sessionHeaders(sessionId: string): Record<string, string> {
  return { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION };
}

export { INITIALIZE_BODY };

export const INITIALIZED_BODY = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

let nextId = 1;

/** A 2025 tools/call; with `progressToken`, the server may answer it as SSE with progress notifications. */
export function sessionCallBody(name: string, args: Record<string, unknown>, progressToken?: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: { name, arguments: args, ...(progressToken === undefined ? {} : { _meta: { progressToken } }) },
  });
}

/** A stateless 2026-07-28 tools/call: the `_meta` envelope (with `progressToken` when given). */
export function modernCallBody(name: string, args: Record<string, unknown>, progressToken?: string): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'tools/call',
    params: {
      name,
      arguments: args,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
        'io.modelcontextprotocol/clientInfo': { name: 'mcp42-soak', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
        ...(progressToken === undefined ? {} : { progressToken }),
      },
    },
  });
}

export function modernCallHeaders(name: string): Record<string, string> {
  return {
    ...POST_HEADERS,
    'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
}

export const ECHO_ARGS = Object.freeze({ text: ECHO_TEXT });

/** Whether a tools/call answer (JSON, or the last event of SSE) is a result that is not an error. */
export function isResult(reply: Reply): boolean {
  return reply.status === 200 && reply.body.includes('"result"') && !reply.body.includes('"isError":true');
}

/** `initialize` then `notifications/initialized`: the new session's id. */
export async function openSession(agent: Agent, url: string): Promise<string> {
  const init = await post(agent, url, initializeHeaders(), INITIALIZE_BODY);
  if (init === 'aborted' || init.status !== 200 || init.sessionId === undefined) {
    throw new Error(
      `initialize failed: ${init === 'aborted' ? 'aborted' : `${init.status} ${init.body.slice(0, 200)}`}`,
    );
  }
  const done = await post(agent, url, sessionHeaders(init.sessionId), INITIALIZED_BODY);
  if (done === 'aborted' || done.status !== 202) throw new Error('notifications/initialized failed');
  return init.sessionId;
}

/** DELETE of a session (no body, so no content-type). */
export function deleteSession(agent: Agent, url: string, sessionId: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'DELETE',
        agent,
        headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION },
      },
      (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode ?? 0));
      },
    );
    req.on('error', reject);
    req.setTimeout(REQUEST_TIMEOUT_MS, () => req.destroy(new Error('DELETE timed out')));
    req.end();
  });
}

/** An open GET (standalone SSE) stream of a session. */
export interface GetStream {
  readonly req: ClientRequest;
  readonly res: IncomingMessage;
}

/**
 * Opens the GET stream of a session on its own connection (`agent` false) and resolves once the
 * server answered 200. With `stall`, the client never reads it: the response and its socket are
 * paused, so what the server writes piles up in the kernel, then in the server.
 */
export function openGetStream(url: string, sessionId: string, stall: boolean): Promise<GetStream> {
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'GET',
        agent: false,
        headers: {
          accept: 'text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': PROTOCOL_VERSION,
        },
      },
      (res) => {
        streamAnswered('GET stream', req, res, stall, resolve, reject);
      },
    );
    req.on('error', reject);
    req.end();
  });
}

/**
 * Opens a `subscriptions/listen` stream (2026-07-28) for updates of `uri` on its own connection and
 * resolves once the server answered 200; with `stall`, the client never reads it (as {@link openGetStream}).
 */
export function openListenStream(url: string, uri: string, stall: boolean): Promise<GetStream> {
  const body = JSON.stringify({
    jsonrpc: '2.0',
    id: nextId++,
    method: 'subscriptions/listen',
    params: {
      notifications: { resourceSubscriptions: [uri] },
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
        'io.modelcontextprotocol/clientInfo': { name: 'mcp42-soak', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
  return new Promise((resolve, reject) => {
    const req = request(
      url,
      {
        method: 'POST',
        agent: false,
        headers: {
          ...POST_HEADERS,
          'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
          'mcp-method': 'subscriptions/listen',
        },
      },
      (res) => {
        streamAnswered('subscriptions/listen', req, res, stall, resolve, reject);
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

/** A stream's first answer: refused unless 200; else paused for good (`stall`) or drained. */
function streamAnswered(
  what: string,
  req: ClientRequest,
  res: IncomingMessage,
  stall: boolean,
  resolve: (stream: GetStream) => void,
  reject: (error: Error) => void,
): void {
  if (res.statusCode !== 200) {
    res.resume();
    req.destroy();
    reject(new Error(`${what} answered ${String(res.statusCode)}`));
    return;
  }
  res.on('error', () => undefined);
  if (stall) {
    res.pause();
    res.socket.pause();
  } else res.resume();
  resolve({ req, res });
}
