import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';

/**
 * Fail-closed bearer-token check for the MCP endpoint: a request passes only with
 * `Authorization: Bearer <token>` equal to the configured token, compared in constant time.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(token: string) {
    if (!token) throw new Error('BearerAuthGuard needs a non-empty token');
    this.expected = digest(token);
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<IncomingMessage & { user?: unknown }>();
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer\s+(.+)$/i.exec(header.trim()) : null;
    // Comparing digests keeps the comparison constant-time even when the lengths differ.
    if (!match || !timingSafeEqual(digest(match[1]!), this.expected)) {
      http.getResponse<ServerResponse>().setHeader('WWW-Authenticate', 'Bearer realm="mcp"');
      throw new UnauthorizedException();
    }
    request.user = { sub: 'mcp-client', auth: 'bearer' };
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
