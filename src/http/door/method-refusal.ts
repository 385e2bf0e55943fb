import type { IncomingMessage, ServerResponse } from 'node:http';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { carriesBody } from '../requests/http-request.js';
import { writeTransportError } from '../responses/http-responses.js';

/** The methods the transport answers itself; every other one is refused at the door. */
const TRANSPORT_METHODS: ReadonlySet<string | undefined> = new Set(['POST', 'GET', 'DELETE']);

/** Whether the transport answers `method` (GET and DELETE perhaps with a 405 that says why). */
export function reachesTransport(method: string | undefined): boolean {
  return TRANSPORT_METHODS.has(method);
}

/** Whether 2025 sessions exist here: GET and DELETE are theirs. */
export function servesSessions(options: Pick<ResolvedMcpOptions, 'eras' | 'sessions'>): boolean {
  return options.eras !== 'modern' && options.sessions.enabled;
}

/** The endpoint's `Allow` value: the methods it serves. */
export function allowedMethods(options: Pick<ResolvedMcpOptions, 'eras' | 'sessions'>): string {
  return servesSessions(options) ? 'GET, POST, DELETE' : 'POST';
}

/**
 * 405 for a method the endpoint does not serve (PUT, PATCH, OPTIONS without CORS…), with `Allow`
 * and a JSON-RPC error body. A body the request may carry is not read: the connection is closed
 * after the answer, so the bytes left unread cannot be taken for the client's next request on a
 * kept-alive socket (Node would otherwise reset it under that request).
 */
export function refuseMethod(raw: IncomingMessage, res: ServerResponse, allow: string): void {
  writeTransportError(res, 405, `Method Not Allowed: the MCP endpoint answers ${allow}`, undefined, {
    allow,
    ...(carriesBody(raw) && !raw.readableEnded ? { connection: 'close' } : {}),
  });
}
