import { Injectable, Logger } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { METHODS } from 'node:http';
import { FASTIFY_ROUTE_CONFIG_METADATA, MCP_ENDPOINT_CONFIG } from '../../mcp.constants.js';
import { fastifyOf, type FastifyLike } from './fastify-like.js';

/**
 * On Fastify, prepares the registration of the endpoint's `@All()` route; run before the routes are
 * registered (from the module's `configure`).
 *
 * - Its methods: every one Node parses, so that any method the endpoint does not serve gets mcp42's
 *   405 rather than Fastify's 404. Fastify routes only the methods it was told of (GET, POST… and,
 *   through Nest, the WebDAV ones), and an `@All()` route gets those known when it is registered.
 *   This adds them to the application's Fastify instance, as Nest itself does for WebDAV methods:
 *   routes declared for given methods are unchanged, an `@All()` route of the application takes
 *   them too. CONNECT is left out: Node hands it to the server's `connect`
 *   event, never to a route.
 * - Its route config, which mcp42's hooks recognise the endpoint by: Nest 12 hands it to Fastify,
 *   Nest 11 registers an `@All()` route without it. An `onRoute` hook puts it back from the
 *   handler's metadata (Nest copies the method's metadata onto the function it registers).
 */
@Injectable()
export class FastifyEndpointRoute {
  private readonly logger = new Logger('McpTransport');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  install(): void {
    const fastify = fastifyOf(this.adapterHost);
    if (!fastify) return;
    try {
      this.routeEveryMethod(fastify);
      this.markEndpointRoutes(fastify);
    } catch (error) {
      // Fastify started already: the route keeps Fastify's methods, and the door (a middleware then)
      // still checks every request, the transport refusing any it did not see.
      this.logger.warn(`Fastify refused the MCP endpoint's route preparation: ${String(error)}`);
    }
  }

  private markEndpointRoutes(fastify: FastifyLike): void {
    fastify.addHook('onRoute', (route) => {
      if (route.config?.[MCP_ENDPOINT_CONFIG] !== undefined || typeof route.handler !== 'function') return;
      const config: unknown = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, route.handler);
      const path = (config as Record<string, unknown> | undefined)?.[MCP_ENDPOINT_CONFIG];
      if (typeof path === 'string') route.config = { ...route.config, [MCP_ENDPOINT_CONFIG]: path };
    });
  }

  private routeEveryMethod(fastify: FastifyLike): void {
    if (!fastify.addHttpMethod || !fastify.supportedMethods) return;
    const known = new Set(fastify.supportedMethods);
    for (const method of METHODS) {
      if (method !== 'CONNECT' && !known.has(method)) fastify.addHttpMethod(method, { hasBody: true });
    }
  }
}
