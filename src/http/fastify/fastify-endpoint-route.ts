import { Inject, Injectable, Logger, type Type } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { METHODS } from 'node:http';
import {
  FASTIFY_ROUTE_CONFIG_METADATA,
  MCP_ENDPOINT_CONFIG,
  MCP_ENDPOINT_CONTROLLER,
  MCP_ENDPOINT_METADATA,
} from '../../mcp.constants.js';
import { FastifyEndpointDoor } from './fastify-endpoint-door.js';
import { fastifyOf, withHook, type FastifyLike, type FastifyRouteLike } from './fastify-like.js';
import { FastifyRawBody } from './fastify-raw-body.js';

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
 * - Its hooks, on this route alone (the application's other routes pay nothing for them, and no
 *   request is asked which route it is for): the door ({@link FastifyEndpointDoor}) and the body
 *   headers set aside ({@link FastifyRawBody}) in `onRequest`, the headers put back in
 *   `preValidation`. An `onRoute` hook adds them to the route marked with this module's endpoint:
 *   by its route config, which Nest 12 hands to Fastify, or its handler's metadata, since Nest 11
 *   registers an `@All()` route without its config (Nest copies the method's metadata onto the
 *   function it registers).
 */
@Injectable()
export class FastifyEndpointRoute {
  private readonly logger = new Logger('McpTransport');

  constructor(
    private readonly adapterHost: HttpAdapterHost,
    @Inject(MCP_ENDPOINT_CONTROLLER) private readonly endpoint: Type<unknown>,
    private readonly door: FastifyEndpointDoor,
    private readonly rawBody: FastifyRawBody,
  ) {}

  /**
   * @returns whether the endpoint's route gets the door as a hook: `false` off Fastify, or when
   *   Fastify refused the preparation (the caller then puts the door's middleware in front of the
   *   endpoint, so the check is never missing).
   */
  install(): boolean {
    const fastify = fastifyOf(this.adapterHost);
    if (!fastify) return false;
    try {
      this.routeEveryMethod(fastify);
      this.prepareEndpointRoutes(fastify);
      return true;
    } catch (error) {
      // Fastify started already: the route keeps Fastify's methods, and the door (a middleware then)
      // still checks every request, the transport refusing any it did not see.
      this.logger.warn(
        "Fastify refused the MCP endpoint's route preparation (was it started before McpModule initialised?): " +
          `the Origin/Host check runs as a middleware, and bodies there are parsed by Fastify, with its limits and errors. ${String(error)}`,
      );
      return false;
    }
  }

  private prepareEndpointRoutes(fastify: FastifyLike): void {
    const path: unknown = Reflect.getMetadata(MCP_ENDPOINT_METADATA, this.endpoint);
    const { door, rawBody } = this;
    fastify.addHook('onRoute', (route) => {
      // Another module's endpoint (and any other route) has hooks of its own.
      if (markedPath(route) !== path) return;
      route.onRequest = withHook(route.onRequest, (request, reply, done) => {
        // Answered at the door, the request goes no further (`done` is not called).
        if (!door.admits(request, reply)) return;
        rawBody.setAside(request);
        done();
      });
      route.preValidation = withHook(route.preValidation, (request, _reply, done) => {
        rawBody.putBack(request);
        done();
      });
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

/** The endpoint path a route is marked with: its config (Nest 12), or its handler's metadata (Nest 11). */
function markedPath(route: FastifyRouteLike): string | undefined {
  const configured = route.config?.[MCP_ENDPOINT_CONFIG];
  if (typeof configured === 'string') return configured;
  if (typeof route.handler !== 'function') return undefined;
  const config: unknown = Reflect.getMetadata(FASTIFY_ROUTE_CONFIG_METADATA, route.handler);
  const path = (config as Record<string, unknown> | undefined)?.[MCP_ENDPOINT_CONFIG];
  return typeof path === 'string' ? path : undefined;
}
