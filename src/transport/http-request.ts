import type { IncomingHttpHeaders, IncomingMessage, ServerResponse } from 'node:http';

/**
 * The Node request under whatever the HTTP framework hands the controller: Express's request is
 * the Node request itself, Fastify's wraps it as `raw`.
 */
export function rawRequest(request: unknown): IncomingMessage {
  return ((request as { raw?: IncomingMessage }).raw ?? request) as IncomingMessage;
}

/** The Node response under Express's response or Fastify's reply. */
export function rawResponse(response: unknown): ServerResponse {
  return ((response as { raw?: ServerResponse }).raw ?? response) as ServerResponse;
}

/** A header's value; when a client repeats it, the first one. */
export function headerValue(headers: IncomingHttpHeaders, name: string): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value[0] : value;
}
