import { Inject, Injectable } from '@nestjs/common';
import { decodeJwt, decodeProtectedHeader, errors, jwtVerify } from 'jose';
import { acceptedClaims, type AccessTokenClaims } from './access-token-claims.js';
import { IssuerKeys } from './issuer-keys.js';
import { MCP_OAUTH_RESOLVED_OPTIONS } from './oauth.constants.js';
import type { ResolvedOAuthOptions } from './resolved-oauth-options.js';
import { AuthorizationServerUnavailable, TokenRefusal } from './token-refusal.js';

/** Whether a token has the shape of a JWS compact serialization (three base64url parts). */
export function looksLikeJwt(token: string): boolean {
  return /^[\w-]+\.[\w-]+\.[\w-]*$/.test(token);
}

/**
 * Verifies JWT access tokens: the header's `alg` against the allowlist and the unverified `iss`
 * against the trusted issuers come first, so that nothing is fetched for a token no key could
 * accept; then the signature with that issuer's keys, `iss`, `exp`/`nbf` (bounded clock tolerance),
 * the optional `typ`, and `aud` against this resource.
 */
@Injectable()
export class JwtAccessTokens {
  constructor(
    @Inject(MCP_OAUTH_RESOLVED_OPTIONS) private readonly options: ResolvedOAuthOptions,
    private readonly keys: IssuerKeys,
  ) {}

  /**
   * @throws TokenRefusal for a token that is not good; AuthorizationServerUnavailable when its
   *   issuer's keys cannot be had.
   */
  async verify(token: string): Promise<AccessTokenClaims> {
    const { alg, iss } = this.unverifiedHeaderAndIssuer(token);
    if (alg === undefined || !this.options.algorithms.includes(alg)) {
      throw new TokenRefusal('invalid_token', 'The token is not signed with an accepted algorithm');
    }
    const issuer = iss === undefined ? undefined : this.options.issuers.get(iss);
    if (issuer === undefined) throw new TokenRefusal('invalid_token', 'The token is not from a trusted issuer');
    const keys = await this.keys.keysOf(issuer);
    try {
      const { payload } = await jwtVerify(token, keys, {
        algorithms: [...this.options.algorithms],
        issuer: issuer.issuer,
        clockTolerance: this.options.clockToleranceSeconds,
        requiredClaims: ['exp', 'sub', 'aud'],
        ...(this.options.tokenType === undefined ? {} : { typ: this.options.tokenType }),
      });
      return acceptedClaims(payload as Record<string, unknown>, issuer.issuer, this.options.audiences);
    } catch (error) {
      throw refusalOf(error);
    }
  }

  private unverifiedHeaderAndIssuer(token: string): { alg?: string; iss?: string } {
    try {
      const { alg } = decodeProtectedHeader(token);
      const { iss } = decodeJwt(token);
      return { alg, iss };
    } catch {
      throw new TokenRefusal('invalid_token', 'The token is malformed');
    }
  }
}

/** What a failed verification tells the client: a fixed sentence per kind of failure, nothing of the token. */
function refusalOf(error: unknown): Error {
  if (error instanceof TokenRefusal) return error;
  if (error instanceof errors.JWTExpired) return new TokenRefusal('invalid_token', 'The token has expired');
  if (error instanceof errors.JWTClaimValidationFailed) {
    if (error.claim === 'nbf') return new TokenRefusal('invalid_token', 'The token is not valid yet');
    if (error.claim === 'iat') return new TokenRefusal('invalid_token', 'The token was issued in the future');
    return new TokenRefusal('invalid_token', `The token's ${error.claim} claim is missing or not accepted`);
  }
  if (error instanceof errors.JWKSNoMatchingKey || error instanceof errors.JWKSMultipleMatchingKeys) {
    return new TokenRefusal('invalid_token', 'The token is signed with an unknown key');
  }
  if (error instanceof errors.JWSSignatureVerificationFailed) {
    return new TokenRefusal('invalid_token', 'The token signature is invalid');
  }
  if (error instanceof errors.JWKSTimeout || error instanceof errors.JWKSInvalid) {
    return new AuthorizationServerUnavailable('the key set did not arrive in time, or was not a key set', {
      cause: error,
    });
  }
  if (error instanceof errors.JOSEError) {
    // Fetching the key set failed with a status jose reports as a plain JOSEError (no code of its own).
    if (error.code === 'ERR_JOSE_GENERIC') return new AuthorizationServerUnavailable(error.message, { cause: error });
    return new TokenRefusal('invalid_token', 'The token is malformed or not accepted');
  }
  if (error instanceof AuthorizationServerUnavailable) return error;
  // A network failure of the key set fetch (fetch's TypeError) and anything unforeseen.
  return new AuthorizationServerUnavailable('the key set could not be fetched', { cause: error });
}
