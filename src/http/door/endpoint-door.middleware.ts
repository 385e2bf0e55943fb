import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.constants.js';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { EndpointDoor } from './endpoint-door.js';
import { rawRequest, rawResponse } from '../requests/http-request.js';

/**
 * The endpoint's door ({@link EndpointDoor}: Origin/Host, CORS, methods it does not serve) as a
 * middleware rather than a guard, so that it runs before every guard, global ones included: a
 * request from a rebound host name is refused before any authentication logic looks at it. On
 * Fastify the same door is a Fastify hook instead (see `FastifyEndpointDoor`).
 */
@Injectable()
export class EndpointDoorMiddleware implements NestMiddleware {
  private readonly door: EndpointDoor;

  constructor(@Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions) {
    this.door = new EndpointDoor(options);
  }

  use(request: IncomingMessage, response: ServerResponse, next: () => void): void {
    if (this.door.admit(rawRequest(request), rawResponse(response))) next();
  }
}
