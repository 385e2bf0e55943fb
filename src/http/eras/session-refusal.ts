import type { ServerResponse } from 'node:http';
import type { SessionRefusal } from '../../interfaces/mcp-shared-state.interface.js';
import { errorResponse, ErrorCode, JsonRpcError } from '../../protocol/json-rpc.errors.js';
import type { RequestId } from '../../protocol/json-rpc.types.js';
import { writeJson } from '../responses/http-responses.js';

/**
 * How an `initialize` refused by a session limit is answered: the HTTP status tells a proxy or a
 * plain HTTP client which limit it met, the JSON-RPC error tells an MCP client (and its user), and
 * `Retry-After` says when a place may be free.
 */
const ANSWERS: Readonly<Record<SessionRefusal, { status: number; message: string }>> = {
  // The whole server is full: not this client's doing, so "unavailable".
  full: { status: 503, message: 'Too many sessions; try again later' },
  // This principal holds its share: its own to free, so "too many requests" (of its own).
  'principal-full': {
    status: 429,
    message: 'Too many sessions for this principal; end one (DELETE) or try again later',
  },
};

/** Answers an `initialize` that a session limit refused. */
export function writeSessionRefusal(res: ServerResponse, id: RequestId, refusal: SessionRefusal): void {
  const { status, message } = ANSWERS[refusal];
  writeJson(res, status, errorResponse(id, new JsonRpcError(ErrorCode.ServerError, message)), {
    'retry-after': '60',
  });
}
