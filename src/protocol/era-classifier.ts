import type { DecodedBody } from './json-rpc.codec.js';
import { errorResponse, invalidRequest } from './json-rpc.errors.js';
import type { JsonRpcFailure, JsonRpcNotification, JsonRpcRequest } from './json-rpc.types.js';
import { isModernProtocolVersion } from './protocol-version.js';
import { claimsModernEra } from './request-envelope.js';

/**
 * The two eras of MCP: `legacy` revisions open a session with `initialize` (2025-11-25 and
 * earlier); `modern` ones are stateless, every request naming its version (2026-07-28 onwards).
 */
export type McpEra = 'modern' | 'legacy';

/**
 * What the endpoint serves: both eras (`dual`), or only one of them.
 * - `dual`: a request whose `_meta` names a protocol version is served statelessly, anything else
 *   as a 2025 session request.
 * - `modern`: 2025 traffic is answered with the unsupported-version error naming the modern revisions.
 * - `legacy`: everything is served as 2025 traffic (a modern client then falls back to `initialize`).
 */
export type McpEras = 'dual' | 'modern' | 'legacy';

/** What a POST is, decided from its body first and its `MCP-Protocol-Version` header second. */
export type EraVerdict =
  | { readonly era: 'legacy' }
  | { readonly era: 'modern'; readonly message: JsonRpcRequest | JsonRpcNotification }
  /** Modern by its header, but not a message the modern era can serve: answered with `response`. */
  | { readonly era: 'refused'; readonly status: number; readonly response: JsonRpcFailure };

/**
 * Decides the era of one POST, per request and body first: a message whose `params._meta` claims a
 * protocol version is modern, whatever else it carries (even an `initialize`, which the modern era
 * then does not find). Without a claim, only an `MCP-Protocol-Version` header naming a modern
 * revision makes it modern (it is then a malformed modern request); anything else is legacy, served
 * exactly as a 2025 server serves it. Batches are a 2025-03-26 feature: one carrying a modern
 * message is refused.
 *
 * @param versionHeader the `MCP-Protocol-Version` header, if any.
 * @param sessionHeader whether an `Mcp-Session-Id` header came: such traffic is a session's, never
 *   upgraded by its version header alone.
 */
export function classifyPost(body: DecodedBody, versionHeader: string | undefined, sessionHeader: boolean): EraVerdict {
  const modernByHeader = !sessionHeader && isModernProtocolVersion(versionHeader);
  switch (body.kind) {
    case 'error':
      return modernByHeader ? { era: 'refused', status: 400, response: body.error } : LEGACY;
    case 'batch': {
      const claimed = body.entries.some(
        (entry) => (entry.kind === 'request' || entry.kind === 'notification') && claimsModernEra(entry.message.params),
      );
      if (!claimed && !modernByHeader) return LEGACY;
      return {
        era: 'refused',
        status: 400,
        response: errorResponse(null, invalidRequest('batches may not carry requests of protocol revision 2026-07-28')),
      };
    }
    case 'single': {
      const { entry } = body;
      if (entry.kind === 'invalid') {
        return modernByHeader ? { era: 'refused', status: 400, response: entry.error } : LEGACY;
      }
      if (entry.kind === 'response') return LEGACY;
      if (claimsModernEra(entry.message.params) || modernByHeader) return { era: 'modern', message: entry.message };
      return LEGACY;
    }
  }
}

const LEGACY: EraVerdict = Object.freeze({ era: 'legacy' });
