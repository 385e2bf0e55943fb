import { ForbiddenException } from '@nestjs/common';

/**
 * A guard's refusal of a caller whose token lacks scopes (OAuth `insufficient_scope`). `ScopesGuard`
 * throws it, and so may a guard of the application that decides scopes itself (say, from the
 * arguments; it admits while `McpExecutionContext.scopesWaived` is true). Thrown by a guard of an MCP
 * item with `auth.scopeDenial: 'challenge'`, and the item's other guards admitting the caller, the item is
 * listed and a call answered with 403 and `WWW-Authenticate: Bearer error="insufficient_scope",
 * scope="…"`, so that the client can ask for the scopes and retry (the MCP step-up flow); otherwise
 * it denies like any guard. Thrown by a handler or an interceptor, it is a failure like any other.
 * On an HTTP route it is an ordinary 403.
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
