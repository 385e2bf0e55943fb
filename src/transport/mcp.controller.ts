import {
  Controller,
  Delete,
  Get,
  Head,
  Inject,
  Options,
  Patch,
  Post,
  Put,
  Req,
  Res,
  SetMetadata,
  UseGuards,
  type Type,
} from '@nestjs/common';
import type { McpGuard } from '../interfaces/mcp-module-options.interface.js';
import {
  FASTIFY_ROUTE_CONFIG_METADATA,
  MCP_ENDPOINT_CONFIG,
  MCP_ENDPOINT_METADATA,
  MCP_RAW_BODY_CONFIG,
} from '../mcp.constants.js';
import { StreamableHttpTransport } from './streamable-http.transport.js';

/**
 * Creates the endpoint controller for one `McpModule.forRoot()` call (the Origin/Host check runs
 * before it: a middleware, see `McpOriginMiddleware`, or on Fastify a hook, see `FastifyOriginCheck`). A class per call, because
 * Nest reads a controller's path and guards from its class metadata: sharing one class would let
 * two applications (or two endpoints) overwrite each other's.
 */
export function createMcpController(path: string, guards: readonly McpGuard[]): Type<unknown> {
  // On Fastify, what marks the endpoint's routes for mcp42's hooks; Express ignores it.
  const routeConfig = { [MCP_ENDPOINT_CONFIG]: path };
  @Controller(path)
  @SetMetadata(MCP_ENDPOINT_METADATA, path)
  @UseGuards(...guards)
  class McpController {
    constructor(@Inject(StreamableHttpTransport) private readonly transport: StreamableHttpTransport) {}

    // @Res() hands the response to the transport: it decides JSON or SSE per request. On Fastify the
    // POST's route config also keeps Fastify's body parsers away (see FastifyRawBody).
    @Post()
    @SetMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...routeConfig, [MCP_RAW_BODY_CONFIG]: true })
    post(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.transport.handlePost(request, response);
    }

    // HEAD would reach the GET handler (both platforms route it there) and open a stream it never
    // ends: refused instead. Declared before GET, as both platforms require to let it replace theirs.
    @Head()
    @SetMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...routeConfig, [MCP_RAW_BODY_CONFIG]: true })
    head(@Req() request: unknown, @Res() response: unknown): void {
      this.transport.handleOtherMethod(request, response);
    }

    @Get()
    @SetMetadata(FASTIFY_ROUTE_CONFIG_METADATA, routeConfig)
    get(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.transport.handleGet(request, response);
    }

    // A DELETE body is never read: kept from Fastify's parsers too (one aborted mid-body would reach
    // Nest's exception handler as an error).
    @Delete()
    @SetMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...routeConfig, [MCP_RAW_BODY_CONFIG]: true })
    delete(@Req() request: unknown, @Res() response: unknown): Promise<void> {
      return this.transport.handleDelete(request, response);
    }

    // Every other method gets 405 with `Allow`, rather than the platform's 404 page. Their bodies are
    // left unread (raw on Fastify too), and the connection closed after the answer.
    @Put()
    @SetMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...routeConfig, [MCP_RAW_BODY_CONFIG]: true })
    put(@Req() request: unknown, @Res() response: unknown): void {
      this.transport.handleOtherMethod(request, response);
    }

    @Patch()
    @SetMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...routeConfig, [MCP_RAW_BODY_CONFIG]: true })
    patch(@Req() request: unknown, @Res() response: unknown): void {
      this.transport.handleOtherMethod(request, response);
    }

    @Options()
    @SetMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { ...routeConfig, [MCP_RAW_BODY_CONFIG]: true })
    options(@Req() request: unknown, @Res() response: unknown): void {
      this.transport.handleOtherMethod(request, response);
    }
  }
  return McpController;
}
