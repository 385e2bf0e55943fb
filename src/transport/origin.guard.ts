import { ForbiddenException, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../mcp-options.defaults.js';
import { errorResponse, serverError } from '../protocol/json-rpc.errors.js';
import { headerValue } from './http-request.js';
import { OriginPolicy } from './origin-policy.js';

/**
 * Refuses requests whose `Origin` or `Host` is not allowed, with 403 and a JSON-RPC error body.
 * Runs on every request to the MCP endpoint, before any guard passed to `forRoot()`.
 */
@Injectable()
export class McpOriginGuard implements CanActivate {
  private readonly policy: OriginPolicy;

  constructor(@Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions) {
    this.policy = new OriginPolicy(options.allowedOrigins, options.allowedHosts);
  }

  canActivate(context: ExecutionContext): boolean {
    const { headers } = context.switchToHttp().getRequest<{ headers: Record<string, string | string[] | undefined> }>();
    if (!this.policy.allowsHost(headerValue(headers, 'host'))) throw forbidden('Host not allowed');
    if (!this.policy.allowsOrigin(headerValue(headers, 'origin'))) throw forbidden('Origin not allowed');
    return true;
  }
}

function forbidden(reason: string): ForbiddenException {
  return new ForbiddenException(errorResponse(null, serverError(`Forbidden: ${reason}`)));
}
