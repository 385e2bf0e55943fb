import { Inject, Injectable, type NestMiddleware } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { rawRequest, rawResponse } from './http-request.js';
import { writeTransportError } from './http-responses.js';
import { applyCors, corsPolicyOf, type CorsPolicy } from './cors-policy.js';
import { OriginPolicy } from './origin-policy.js';

/**
 * Refuses requests whose `Origin` or `Host` is not allowed, with 403 and a JSON-RPC error body;
 * with `cors`, answers the preflights of allowed origins and lets their pages read the answers.
 *
 * A middleware rather than a guard, so that it runs before every guard, global ones included: a
 * request from a rebound host name is refused before any authentication logic looks at it. On
 * Fastify the same check runs as a Fastify hook instead (see `FastifyOriginCheck`).
 */
@Injectable()
export class McpOriginMiddleware implements NestMiddleware {
  private readonly policy: OriginPolicy;
  private readonly cors: CorsPolicy | undefined;

  constructor(@Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions) {
    this.policy = new OriginPolicy(options.allowedOrigins, options.allowedHosts);
    this.cors = corsPolicyOf(options);
  }

  use(request: IncomingMessage, response: ServerResponse, next: () => void): void {
    const raw = rawRequest(request);
    const res = rawResponse(response);
    const refusal = this.policy.refusal(raw.headers);
    if (refusal !== undefined) return writeTransportError(res, 403, refusal);
    if (this.cors && applyCors(this.cors, raw, res)) return;
    next();
  }
}
