import { Inject, Injectable } from '@nestjs/common';
import { DiscoveryService, MetadataScanner, Reflector } from '@nestjs/core';
import { MCP_SCOPES_METADATA } from '../mcp.constants.js';
import { MCP_OAUTH_RESOLVED_OPTIONS } from './oauth.constants.js';
import type { ResolvedOAuthOptions } from './resolved-oauth-options.js';

/**
 * The scopes this server advertises (`scopes_supported`, and the `scope` of a 401): the configured
 * ones, then, unless `discoverScopes` is off, every scope an `@McpScopes()` asks for on the
 * application's providers and controllers. A client that asks for all of them up front can call
 * every tool: mcp42 hides a tool whose scopes are missing rather than challenging for them.
 */
@Injectable()
export class ScopeCatalogue {
  private scopes: readonly string[] | undefined;

  constructor(
    @Inject(MCP_OAUTH_RESOLVED_OPTIONS) private readonly options: ResolvedOAuthOptions,
    private readonly discovery: DiscoveryService,
    private readonly scanner: MetadataScanner,
    private readonly reflector: Reflector,
  ) {}

  /** Gathered at the first call (the application is running by then, all its modules loaded). */
  supported(): readonly string[] {
    this.scopes ??= [
      ...new Set([...this.options.scopesSupported, ...(this.options.discoverScopes ? this.declared() : [])]),
    ];
    return this.scopes;
  }

  private declared(): string[] {
    const found: string[] = [];
    const read = (target: object): void => {
      const scopes = this.reflector.get<string[] | undefined>(MCP_SCOPES_METADATA, target as never);
      if (Array.isArray(scopes)) found.push(...scopes);
    };
    for (const wrapper of [...this.discovery.getProviders(), ...this.discovery.getControllers()]) {
      const { metatype } = wrapper;
      if (typeof metatype !== 'function' || metatype.prototype === undefined) continue;
      read(metatype);
      const prototype = metatype.prototype as Record<string, unknown>;
      for (const name of this.scanner.getAllMethodNames(prototype)) {
        const method = prototype[name];
        if (typeof method === 'function') read(method);
      }
    }
    return found.filter((scope) => typeof scope === 'string' && scope !== '');
  }
}
