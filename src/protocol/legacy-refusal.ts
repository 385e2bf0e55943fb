import type { DecodedBody } from './json-rpc.codec.js';
import { errorResponse, invalidRequest, unsupportedProtocolVersion } from './json-rpc.errors.js';
import type { JsonRpcFailure } from './json-rpc.types.js';
import { Method } from './methods.js';
import { DEFAULT_HEADER_PROTOCOL_VERSION } from './protocol-version.js';

/**
 * What 2025 traffic gets from a server that serves only the modern era (`eras: 'modern'`), on any
 * transport: a request, the unsupported-version error naming the revisions it speaks (the only
 * diagnostic a 2025 client can show its user); a notification, nothing (taken and dropped);
 * anything else (a response, an invalid message, a batch), an invalid-request error.
 * @param transportVersion the version the transport says the message is of (HTTP's
 *   `MCP-Protocol-Version`); `undefined` where it says none (stdio).
 * @returns the error to answer with, or `undefined` for a notification.
 */
export function legacyRefusal(
  body: DecodedBody,
  transportVersion: string | undefined,
  supported: readonly string[],
): JsonRpcFailure | undefined {
  if (body.kind !== 'single' || body.entry.kind === 'response' || body.entry.kind === 'invalid') {
    return errorResponse(null, invalidRequest('this server serves stateless requests of protocol revision 2026-07-28'));
  }
  const { entry } = body;
  if (entry.kind === 'notification') return undefined;
  const named = entry.message.method === Method.Initialize ? entry.message.params?.protocolVersion : undefined;
  const requested = typeof named === 'string' ? named : (transportVersion ?? DEFAULT_HEADER_PROTOCOL_VERSION);
  return errorResponse(entry.message.id, unsupportedProtocolVersion(requested, supported));
}
