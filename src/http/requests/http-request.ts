import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/**
 * The Node request under whatever the HTTP framework hands the controller: Express's request is
 * the Node request itself, Fastify's wraps it as `raw`.
 */
export function rawRequest(request: unknown): IncomingMessage {
  return ((request as { raw?: IncomingMessage }).raw ?? request) as IncomingMessage;
}

/** The part of a Fastify reply read here. */
interface FastifyReplyLike {
  readonly raw: ServerResponse;
  readonly sent?: boolean;
  hijack?(): unknown;
}

/**
 * The Node response under Express's response or Fastify's reply. A Fastify reply is hijacked first:
 * the transport writes the response itself (JSON or an SSE stream that outlives the handler), and
 * Fastify must not answer it too (its handler timeout would send a 503 under a running call, and on
 * Nest 11 an error after our headers went out would crash the process).
 */
export function rawResponse(response: unknown): ServerResponse {
  const reply = response as Partial<FastifyReplyLike>;
  if (reply.raw === undefined) return response as ServerResponse;
  if (typeof reply.hijack === 'function' && reply.sent !== true) reply.hijack();
  return reply.raw;
}

/** A header's value; when a client repeats it, the first one. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}

/** Whether the request announces a body (a length above zero, or chunked framing). */
export function carriesBody(raw: IncomingMessage): boolean {
  return raw.headers['transfer-encoding'] !== undefined || Number(raw.headers['content-length'] ?? 0) > 0;
}
