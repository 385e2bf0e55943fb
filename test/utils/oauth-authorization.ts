import { createHash, randomUUID } from 'node:crypto';
import type { JWTPayload } from 'jose';

/** What an endpoint answers: a status with a JSON body, or a redirect. */
export interface EndpointAnswer {
  readonly status: number;
  readonly body?: object;
  readonly location?: string;
}

export interface AuthorizationEndpointsOptions {
  /** The issuer identifier, written in `iss`. */
  readonly issuer: string;
  /** Signs an access token with exactly these claims. */
  readonly mint: (claims: JWTPayload) => Promise<string>;
  /** The scopes this server knows; a request for another is `invalid_scope`. Any scope, unless given. */
  readonly scopes?: readonly string[];
}

/** What an authorization code stands for, until it is redeemed (once). */
interface CodeGrant {
  readonly clientId: string;
  readonly redirectUri: string;
  readonly codeChallenge: string;
  readonly resource: string;
  readonly scopes: readonly string[];
  readonly expiresAt: number;
}

/** What a refresh token stands for: it can renew the grant, never widen it. */
interface RefreshGrant {
  readonly clientId: string;
  readonly resource: string;
  readonly scopes: readonly string[];
}

const CODE_LIFETIME_MS = 60_000;
const ACCESS_TOKEN_LIFETIME_S = 300;
/** RFC 7636 §4.1: 43 to 128 characters of base64url (an S256 challenge is 43). */
const PKCE_VALUE = /^[A-Za-z0-9\-._~]{43,128}$/;

const oauthError = (status: number, error: string, description: string): EndpointAnswer => ({
  status,
  body: { error, error_description: description },
});

/**
 * The side of an authorization server that MCP clients talk to: dynamic client registration (RFC
 * 7591, public clients only), the authorization code grant with PKCE S256 (OAuth 2.1) for a resource
 * (RFC 8707), and refresh tokens (rotated at each use). There is no login page: every authorization is
 * approved at once for {@link user}, with the scopes {@link consent} grants. Every check a client can
 * fail is made, so that a test passing through it shows the client did its part.
 */
export class AuthorizationEndpoints {
  /** The resource owner who approves every authorization. */
  user = 'alice';
  /** Of the scopes asked for, those the user grants (all of them unless a test says otherwise). */
  consent: (requested: readonly string[]) => readonly string[] = (requested) => requested;
  /** Whether token responses carry a refresh token (some servers give none to public clients). */
  refreshTokens = true;
  /** The grant types redeemed at the token endpoint, in order, successful or not. */
  readonly grants: string[] = [];
  private readonly clients = new Map<string, readonly string[]>();
  private readonly codes = new Map<string, CodeGrant>();
  private readonly refreshGrants = new Map<string, RefreshGrant>();

  constructor(private readonly options: AuthorizationEndpointsOptions) {}

  /** POST /register, a JSON body: RFC 7591 §3. */
  register(body: string): EndpointAnswer {
    let metadata: Record<string, unknown>;
    try {
      metadata = JSON.parse(body) as Record<string, unknown>;
    } catch {
      return oauthError(400, 'invalid_client_metadata', 'The body is not JSON');
    }
    const uris = metadata.redirect_uris;
    if (!Array.isArray(uris) || uris.length === 0 || !uris.every((uri) => isAbsoluteUri(uri))) {
      return oauthError(400, 'invalid_redirect_uri', 'redirect_uris must be absolute URIs without fragment');
    }
    const method = metadata.token_endpoint_auth_method ?? 'none';
    if (method !== 'none') return oauthError(400, 'invalid_client_metadata', 'Only public clients are registered');
    const clientId = randomUUID();
    this.clients.set(clientId, uris as string[]);
    const issuedAt = Math.floor(Date.now() / 1000);
    return {
      status: 201,
      body: { ...metadata, client_id: clientId, client_id_issued_at: issuedAt, token_endpoint_auth_method: 'none' },
    };
  }

  /** GET /authorize: approves at once, answering with a redirect to the client (RFC 6749 §4.1.2). */
  authorize(query: URLSearchParams): EndpointAnswer {
    const clientId = query.get('client_id') ?? '';
    const redirectUri = query.get('redirect_uri') ?? '';
    // An unknown client or redirect URI is told to the user agent, never redirected to (RFC 6749 §4.1.2.1).
    if (!this.clients.has(clientId)) return oauthError(400, 'invalid_request', 'Unknown client_id');
    if (!this.clients.get(clientId)!.includes(redirectUri)) {
      return oauthError(400, 'invalid_request', 'redirect_uri is not one the client registered');
    }
    const back = (params: Record<string, string>): EndpointAnswer => {
      const location = new URL(redirectUri);
      const state = query.get('state');
      for (const [name, value] of Object.entries({ ...params, ...(state === null ? {} : { state }) })) {
        location.searchParams.set(name, value);
      }
      return { status: 302, location: location.href };
    };
    const refuse = (error: string, description: string): EndpointAnswer =>
      back({ error, error_description: description });

    if (query.get('response_type') !== 'code') return refuse('unsupported_response_type', 'Only code is supported');
    const codeChallenge = query.get('code_challenge') ?? '';
    if (!PKCE_VALUE.test(codeChallenge) || query.get('code_challenge_method') !== 'S256') {
      return refuse('invalid_request', 'PKCE with code_challenge_method S256 is required');
    }
    const resources = query.getAll('resource');
    // The MCP authorization spec has clients always name the server (RFC 8707); one, absolute, no fragment.
    if (resources.length !== 1 || !isAbsoluteUri(resources[0])) {
      return refuse('invalid_target', 'One resource, an absolute URI without fragment, is required');
    }
    const requested = scopesOf(query.get('scope'));
    const unknown = requested.filter(
      (scope) => this.options.scopes !== undefined && !this.options.scopes.includes(scope),
    );
    if (unknown.length > 0) return refuse('invalid_scope', `Unknown scope(s): ${unknown.join(' ')}`);

    const scopes = this.consent(requested).filter((scope) => requested.includes(scope));
    const code = randomUUID();
    const expiresAt = Date.now() + CODE_LIFETIME_MS;
    this.codes.set(code, { clientId, redirectUri, codeChallenge, resource: resources[0]!, scopes, expiresAt });
    return back({ code });
  }

  /** POST /token, a form body: the authorization_code and refresh_token grants (RFC 6749 §4.1.3, §6). */
  async token(form: URLSearchParams): Promise<EndpointAnswer> {
    const grantType = form.get('grant_type') ?? '';
    this.grants.push(grantType);
    const clientId = form.get('client_id') ?? '';
    if (!this.clients.has(clientId)) return oauthError(401, 'invalid_client', 'Unknown client_id');
    const resources = form.getAll('resource');
    if (resources.length > 1) return oauthError(400, 'invalid_target', 'One resource at most');
    const askedResource = resources[0];

    if (grantType === 'authorization_code') {
      const code = form.get('code') ?? '';
      const grant = this.codes.get(code);
      this.codes.delete(code); // used once, whatever the outcome
      if (grant === undefined || grant.clientId !== clientId || grant.expiresAt < Date.now()) {
        return oauthError(400, 'invalid_grant', 'Unknown, used or expired code, or another client’s');
      }
      if (form.get('redirect_uri') !== grant.redirectUri) {
        return oauthError(400, 'invalid_grant', 'redirect_uri differs from the authorization request’s');
      }
      const verifier = form.get('code_verifier') ?? '';
      if (
        !PKCE_VALUE.test(verifier) ||
        createHash('sha256').update(verifier).digest('base64url') !== grant.codeChallenge
      ) {
        return oauthError(400, 'invalid_grant', 'code_verifier does not match the code_challenge');
      }
      if (askedResource !== undefined && askedResource !== grant.resource) {
        return oauthError(400, 'invalid_target', 'resource differs from the one authorized');
      }
      return this.issue(grant);
    }

    if (grantType === 'refresh_token') {
      const refreshToken = form.get('refresh_token') ?? '';
      const grant = this.refreshGrants.get(refreshToken);
      if (grant === undefined || grant.clientId !== clientId) {
        return oauthError(400, 'invalid_grant', 'Unknown or used refresh token, or another client’s');
      }
      if (askedResource !== undefined && askedResource !== grant.resource) {
        return oauthError(400, 'invalid_target', 'resource differs from the one authorized');
      }
      const scope = form.get('scope');
      const scopes = scope === null ? grant.scopes : scopesOf(scope);
      if (!scopes.every((s) => grant.scopes.includes(s))) {
        return oauthError(400, 'invalid_scope', 'A refresh cannot widen the grant');
      }
      this.refreshGrants.delete(refreshToken); // rotated (OAuth 2.1 §4.3.1, public clients)
      return this.issue({ ...grant, scopes });
    }

    return oauthError(400, 'unsupported_grant_type', `Unsupported grant_type: ${grantType}`);
  }

  /** An access token for the grant's resource and scopes, and a refresh token unless turned off. */
  private async issue(grant: RefreshGrant): Promise<EndpointAnswer> {
    const now = Math.floor(Date.now() / 1000);
    const scope = grant.scopes.join(' ');
    const accessToken = await this.options.mint({
      iss: this.options.issuer,
      sub: this.user,
      aud: grant.resource,
      client_id: grant.clientId,
      scope,
      iat: now,
      exp: now + ACCESS_TOKEN_LIFETIME_S,
      jti: randomUUID(),
    });
    let refreshToken: string | undefined;
    if (this.refreshTokens) {
      refreshToken = randomUUID();
      this.refreshGrants.set(refreshToken, {
        clientId: grant.clientId,
        resource: grant.resource,
        scopes: grant.scopes,
      });
    }
    const body = { access_token: accessToken, token_type: 'Bearer', expires_in: ACCESS_TOKEN_LIFETIME_S, scope };
    return { status: 200, body: refreshToken === undefined ? body : { ...body, refresh_token: refreshToken } };
  }
}

function scopesOf(scope: string | null): string[] {
  return [...new Set((scope ?? '').split(' ').filter((s) => s !== ''))];
}

function isAbsoluteUri(value: unknown): value is string {
  if (typeof value !== 'string' || !URL.canParse(value)) return false;
  return !value.includes('#');
}
