import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';

/** A bearer token and the OAuth scopes it grants. */
export interface BearerTokenGrant {
  readonly token: string;
  readonly scopes: readonly string[];
}

/**
 * Fail-closed bearer-token check for the MCP endpoint: a request passes only with
 * `Authorization: Bearer <token>` equal to one of the configured tokens, compared in constant time.
 * The request's `user` then carries the token's scopes (`scope`, space-separated, as OAuth access
 * tokens do), which `@McpScopes()` checks per tool.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  private readonly grants: readonly { readonly digest: Buffer; readonly scope: string; readonly sub: string }[];

  constructor(grants: readonly BearerTokenGrant[]) {
    if (grants.length === 0 || grants.some((grant) => !grant.token)) {
      throw new Error('BearerAuthGuard needs non-empty tokens');
    }
    this.grants = grants.map((grant, index) => ({
      digest: digest(grant.token),
      scope: grant.scopes.join(' '),
      sub: `mcp-client-${index + 1}`,
    }));
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<IncomingMessage & { user?: unknown }>();
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
    const presented = match ? digest(match[1]!) : undefined;
    // Every grant is compared, so the time taken says nothing about which token nearly matched.
    let granted: (typeof this.grants)[number] | undefined;
    for (const grant of this.grants) {
      if (presented && timingSafeEqual(presented, grant.digest)) granted ??= grant;
    }
    if (!granted) {
      // `header()` is the same on Express's response and Fastify's reply.
      http
        .getResponse<{ header(name: string, value: string): unknown }>()
        .header('WWW-Authenticate', 'Bearer realm="mcp"');
      throw new UnauthorizedException();
    }
    request.user = { sub: granted.sub, auth: 'bearer', scope: granted.scope };
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
