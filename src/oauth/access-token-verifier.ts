import { Injectable } from '@nestjs/common';
import type { AccessTokenClaims } from './access-token-claims.js';
import { JwtAccessTokens, looksLikeJwt } from './jwt-access-tokens.js';
import { TokenIntrospection } from './token-introspection.js';

/**
 * Verifies a bearer access token whichever its form: a JWT with the issuer's keys, anything else by
 * introspection when it is configured (otherwise it is refused as malformed).
 */
@Injectable()
export class AccessTokenVerifier {
  constructor(
    private readonly jwt: JwtAccessTokens,
    private readonly introspection: TokenIntrospection,
  ) {}

  /** @throws TokenRefusal, or AuthorizationServerUnavailable. */
  verify(token: string): Promise<AccessTokenClaims> {
    return looksLikeJwt(token) || !this.introspection.enabled
      ? this.jwt.verify(token)
      : this.introspection.introspect(token);
  }
}
