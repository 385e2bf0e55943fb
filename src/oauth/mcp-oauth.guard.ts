import { Inject, Injectable, Logger, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { McpExecutionContext } from '../execution/mcp-execution-context.js';
import type { AccessTokenClaims } from './access-token-claims.js';
import { AccessTokenVerifier } from './access-token-verifier.js';
import { AuthenticatedRequests } from './authenticated-requests.js';
import { bearerTokenOf } from './bearer-token.js';
import { MCP_OAUTH_RESOLVED_OPTIONS, OAUTH_LOGGER_CONTEXT } from './oauth.constants.js';
import { challengeRefusal, unavailableRefusal, type OAuthRefusal, type RefusalReason } from './oauth-refusal.js';
import { oauthUserOf } from './oauth-user.js';
import type { ResolvedOAuthOptions } from './resolved-oauth-options.js';
import { ScopeCatalogue } from './scope-catalogue.js';
import { TokenRefusal } from './token-refusal.js';

type GuardedRequest = { headers?: Record<string, unknown>; user?: unknown };

/**
 * Admits a request with a valid OAuth access token for this server (`Authorization: Bearer`),
 * checked as {@link McpOAuthModule} was configured, and sets `request.user` to its
 * {@link McpOAuthUser}. Otherwise it answers, as the MCP authorization specification asks:
 * - no token: 401 with `WWW-Authenticate: Bearer resource_metadata="…", scope="…"`;
 * - a token that is not good (signature, issuer, audience, times, algorithm): 401, `error="invalid_token"`;
 * - a good token without the module's `requiredScopes`: 403, `error="insufficient_scope"`;
 * - an authorization server that cannot be reached to check it: 503.
 *
 * Give it to the endpoint, `McpModule.forRoot({ guards: [McpOAuthGuard] })`, or register it as a
 * global guard (`APP_GUARD`). The metadata routes are never behind it.
 * @category OAuth
 */
@Injectable()
export class McpOAuthGuard implements CanActivate {
  private readonly logger = new Logger(OAUTH_LOGGER_CONTEXT);

  /** @internal Nest makes the guard; its dependencies are no part of the published declarations. */
  constructor(
    @Inject(MCP_OAUTH_RESOLVED_OPTIONS) private readonly options: ResolvedOAuthOptions,
    private readonly verifier: AccessTokenVerifier,
    private readonly scopes: ScopeCatalogue,
    private readonly authenticated: AuthenticatedRequests,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = requestOf(context);
    // Neither HTTP nor MCP (a microservice, a gateway): no bearer token to judge, so no access.
    if (request === undefined) return false;
    if (this.authenticated.has(request)) return true;

    const token = bearerTokenOf(request.headers?.authorization);
    if (token === null) {
      throw this.refuse(context, { status: 401, scopes: this.scopes.supported() });
    }
    let claims: AccessTokenClaims;
    try {
      if (token === false) throw new TokenRefusal('invalid_token', 'The Authorization header holds no bearer token');
      claims = await this.verifier.verify(token);
    } catch (error) {
      if (!(error instanceof TokenRefusal)) {
        this.logger.warn(`Cannot verify an access token: ${(error as Error).message}`);
        throw this.send(context, unavailableRefusal());
      }
      this.logger.debug(`Access token refused: ${error.description}`);
      throw this.refuse(context, {
        status: 401,
        error: error.code,
        description: error.description,
        scopes: this.scopes.supported(),
      });
    }

    const granted = new Set(claims.scopes);
    const missing = this.options.requiredScopes.filter((scope) => !granted.has(scope));
    if (missing.length > 0) {
      // The scopes to ask for: the required ones, and those already granted that this server uses,
      // so that the client's next token does not lose them (MCP authorization, "Scope Challenge Handling").
      const kept = claims.scopes.filter((scope) => this.scopes.supported().includes(scope));
      throw this.refuse(context, {
        status: 403,
        error: 'insufficient_scope',
        description: `Missing scope(s): ${missing.join(' ')}`,
        scopes: [...new Set([...this.options.requiredScopes, ...kept])],
      });
    }

    request.user = oauthUserOf(claims);
    this.authenticated.add(request);
    return true;
  }

  private refuse(context: ExecutionContext, reason: Omit<RefusalReason, 'resourceMetadata'>): Error {
    return this.send(context, challengeRefusal({ ...reason, resourceMetadata: this.options.metadataUrl }));
  }

  /** Sets the refusal's headers on an HTTP response (`header()` is the same on Express and Fastify), and returns its exception. */
  private send(context: ExecutionContext, refusal: OAuthRefusal): Error {
    if (context.getType() === 'http') {
      const response = context.switchToHttp().getResponse<{ header(name: string, value: string): unknown }>();
      for (const [name, value] of Object.entries(refusal.headers)) response.header(name, value);
    }
    return refusal.exception;
  }
}

/** The HTTP request being judged: Nest's on a route, the one that carried the message in an MCP context. */
function requestOf(context: ExecutionContext): GuardedRequest | undefined {
  const request: unknown =
    context.getType() === 'http'
      ? context.switchToHttp().getRequest()
      : McpExecutionContext.isMcp(context)
        ? McpExecutionContext.of(context).getRequest()
        : undefined;
  return typeof request === 'object' && request !== null ? (request as GuardedRequest) : undefined;
}
