import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_PROTOCOL_VERSION_HEADER } from '../../mcp.constants.js';
import type { DecodedBody } from '../../protocol/json-rpc.codec.js';
import { legacyRefusal } from '../../protocol/legacy-refusal.js';
import { headerValue } from '../requests/http-request.js';
import { writeEmpty, writeJson, writeTransportError } from '../responses/http-responses.js';

/**
 * 2025 traffic at an endpoint that serves only the modern era (`eras: 'modern'`): answered as
 * {@link legacyRefusal} says, with 400 (a notification with 202).
 */
export function refuseLegacyPost(
  body: DecodedBody,
  raw: IncomingMessage,
  res: ServerResponse,
  supported: readonly string[],
): void {
  const refusal = legacyRefusal(body, headerValue(raw.headers, MCP_PROTOCOL_VERSION_HEADER), supported);
  if (refusal === undefined) return writeEmpty(res, 202);
  writeJson(res, 400, refusal);
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
