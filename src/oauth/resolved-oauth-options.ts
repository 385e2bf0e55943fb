import { parseServerUrl, canonicalResource, metadataPathOf } from './canonical-uri.js';
import type { McpOAuthIntrospection, McpOAuthOptions } from './oauth-options.interface.js';
import {
  DEFAULT_ALGORITHMS,
  DEFAULT_CLOCK_TOLERANCE_SECONDS,
  MAX_CLOCK_TOLERANCE_SECONDS,
  PROTECTED_RESOURCE_WELL_KNOWN,
} from './oauth.constants.js';

/** One trusted issuer, its URL checked. */
export interface ResolvedIssuer {
  readonly issuer: string;
  readonly jwksUri?: URL;
}

/** {@link McpOAuthOptions} checked, with defaults applied: what the services read. */
export interface ResolvedOAuthOptions {
  readonly resource: string;
  /** `resource` and `additionalAudiences`, in canonical form: what `aud` must contain one of. */
  readonly audiences: ReadonlySet<string>;
  /** Path of the metadata document specific to the resource (the root one when it has no path). */
  readonly metadataPath: string;
  /** Absolute URL of that document: the `resource_metadata` of challenges. */
  readonly metadataUrl: string;
  /** Every path the document is served at: the resource's own, and the root one. */
  readonly metadataPaths: readonly string[];
  readonly issuers: ReadonlyMap<string, ResolvedIssuer>;
  readonly requiredScopes: readonly string[];
  readonly scopesSupported: readonly string[];
  readonly discoverScopes: boolean;
  readonly algorithms: readonly string[];
  readonly clockToleranceSeconds: number;
  readonly tokenType?: string;
  readonly resourceName?: string;
  readonly resourceDocumentation?: string;
  readonly introspection?: Required<McpOAuthIntrospection>;
  readonly jwksCooldownMs: number;
  readonly jwksCacheMaxAgeMs: number;
  readonly httpTimeoutMs: number;
}

/**
 * Checks the options and applies defaults. Every mistake that would weaken the checks (no issuer,
 * an HMAC or `none` algorithm, a plain-http authorization server, a huge clock tolerance) stops the
 * application at startup rather than at the first request.
 * @throws Error naming the faulty option.
 */
export function resolveOAuthOptions(options: McpOAuthOptions): ResolvedOAuthOptions {
  const resourceUrl = parseServerUrl(options.resource, 'resource');
  const resource = canonicalResource(resourceUrl.href)!;
  const issuers = new Map<string, ResolvedIssuer>();
  for (const entry of options.issuers ?? []) {
    const { issuer, jwksUri } = typeof entry === 'string' ? { issuer: entry, jwksUri: undefined } : entry;
    parseServerUrl(issuer, 'issuers[].issuer');
    issuers.set(issuer, {
      issuer,
      ...(jwksUri === undefined ? {} : { jwksUri: parseServerUrl(jwksUri, 'issuers[].jwksUri') }),
    });
  }
  if (issuers.size === 0) throw new Error('mcp42/oauth: at least one issuer is needed');

  const algorithms = [...(options.algorithms ?? DEFAULT_ALGORITHMS)];
  const unsafe = algorithms.filter((alg) => alg === 'none' || /^HS/i.test(alg));
  if (algorithms.length === 0 || unsafe.length > 0) {
    throw new Error(`mcp42/oauth: algorithms must be asymmetric signature algorithms (refused: ${unsafe.join(', ')})`);
  }

  const clockToleranceSeconds = options.clockToleranceSeconds ?? DEFAULT_CLOCK_TOLERANCE_SECONDS;
  if (!(clockToleranceSeconds >= 0 && clockToleranceSeconds <= MAX_CLOCK_TOLERANCE_SECONDS)) {
    throw new Error(`mcp42/oauth: clockToleranceSeconds must be between 0 and ${MAX_CLOCK_TOLERANCE_SECONDS}`);
  }

  const audiences = new Set([resource]);
  for (const audience of options.additionalAudiences ?? []) audiences.add(canonicalResource(audience) ?? audience);

  const metadataPath = metadataPathOf(resourceUrl);
  const requiredScopes = [...new Set(options.requiredScopes ?? [])];
  const introspection = options.introspection && resolveIntrospection(options.introspection, issuers);

  return {
    resource,
    audiences,
    metadataPath,
    metadataUrl: new URL(metadataPath, resourceUrl).href,
    metadataPaths: [...new Set([metadataPath, PROTECTED_RESOURCE_WELL_KNOWN])],
    issuers,
    requiredScopes,
    scopesSupported: [...new Set([...(options.scopesSupported ?? []), ...requiredScopes])],
    discoverScopes: options.discoverScopes ?? true,
    algorithms,
    clockToleranceSeconds,
    ...(options.tokenType === undefined ? {} : { tokenType: options.tokenType }),
    ...(options.resourceName === undefined ? {} : { resourceName: options.resourceName }),
    ...(options.resourceDocumentation === undefined ? {} : { resourceDocumentation: options.resourceDocumentation }),
    ...(introspection === undefined ? {} : { introspection }),
    jwksCooldownMs: nonNegative(options.jwksCooldownMs, 30_000, 'jwksCooldownMs'),
    jwksCacheMaxAgeMs: nonNegative(options.jwksCacheMaxAgeMs, 600_000, 'jwksCacheMaxAgeMs'),
    httpTimeoutMs: nonNegative(options.httpTimeoutMs, 5_000, 'httpTimeoutMs'),
  };
}

function resolveIntrospection(
  introspection: McpOAuthIntrospection,
  issuers: ReadonlyMap<string, ResolvedIssuer>,
): Required<McpOAuthIntrospection> {
  parseServerUrl(introspection.endpoint, 'introspection.endpoint');
  if (!introspection.clientId || !introspection.clientSecret) {
    throw new Error('mcp42/oauth: introspection needs clientId and clientSecret');
  }
  const issuer = introspection.issuer ?? issuers.keys().next().value!;
  if (!issuers.has(issuer)) throw new Error(`mcp42/oauth: introspection.issuer is not one of issuers: ${issuer}`);
  return { ...introspection, issuer };
}

function nonNegative(value: number | undefined, fallback: number, what: string): number {
  if (value === undefined) return fallback;
  if (!Number.isInteger(value) || value < 0) throw new Error(`mcp42/oauth: ${what} must be a non-negative integer`);
  return value;
}
