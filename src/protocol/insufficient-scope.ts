import { ErrorCode, JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcErrorObject, JsonRpcResponse } from './json-rpc.types.js';

/**
 * A request refused because the caller's token lacks scopes the operation needs (OAuth's
 * `insufficient_scope`, RFC 6750 §3.1). Its body has the shape of mcp42's other authorization
 * refusals (-32000, the OAuth error in `data`), with `data.scope` naming every scope to ask for;
 * the transport answers it with 403 and a `WWW-Authenticate` challenge, the MCP step-up flow.
 */
export function insufficientScope(scopes: readonly string[], description: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.ServerError, `Forbidden: ${description}`, {
    error: 'insufficient_scope',
    error_description: description,
    scope: scopes.join(' '),
  });
}

/** What an `insufficient_scope` refusal asks for, or `undefined` for any other response. */
export interface ScopeShortfall {
  readonly scopes: readonly string[];
  readonly description: string;
}

/** The scope shortfall an error response carries (see {@link insufficientScope}), if it is one. */
export function scopeShortfallOf(response: JsonRpcResponse | undefined): ScopeShortfall | undefined {
  if (response === undefined || !('error' in response)) return undefined;
  return shortfallOfError(response.error);
}

function shortfallOfError(error: JsonRpcErrorObject): ScopeShortfall | undefined {
  if (error.code !== ErrorCode.ServerError) return undefined;
  const data = error.data as { error?: unknown; error_description?: unknown; scope?: unknown } | undefined;
  if (typeof data !== 'object' || data === null || data.error !== 'insufficient_scope') return undefined;
  if (typeof data.scope !== 'string' || typeof data.error_description !== 'string') return undefined;
  return { scopes: data.scope.split(' ').filter((scope) => scope !== ''), description: data.error_description };
}
