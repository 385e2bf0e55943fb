import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_PROTOCOL_VERSION_HEADER, MCP_SESSION_ID_HEADER } from '../../mcp.constants.js';
import { isLegacyProtocolVersion } from '../../protocol/protocol-version.js';
import type { ClientSession } from '../../session/client-session.js';
import type { SessionStore } from '../../session/session.store.js';
import { headerValue } from '../requests/http-request.js';
import { McpStateUnavailableError } from '../../errors/mcp-state-unavailable.error.js';
import { writeStateUnavailable, writeTransportError } from '../responses/http-responses.js';

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
 * unknown session (or another principal's) 404, while the shared state cannot be reached 503,
 * written to `res`.
 */
export async function sessionOf(
  sessions: SessionStore,
  request: unknown,
  raw: IncomingMessage,
  res: ServerResponse,
): Promise<ClientSession | undefined> {
  const id = headerValue(raw.headers, MCP_SESSION_ID_HEADER);
  if (id === undefined) {
    writeTransportError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
    return undefined;
  }
  let session: ClientSession | undefined;
  try {
    session = await sessions.findFor(id, request);
  } catch (error) {
    if (!(error instanceof McpStateUnavailableError)) throw error;
    writeStateUnavailable(res);
    return undefined;
  }
  if (!session) writeTransportError(res, 404, 'Session not found');
  return session;
}
