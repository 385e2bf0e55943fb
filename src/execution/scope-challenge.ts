import type { McpInsufficientScopeException } from '../errors/mcp-insufficient-scope.exception.js';
import type { JsonRpcError } from '../protocol/json-rpc.errors.js';
import { insufficientScope } from '../protocol/insufficient-scope.js';

/**
 * The answer to a call a guard refused for missing scopes, with `scopeDenial: 'challenge'`. It names
 * the scopes the call needs and those the token holds already: the official SDK client takes a
 * challenge's `scope` as its whole new request rather than adding it to what it had, so naming only
 * the missing ones would make the next token lose the rest (the MCP step-up flow).
 */
export function scopeChallenge(refusal: McpInsufficientScopeException, granted: readonly string[]): JsonRpcError {
  return insufficientScope([...new Set([...refusal.requiredScopes, ...granted])], refusal.message);
}
