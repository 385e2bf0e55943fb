import { Inject, Injectable, Logger } from '@nestjs/common';
import { createRemoteJWKSet, type JWTVerifyGetKey } from 'jose';
import { discoverMetadata } from './authorization-server-metadata.js';
import { parseServerUrl } from './canonical-uri.js';
import { MCP_OAUTH_RESOLVED_OPTIONS, OAUTH_LOGGER_CONTEXT } from './oauth.constants.js';
import type { ResolvedIssuer, ResolvedOAuthOptions } from './resolved-oauth-options.js';
import { AuthorizationServerUnavailable } from './token-refusal.js';

/** An issuer's key set, or the failure to find it and when it happened. */
type KeySetEntry = { readonly keys: Promise<JWTVerifyGetKey>; failedAt?: number };

/**
 * The signing keys of each trusted issuer: its `jwks_uri` (configured, or discovered once from its
 * metadata), behind jose's remote key set, which caches the keys, refetches them when a token names
 * an unknown `kid` (a rotation) and rate-limits those refetches (`jwksCooldownMs`). Only configured
 * issuers are ever asked: a token's `iss` is checked against them before anything is fetched.
 */
@Injectable()
export class IssuerKeys {
  private readonly logger = new Logger(OAUTH_LOGGER_CONTEXT);
  private readonly sets = new Map<string, KeySetEntry>();

  constructor(@Inject(MCP_OAUTH_RESOLVED_OPTIONS) private readonly options: ResolvedOAuthOptions) {}

  /**
   * The key lookup for tokens of `issuer`.
   * @throws AuthorizationServerUnavailable while its metadata cannot be had; asked again once
   *   `jwksCooldownMs` has passed since the failure, so that a down server is not hammered.
   */
  keysOf(issuer: ResolvedIssuer): Promise<JWTVerifyGetKey> {
    const entry = this.sets.get(issuer.issuer);
    if (entry && (entry.failedAt === undefined || Date.now() - entry.failedAt < this.options.jwksCooldownMs)) {
      return entry.keys;
    }
    const fresh: KeySetEntry = { keys: this.load(issuer) };
    fresh.keys.catch((error: unknown) => {
      fresh.failedAt = Date.now();
      this.logger.warn(`Cannot find the keys of ${issuer.issuer}: ${(error as Error).message}`);
    });
    this.sets.set(issuer.issuer, fresh);
    return fresh.keys;
  }

  private async load(issuer: ResolvedIssuer): Promise<JWTVerifyGetKey> {
    const jwksUri = issuer.jwksUri ?? (await this.discoverJwksUri(issuer.issuer));
    return createRemoteJWKSet(jwksUri, {
      cooldownDuration: this.options.jwksCooldownMs,
      cacheMaxAge: this.options.jwksCacheMaxAgeMs,
      timeoutDuration: this.options.httpTimeoutMs,
    });
  }

  private async discoverJwksUri(issuer: string): Promise<URL> {
    const metadata = await discoverMetadata(issuer, this.options.httpTimeoutMs);
    if (typeof metadata.jwks_uri !== 'string') {
      throw new AuthorizationServerUnavailable(`the metadata of ${issuer} has no jwks_uri`);
    }
    try {
      return parseServerUrl(metadata.jwks_uri, `jwks_uri of ${issuer}`);
    } catch (error) {
      throw new AuthorizationServerUnavailable((error as Error).message);
    }
  }
}
