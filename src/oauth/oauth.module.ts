import { Module, type DynamicModule } from '@nestjs/common';
import { DiscoveryModule } from '@nestjs/core';
import { MCP_RESOURCE_METADATA_URL } from '../mcp.constants.js';
import { AccessTokenVerifier } from './access-token-verifier.js';
import { AuthenticatedRequests } from './authenticated-requests.js';
import { IssuerKeys } from './issuer-keys.js';
import { JwtAccessTokens } from './jwt-access-tokens.js';
import { McpOAuthGuard } from './mcp-oauth.guard.js';
import {
  MCP_OAUTH_ASYNC_OPTIONS_TYPE,
  MCP_OAUTH_MODULE_OPTIONS,
  MCP_OAUTH_OPTIONS_TYPE,
  McpOAuthConfigurableModule,
} from './oauth.module-definition.js';
import { MCP_OAUTH_RESOLVED_OPTIONS } from './oauth.constants.js';
import { ProtectedResourceRoutes } from './protected-resource-routes.js';
import { resolveOAuthOptions, type ResolvedOAuthOptions } from './resolved-oauth-options.js';
import { ScopeCatalogue } from './scope-catalogue.js';
import { TokenIntrospection } from './token-introspection.js';

/**
 * Makes the MCP endpoint an OAuth 2.1 resource server, as the MCP authorization specification
 * describes: it serves the RFC 9728 Protected Resource Metadata document, and provides
 * {@link McpOAuthGuard}, which verifies bearer access tokens (JWTs with each issuer's published keys,
 * or opaque tokens by introspection) and challenges clients without one.
 *
 * The module is global by default, so that the guard can be given to McpModule.
 *
 * @example
 * ```ts
 * @Module({
 *   imports: [
 *     McpOAuthModule.forRoot({ resource: 'https://mcp.example.com/mcp', issuers: ['https://auth.example.com'] }),
 *     McpModule.forRoot({ name: 'weather', version: '1.0.0', guards: [McpOAuthGuard] }),
 *   ],
 * })
 * export class AppModule {}
 * ```
 * @category OAuth
 */
@Module({
  imports: [DiscoveryModule],
  providers: [
    { provide: MCP_OAUTH_RESOLVED_OPTIONS, useFactory: resolveOAuthOptions, inject: [MCP_OAUTH_MODULE_OPTIONS] },
    IssuerKeys,
    JwtAccessTokens,
    TokenIntrospection,
    AccessTokenVerifier,
    AuthenticatedRequests,
    ScopeCatalogue,
    ProtectedResourceRoutes,
    McpOAuthGuard,
    // For the 403 challenges McpModule writes itself (`auth.scopeDenial: 'challenge'`).
    {
      provide: MCP_RESOURCE_METADATA_URL,
      useFactory: (options: ResolvedOAuthOptions) => options.metadataUrl,
      inject: [MCP_OAUTH_RESOLVED_OPTIONS],
    },
  ],
  // What the guard needs wherever Nest instantiates it (in McpModule's scope, or as an APP_GUARD).
  exports: [
    MCP_OAUTH_RESOLVED_OPTIONS,
    AccessTokenVerifier,
    ScopeCatalogue,
    AuthenticatedRequests,
    McpOAuthGuard,
    MCP_RESOURCE_METADATA_URL,
  ],
})
export class McpOAuthModule extends McpOAuthConfigurableModule {
  /**
   * Configures the resource server with options known up front.
   * @param options {@link McpOAuthOptions}, plus `isGlobal`.
   */
  static override forRoot(options: typeof MCP_OAUTH_OPTIONS_TYPE): DynamicModule {
    return super.forRoot(options);
  }

  /** Configures it with options from a factory, class or existing provider; `isGlobal` stays a plain value beside them. */
  static override forRootAsync(options: typeof MCP_OAUTH_ASYNC_OPTIONS_TYPE): DynamicModule {
    return super.forRootAsync(options);
  }
}
