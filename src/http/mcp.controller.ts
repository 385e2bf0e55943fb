import { All, Controller, Inject, Req, Res, SetMetadata, UseFilters, UseGuards, type Type } from '@nestjs/common';
import type { McpModuleExtras } from '../interfaces/mcp-module-options.interface.js';
import { FASTIFY_ROUTE_CONFIG_METADATA, MCP_ENDPOINT_CONFIG, MCP_ENDPOINT_METADATA } from '../mcp.constants.js';
import { EndpointRefusalFilter } from './door/endpoint-refusal.filter.js';
import { StreamableHttpTransport } from './streamable-http.transport.js';

/**
 * Creates the endpoint controller for one `McpModule.forRoot()` call. The endpoint's door runs
 * before it: a middleware (`EndpointDoorMiddleware`), or on Fastify a hook (`FastifyEndpointDoor`).
 * A class per call, because Nest reads a controller's path and guards from its class metadata:
 * sharing one class would let two applications (or two endpoints) overwrite each other's.
 *
 * One route for every method: the transport serves POST, GET and DELETE and answers any other method
 * 405 with `Allow` (TRACE, PROPFIND… included, rather than the platform's 404 page), and Nest's route
 * log names the endpoint once instead of once per method. On Fastify, `FastifyEndpointRoute` makes
 * the route take every method Node parses.
 */
export function createMcpController(path: string, guards: NonNullable<McpModuleExtras['guards']>): Type<unknown> {
  @Controller(path)
  @SetMetadata(MCP_ENDPOINT_METADATA, path)
  @UseGuards(...guards)
  // A guard's refusal answered as MCP clients read it: a JSON-RPC error body, its status and headers kept.
  @UseFilters(EndpointRefusalFilter)
  class McpController {
    constructor(@Inject(StreamableHttpTransport) private readonly transport: StreamableHttpTransport) {}

    // @Res() hands the response to the transport: it decides JSON or SSE per request. On Fastify the
    // route config marks the endpoint for mcp42's hooks and keeps Fastify's body parsers away from
    // it (see FastifyRawBody): mcp42 reads POST bodies itself and leaves the others unread.
    @All()
    @SetMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { [MCP_ENDPOINT_CONFIG]: path })
    serve(@Req() request: unknown, @Res() response: unknown): Promise<void> | void {
      return this.transport.handle(request, response);
    }
  }
  return McpController;
}
