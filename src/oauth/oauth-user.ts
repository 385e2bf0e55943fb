import type { AccessTokenClaims } from './access-token-claims.js';

/**
 * What `McpOAuthGuard` puts on `request.user` (`ctx.user` in tools) for a verified access token.
 * The token itself is not kept: nothing downstream can pass it on.
 * @category OAuth
 */
export interface McpOAuthUser {
  /**
   * The principal, `<iss>#<sub>`: a subject is unique only within its issuer, so with several
   * issuers `sub` alone could name two people. mcp42's default `auth.principalOf` binds sessions to it.
   * (An issuer URL has no fragment, so the first `#` separates the two.)
   */
  readonly sub: string;
  /** The issuer that vouched for the token. */
  readonly iss: string;
  /** The token's own `sub`, as the issuer wrote it. */
  readonly subject: string;
  /** The granted scopes, space-separated, as OAuth writes them (what mcp42's default `auth.scopesOf` reads). */
  readonly scope: string;
  /** The same scopes as a list. */
  readonly scopes: readonly string[];
  /** The OAuth client the token was issued to (`client_id`, else `azp`), when the token says. */
  readonly clientId?: string;
  /** When the token expires, in seconds since the epoch. */
  readonly expiresAt: number;
}

/** The `request.user` of a verified token. */
export function oauthUserOf(claims: AccessTokenClaims): McpOAuthUser {
  return {
    sub: `${claims.iss}#${claims.sub}`,
    iss: claims.iss,
    subject: claims.sub,
    scope: claims.scopes.join(' '),
    scopes: [...claims.scopes],
    ...(claims.clientId === undefined ? {} : { clientId: claims.clientId }),
    expiresAt: claims.expiresAt,
  };
}
