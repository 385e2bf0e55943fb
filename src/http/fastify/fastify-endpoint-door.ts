import { Inject, Injectable } from '@nestjs/common';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.constants.js';
import { EndpointDoor } from '../door/endpoint-door.js';
import type { FastifyReplyLike, FastifyRequestLike } from './fastify-like.js';

/**
 * On Fastify, the endpoint's door ({@link EndpointDoor}: Origin/Host, CORS, methods it does not
 * serve) as a step of an `onRequest` hook of the endpoint's route (`FastifyEndpointRoute` adds it)
 * rather than a Nest middleware. Nest runs middleware on Fastify through `@fastify/middie`, whose
 * engine then matches every request against the middleware's routes: about 7 µs of a tool call's
 * 116 µs (6%, CPU profile of the sample app). A hook of the route alone costs the application's other
 * routes nothing and needs no check of which route a request is for. It runs where middie does, in
 * the `onRequest` phase (after the instance's own hooks of that phase, the application's Nest
 * middleware among them), so before every guard, global ones included, as the middleware does.
 */
@Injectable()
export class FastifyEndpointDoor {
  private readonly door: EndpointDoor;

  constructor(@Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions) {
    this.door = new EndpointDoor(options);
  }

  /**
   * Whether the request goes on. When not, it has been answered, and Fastify told it has no reply
   * to send (the rest of the request's lifecycle is skipped).
   */
  admits(request: FastifyRequestLike, reply: FastifyReplyLike): boolean {
    return this.door.admit(request.raw, reply.raw, reply);
  }
}
