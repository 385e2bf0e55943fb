import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_PROTOCOL_VERSION_HEADER } from '../../mcp.constants.js';
import type { DecodedBody } from '../../protocol/json-rpc.codec.js';
import { errorResponse, invalidRequest, unsupportedProtocolVersion } from '../../protocol/json-rpc.errors.js';
import { Method } from '../../protocol/methods.js';
import { DEFAULT_HEADER_PROTOCOL_VERSION } from '../../protocol/protocol-version.js';
import { headerValue } from '../requests/http-request.js';
import { writeEmpty, writeJson, writeTransportError } from '../responses/http-responses.js';

/**
 * 2025 traffic at an endpoint that serves only the modern era (`eras: 'modern'`): requests get the
 * unsupported-version error naming the revisions it speaks, the only diagnostic a 2025 client can
 * show its user; notifications are taken and dropped.
 */
export function refuseLegacyPost(
  body: DecodedBody,
  raw: IncomingMessage,
  res: ServerResponse,
  supported: readonly string[],
): void {
  if (body.kind !== 'single' || body.entry.kind === 'response' || body.entry.kind === 'invalid') {
    return writeJson(
      res,
      400,
      errorResponse(null, invalidRequest('this endpoint serves stateless requests of protocol revision 2026-07-28')),
    );
  }
  const { entry } = body;
  if (entry.kind === 'notification') return writeEmpty(res, 202);
  const named = entry.message.method === Method.Initialize ? entry.message.params?.protocolVersion : undefined;
  const requested =
    typeof named === 'string'
      ? named
      : (headerValue(raw.headers, MCP_PROTOCOL_VERSION_HEADER) ?? DEFAULT_HEADER_PROTOCOL_VERSION);
  writeJson(res, 400, errorResponse(entry.message.id, unsupportedProtocolVersion(requested, supported)));
}

/**
 * GET and DELETE are 2025 session operations: an endpoint without sessions (`eras: 'modern'`, or
 * `sessions.enabled: false`) has neither.
 */
export function refuseSessionMethod(
  res: ServerResponse,
  why = 'Method Not Allowed: this endpoint serves stateless POST requests only',
): void {
  writeTransportError(res, 405, why, undefined, { allow: 'POST' });
}
