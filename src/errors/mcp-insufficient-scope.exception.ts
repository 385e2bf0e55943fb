import { ForbiddenException } from '@nestjs/common';

/**
 * A guard's refusal of a caller whose token lacks scopes (OAuth `insufficient_scope`). `McpScopesGuard`
 * throws it, and so may a guard of the application that decides scopes itself (say, from the
 * arguments). On an MCP call with `scopeDenial: 'challenge'`, mcp42 answers it with 403 and
 * `WWW-Authenticate: Bearer error="insufficient_scope", scope="…"`, so that the client can ask for
 * the scopes and retry (the MCP step-up flow); otherwise it denies like any guard. On an HTTP route
 * it is an ordinary 403.
 * @category Errors
 */
export class McpInsufficientScopeException extends ForbiddenException {
  /**
   * @param requiredScopes every scope the operation needs, not only the missing ones: a challenge
   *   names them all at once, so that one authorization covers the operation.
   * @param missingScopes those the caller lacks (for the message).
   */
  constructor(
    readonly requiredScopes: readonly string[],
    readonly missingScopes: readonly string[] = requiredScopes,
  ) {
    super(`Missing scope(s): ${missingScopes.join(', ')}`);
    this.name = 'McpInsufficientScopeException';
  }
}
