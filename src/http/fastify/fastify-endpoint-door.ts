import { Inject, Injectable, Logger, type Type } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { MCP_ENDPOINT_CONTROLLER, MCP_ENDPOINT_METADATA, MCP_RESOLVED_OPTIONS } from '../../mcp.constants.js';
import { endpointOf, fastifyOf } from './fastify-like.js';
import { EndpointDoor } from '../door/endpoint-door.js';

/**
 * On Fastify, the endpoint's door ({@link EndpointDoor}: Origin/Host, CORS, methods it does not
 * serve) as a Fastify `onRequest` hook rather than a Nest middleware. Nest runs middleware on
 * Fastify through `@fastify/middie`, whose engine then matches every request against the
 * middleware's routes: about 7 µs of a tool call's 116 µs (6%, CPU profile of the sample app), where
 * this hook reads one route config value. It runs where middie does, in
 * the `onRequest` phase, so before every guard, global ones included, as the middleware does; only
 * the application's own Nest middleware (all of it in middie's earlier hook) now runs first.
 */
@Injectable()
export class FastifyEndpointDoor {
  private readonly logger = new Logger('McpTransport');
  private readonly door: EndpointDoor;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions,
    @Inject(MCP_ENDPOINT_CONTROLLER) private readonly endpoint: Type<unknown>,
    private readonly adapterHost: HttpAdapterHost,
  ) {
    this.door = new EndpointDoor(options);
  }

  /**
   * Adds the hook, for the routes whose config names this module's endpoint.
   * @returns whether it did: `false` off Fastify, or when Fastify refused the hook (the caller then
   *   puts the middleware in front of the endpoint, so the check is never missing).
   */
  install(): boolean {
    const fastify = fastifyOf(this.adapterHost);
    if (!fastify) return false;
    const path: unknown = Reflect.getMetadata(MCP_ENDPOINT_METADATA, this.endpoint);
    const { door } = this;
    try {
      fastify.addHook('onRequest', (request, reply, done) => {
        if (endpointOf(request) !== path) return done();
        // Answered at the door, the rest of the request's lifecycle is skipped: Fastify is told it
        // has no reply to send.
        if (door.admit(request.raw, reply.raw, () => reply.hijack())) done();
      });
      return true;
    } catch (error) {
      this.logger.debug(`Fastify refused the Origin/Host hook; the middleware checks instead: ${String(error)}`);
      return false;
    }
  }
}
