import { Inject, Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { MCP_OAUTH_RESOLVED_OPTIONS, OAUTH_LOGGER_CONTEXT } from './oauth.constants.js';
import { protectedResourceMetadata } from './protected-resource-metadata.js';
import type { ResolvedOAuthOptions } from './resolved-oauth-options.js';
import { ScopeCatalogue } from './scope-catalogue.js';

/**
 * Serves the metadata document (GET, JSON) at `/.well-known/oauth-protected-resource` followed by
 * the resource's path, and at the bare well-known path, where MCP clients look for it.
 *
 * Plain routes of the HTTP adapter rather than a controller, for three reasons: a well-known URI
 * lives at the root of the host, so the application's global prefix must not move it; no guard may
 * stand in front of it, global ones included (a client reads it before it has a token); and its
 * paths come from the options, which `forRootAsync` only knows after the module is defined.
 */
@Injectable()
export class ProtectedResourceRoutes implements OnModuleInit {
  private readonly logger = new Logger(OAUTH_LOGGER_CONTEXT);

  constructor(
    @Inject(MCP_OAUTH_RESOLVED_OPTIONS) private readonly options: ResolvedOAuthOptions,
    private readonly scopes: ScopeCatalogue,
    private readonly adapterHost: HttpAdapterHost,
  ) {}

  /** Registered while the application initialises: after its controllers, before it listens. */
  onModuleInit(): void {
    const adapter = this.adapterHost.httpAdapter;
    // An application context without HTTP (a CLI, a worker) has no routes to add.
    if (!adapter) return;
    const handler = (_request: unknown, response: unknown): void => {
      const document = protectedResourceMetadata(this.options, this.scopes.supported());
      // Public by nature: browser-based clients on any origin must be able to read it.
      adapter.setHeader(response, 'access-control-allow-origin', '*');
      adapter.setHeader(response, 'cache-control', 'public, max-age=300');
      adapter.reply(response, document, 200);
    };
    for (const path of this.options.metadataPaths) adapter.get(path, handler);
    this.logger.log(`Protected resource metadata at ${this.options.metadataPaths.join(', ')}`);
  }
}
