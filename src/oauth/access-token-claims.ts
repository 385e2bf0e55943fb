import { defaultScopesOf } from '../guards/scopes-of.js';
import { canonicalResource } from './canonical-uri.js';
import { TokenRefusal } from './token-refusal.js';

/** What a verified access token says, whichever way it was verified (JWT or introspection). */
export interface AccessTokenClaims {
  readonly iss: string;
  readonly sub: string;
  readonly scopes: readonly string[];
  readonly clientId?: string;
  /** Seconds since the epoch. */
  readonly expiresAt: number;
}

/**
 * Checks the claims a verified token carries beyond its signature and times, and keeps what the
 * request needs: `aud` must name this resource (RFC 8707: a token for another server is refused,
 * whoever signed it), `sub` must be there (the principal sessions are bound to).
 * @throws TokenRefusal
 */
export function acceptedClaims(
  claims: Record<string, unknown>,
  iss: string,
  audiences: ReadonlySet<string>,
): AccessTokenClaims {
  const aud = claims.aud;
  const named = typeof aud === 'string' ? [aud] : Array.isArray(aud) ? aud : [];
  const forUs = named.some((value) => typeof value === 'string' && audiences.has(canonicalResource(value) ?? value));
  if (!forUs) throw new TokenRefusal('invalid_token', 'The token was not issued for this resource');
  if (typeof claims.sub !== 'string' || claims.sub === '') {
    throw new TokenRefusal('invalid_token', 'The token has no subject');
  }
  if (typeof claims.exp !== 'number') throw new TokenRefusal('invalid_token', 'The token has no expiry');
  // RFC 9068 names the client `client_id`; OpenID-style tokens name it `azp`.
  const clientId = [claims.client_id, claims.azp].find((value): value is string => typeof value === 'string');
  return {
    iss,
    sub: claims.sub,
    scopes: defaultScopesOf(claims),
    ...(clientId === undefined ? {} : { clientId }),
    expiresAt: claims.exp,
  };
}
