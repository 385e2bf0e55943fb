import type { IncomingMessage, ServerResponse } from 'node:http';
import { carriesBody } from './http-request.js';
import { writeTransportError } from './http-responses.js';

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
