import { createHash, timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import {
  Global,
  Inject,
  Injectable,
  Module,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
} from '@nestjs/common';

// #region guard
/** The token clients must send. The app reads it from MCP_TOKEN; a test overrides this provider. */
export const API_TOKEN = Symbol('API_TOKEN');

/** Admits a request with `Authorization: Bearer <API_TOKEN>`, refuses any other with 401. */
@Injectable()
export class BearerTokenGuard implements CanActivate {
  private readonly expected: Buffer;

  constructor(@Inject(API_TOKEN) token: string) {
    // Fail closed: an empty token must not let everyone in.
    if (!token) throw new Error('API_TOKEN is empty: set MCP_TOKEN');
    this.expected = digest(token);
  }

  canActivate(context: ExecutionContext): boolean {
    const http = context.switchToHttp();
    const request = http.getRequest<IncomingMessage & { user?: unknown }>();
    const match = /^Bearer\s+(\S+)$/i.exec(request.headers.authorization?.trim() ?? '');
    // Digests have one length: the comparison takes the same time whatever the token.
    if (!match || !timingSafeEqual(digest(match[1]!), this.expected)) {
      // MCP clients look for this header; `header()` is the same on Express and Fastify.
      http.getResponse<{ header(name: string, value: string): unknown }>().header('WWW-Authenticate', 'Bearer');
      throw new UnauthorizedException('A valid bearer token is required');
    }
    request.user = { sub: 'api-client' };
    return true;
  }
}

/** Global: McpModule builds endpoint guards in its own scope, where API_TOKEN must be visible. */
@Global()
@Module({
  providers: [{ provide: API_TOKEN, useFactory: () => process.env.MCP_TOKEN ?? '' }],
  exports: [API_TOKEN],
})
export class AuthModule {}
// #endregion guard

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
