import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_PROTOCOL_VERSION_HEADER, MCP_SESSION_ID_HEADER } from '../mcp.constants.js';
import { isLegacyProtocolVersion } from '../protocol/protocol-version.js';
import type { ClientSession } from '../session/client-session.js';
import type { SessionStore } from '../session/session.store.js';
import { headerValue } from './http-request.js';
import { writeTransportError } from './http-responses.js';

/** Whether a 2025 request's `MCP-Protocol-Version` is one spoken; a missing one means 2025-03-26 and passes. */
export function legacyVersionHeaderOk(raw: IncomingMessage): boolean {
  const version = headerValue(raw.headers, MCP_PROTOCOL_VERSION_HEADER);
  return version === undefined || isLegacyProtocolVersion(version);
}

/** 400 for an unsupported `MCP-Protocol-Version` (not echoed: it is the client's and may be anything). */
export function rejectVersionHeader(res: ServerResponse): void {
  writeTransportError(res, 400, 'Bad Request: unsupported MCP-Protocol-Version');
}

/**
 * The session a GET or DELETE names, if the caller may use it: without `Mcp-Session-Id` 400, for an
 * unknown session (or another principal's) 404, written to `res`.
 */
export function sessionOf(
  sessions: SessionStore,
  request: unknown,
  raw: IncomingMessage,
  res: ServerResponse,
): ClientSession | undefined {
  const id = headerValue(raw.headers, MCP_SESSION_ID_HEADER);
  if (id === undefined) {
    writeTransportError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
    return undefined;
  }
  const session = sessions.findFor(id, request);
  if (!session) writeTransportError(res, 404, 'Session not found');
  return session;
}
