import { Module } from '@nestjs/common';
import { McpModule } from 'mcp42';
import { McpOAuthGuard, McpOAuthModule, type McpOAuthOptions } from 'mcp42/oauth';
import { NotesTools } from './notes.tools.js';

/** The settings the resource server reads, from the environment (or your configuration module). */
class OAuthSettings {
  readonly resource = required('MCP_RESOURCE');
  readonly issuer = required('OAUTH_ISSUER');
  readonly introspectionSecret = required('OAUTH_INTROSPECTION_SECRET');
}

function required(name: string): string {
  const value = process.env[name];
  if (!value) throw new Error(`${name} is not set`);
  return value;
}

@Module({ providers: [OAuthSettings], exports: [OAuthSettings] })
class SettingsModule {}

// #region module
@Module({
  imports: [
    McpOAuthModule.forRootAsync({
      imports: [SettingsModule],
      inject: [OAuthSettings],
      useFactory: (settings: OAuthSettings): McpOAuthOptions => ({
        resource: settings.resource,
        // An issuer with a known key set skips metadata discovery.
        issuers: [{ issuer: settings.issuer, jwksUri: `${settings.issuer}/keys` }],
        // Opaque (non-JWT) tokens are checked at the issuer's RFC 7662 endpoint.
        introspection: {
          endpoint: `${settings.issuer}/introspect`,
          clientId: 'notes-mcp',
          clientSecret: settings.introspectionSecret,
        },
        // Every request needs this scope; per-tool scopes stay on the tools (@McpScopes()).
        requiredScopes: ['notes:read'],
        // Refuse ID tokens and other JWTs of the same issuer (RFC 9068 access tokens only).
        tokenType: 'at+jwt',
        resourceName: 'Notes',
      }),
    }),
    McpModule.forRoot({
      name: 'notes',
      version: '1.0.0',
      guards: [McpOAuthGuard],
      auth: { scopeDenial: 'challenge' },
    }),
  ],
  providers: [NotesTools],
})
export class AppModule {}
// #endregion module
