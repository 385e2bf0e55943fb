import { Inject, Injectable } from '@nestjs/common';
import { acceptedClaims, type AccessTokenClaims } from './access-token-claims.js';
import { fetchJson } from './authorization-server-metadata.js';
import { MCP_OAUTH_RESOLVED_OPTIONS } from './oauth.constants.js';
import type { ResolvedOAuthOptions } from './resolved-oauth-options.js';
import { AuthorizationServerUnavailable, TokenRefusal } from './token-refusal.js';

/**
 * Verifies opaque access tokens with RFC 7662 introspection: the authorization server says whether
 * the token is `active`; this server still checks `iss` (a trusted issuer), `aud` (this resource),
 * `exp` and `nbf` itself, as it would for a JWT, rather than trusting that `active` covers them.
 * Answers are not cached: a revoked token is refused at its next request.
 */
@Injectable()
export class TokenIntrospection {
  constructor(@Inject(MCP_OAUTH_RESOLVED_OPTIONS) private readonly options: ResolvedOAuthOptions) {}

  /** Whether opaque tokens can be verified at all. */
  get enabled(): boolean {
    return this.options.introspection !== undefined;
  }

  /**
   * @throws TokenRefusal for a token that is not good; AuthorizationServerUnavailable when the
   *   endpoint does not answer properly.
   */
  async introspect(token: string): Promise<AccessTokenClaims> {
    const { introspection, clockToleranceSeconds, issuers, audiences, httpTimeoutMs } = this.options;
    if (introspection === undefined) throw new TokenRefusal('invalid_token', 'The token is malformed');
    // client_secret_basic: each part form-encoded before base64 (RFC 6749 §2.3.1).
    const credentials = Buffer.from(
      `${encodeURIComponent(introspection.clientId)}:${encodeURIComponent(introspection.clientSecret)}`,
    ).toString('base64');
    const answer = await fetchJson(new URL(introspection.endpoint), httpTimeoutMs, {
      method: 'POST',
      headers: { authorization: `Basic ${credentials}`, 'content-type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ token, token_type_hint: 'access_token' }).toString(),
    });
    if (typeof answer !== 'object' || answer === null || Array.isArray(answer)) {
      throw new AuthorizationServerUnavailable('the introspection endpoint did not answer an introspection response');
    }
    const claims = answer as Record<string, unknown>;
    if (claims.active !== true) throw new TokenRefusal('invalid_token', 'The token is not active');
    const iss = claims.iss ?? introspection.issuer;
    if (typeof iss !== 'string' || !issuers.has(iss)) {
      throw new TokenRefusal('invalid_token', 'The token is not from a trusted issuer');
    }
    const now = Date.now() / 1000;
    if (typeof claims.exp !== 'number' || claims.exp <= now - clockToleranceSeconds) {
      throw new TokenRefusal('invalid_token', 'The token has expired');
    }
    if (typeof claims.nbf === 'number' && claims.nbf > now + clockToleranceSeconds) {
      throw new TokenRefusal('invalid_token', 'The token is not valid yet');
    }
    return acceptedClaims(claims, iss, audiences);
  }
}
