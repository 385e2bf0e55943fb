import { randomUUID } from 'node:crypto';
import type { Agent } from 'node:http';
import { send, type HttpReply } from './http-client.js';

export const PROTOCOL_VERSION = '2025-11-25';
export const ECHO_TEXT = 'hello';

const POST_HEADERS = Object.freeze({
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
});

export const INITIALIZE_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 0,
  method: 'initialize',
  params: {
    protocolVersion: PROTOCOL_VERSION,
    capabilities: {},
    clientInfo: { name: 'mcp42-bench', version: '1.0.0' },
  },
});

const INITIALIZED_BODY = JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' });

export const ECHO_BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: ECHO_TEXT } },
});

/** The stateless revision: no session; every request names its version and client in `params._meta`. */
export const MODERN_PROTOCOL_VERSION = '2026-07-28';

/** A 2026-07-28 request (id 1): its params, then the per-request `_meta` envelope. */
export function modernBody(method: string, params: Record<string, unknown> = {}): string {
  return JSON.stringify({
    jsonrpc: '2.0',
    id: 1,
    method,
    params: {
      ...params,
      _meta: {
        'io.modelcontextprotocol/protocolVersion': MODERN_PROTOCOL_VERSION,
        'io.modelcontextprotocol/clientInfo': { name: 'mcp42-bench', version: '1.0.0' },
        'io.modelcontextprotocol/clientCapabilities': {},
      },
    },
  });
}

/** Headers of a 2026-07-28 request: the version, the method, and the name it mirrors when it has one. */
export function modernHeaders(method: string, name?: string): Record<string, string> {
  return {
    ...POST_HEADERS,
    'mcp-protocol-version': MODERN_PROTOCOL_VERSION,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}

/** The echo call as a 2026-07-28 request: the same call, with the per-request `_meta` envelope. */
export const MODERN_ECHO_BODY = modernBody('tools/call', { name: 'echo', arguments: { text: ECHO_TEXT } });

/** Headers of the 2026-07-28 echo call: the version, and the method and tool name mirrored from the body. */
export function modernEchoHeaders(): Record<string, string> {
  return modernHeaders('tools/call', 'echo');
}

/** Headers of a POST that opens a session. */
export function initializeHeaders(): Record<string, string> {
  return { ...POST_HEADERS };
}

/** Headers of every POST on an open session. */
export function sessionHeaders(sessionId: string): Record<string, string> {
  return { ...POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': PROTOCOL_VERSION };
}

/** `initialize`, then `notifications/initialized`: a session ready for calls. Returns its id. */
export async function openSession(agent: Agent, url: string): Promise<string> {
  const init = await send(agent, 'POST', url, initializeHeaders(), INITIALIZE_BODY);
  const sessionId = init.headers['mcp-session-id'];
  if (init.status !== 200 || typeof sessionId !== 'string') {
    throw new Error(`initialize answered ${init.status} without a session id: ${init.body.slice(0, 200)}`);
  }
  const initialized = await send(agent, 'POST', url, sessionHeaders(sessionId), INITIALIZED_BODY);
  if (initialized.status !== 202) throw new Error(`notifications/initialized answered ${initialized.status}`);
  return sessionId;
}

/**
 * Ends a session with DELETE. Without Content-Type: there is no body (Fastify answers a DELETE that
 * names a JSON body but has none with 400 before the request reaches the endpoint).
 */
export async function closeSession(agent: Agent, url: string, sessionId: string): Promise<void> {
  const { 'content-type': _none, ...headers } = sessionHeaders(sessionId);
  const reply = await send(agent, 'DELETE', url, headers);
  if (reply.status !== 200 && reply.status !== 204) throw new Error(`DELETE answered ${reply.status}`);
}

/**
 * Sends the echo call (`request`, ECHO_BODY unless told) `samples` times and checks each answer is
 * the echo result, as JSON.
 * @returns the exact body, so the load run can count any response that differs from it.
 */
export async function sampleEcho(
  agent: Agent,
  url: string,
  headers: Record<string, string>,
  request = ECHO_BODY,
  samples = 5,
): Promise<string> {
  let body: string | undefined;
  for (let i = 0; i < samples; i++) {
    const reply = await send(agent, 'POST', url, headers, request);
    checkEchoReply(reply);
    if (body !== undefined && reply.body !== body) throw new Error('echo answers differ between calls');
    body = reply.body;
  }
  return body!;
}

/** The echo call of one load, as sent, and the exact answer it gets. */
export interface EchoCall {
  readonly headers: Record<string, string>;
  readonly body: string;
  readonly expectBody: string;
}

/**
 * The echo call of a load on `url`: a 2026-07-28 stateless request (`modern`), or a call on a 2025
 * session opened first; the bare route (`bare`) ignores MCP headers and gets the same ones, a made-up
 * session id included. Checked by a few calls before any load.
 */
export async function prepareEcho(
  agent: Agent,
  url: string,
  era: 'session' | 'modern',
  bare: boolean,
): Promise<EchoCall> {
  let headers: Record<string, string>;
  let body = ECHO_BODY;
  if (era === 'modern') {
    headers = modernEchoHeaders();
    body = MODERN_ECHO_BODY;
  } else {
    headers = sessionHeaders(bare ? randomUUID() : await openSession(agent, url));
  }
  return { headers, body, expectBody: await sampleEcho(agent, url, headers, body) };
}

function checkEchoReply(reply: HttpReply): void {
  const fail = (why: string): never => {
    throw new Error(`not the echo result (${why}): ${reply.status} ${reply.body.slice(0, 300)}`);
  };
  if (reply.status !== 200) fail('status');
  if (!String(reply.headers['content-type']).startsWith('application/json')) fail('content-type');
  const message = JSON.parse(reply.body) as {
    jsonrpc?: unknown;
    id?: unknown;
    result?: { content?: { type?: unknown; text?: unknown }[]; isError?: unknown; resultType?: unknown };
  };
  if (message.jsonrpc !== '2.0' || message.id !== 1) fail('envelope');
  const content = message.result?.content;
  if (message.result?.isError || content?.length !== 1) fail('result');
  // A 2026-07-28 result says it is complete (an input round would not be the echo).
  if (message.result?.resultType !== undefined && message.result.resultType !== 'complete') fail('resultType');
  if (content![0]!.type !== 'text' || content![0]!.text !== ECHO_TEXT) fail('content');
}
