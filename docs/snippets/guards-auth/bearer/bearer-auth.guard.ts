import { Inject, Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { createHash, timingSafeEqual } from 'node:crypto';

/** A bearer token, who presents it, and the OAuth-style scopes it grants. */
export interface BearerGrant {
  readonly token: string;
  readonly sub: string;
  readonly scopes: readonly string[];
}

/** Injection token of the grants, for the guard as a class (`forRootAsync`, `APP_GUARD`). */
export const BEARER_GRANTS = Symbol('BEARER_GRANTS');

/**
 * Admits a request only with `Authorization: Bearer <token>` naming one of the grants, compared in
 * constant time, and sets `request.user` for the tools (`ctx.user`), `@McpScopes()` and
 * `auth.principalOf`. Anything else gets 401 with `WWW-Authenticate: Bearer`.
 */
@Injectable()
export class BearerAuthGuard implements CanActivate {
  private readonly grants: readonly { readonly digest: Buffer; readonly grant: BearerGrant }[];

  constructor(@Inject(BEARER_GRANTS) grants: readonly BearerGrant[]) {
    // Fail closed: a missing or empty token is a configuration mistake, never "no authentication".
    if (grants.length === 0 || grants.some((grant) => grant.token.length === 0)) {
      throw new Error('BearerAuthGuard needs at least one grant, each with a non-empty token');
    }
    this.grants = grants.map((grant) => ({ digest: digest(grant.token), grant }));
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown>; user?: unknown }>();
    const header = request.headers.authorization;
    const match = typeof header === 'string' ? /^Bearer +(\S+) *$/i.exec(header) : null;
    // Digests have one length, so timingSafeEqual can compare them; the token's length leaks nothing.
    const presented = match ? digest(match[1]!) : undefined;
    let granted: BearerGrant | undefined;
    // Every grant is compared: the time taken does not say which token nearly matched.
    for (const { digest: expected, grant } of this.grants) {
      if (presented && timingSafeEqual(presented, expected)) granted ??= grant;
    }
    if (!granted) {
      // MCP clients look for the challenge. In an 'mcp' context (a global guard asked again for a
      // tool) there is no response object, and the request was admitted already.
      if (context.getType() === 'http') {
        // header() is the same on Express's response and Fastify's reply.
        context
          .switchToHttp()
          .getResponse<{ header(name: string, value: string): unknown }>()
          .header('WWW-Authenticate', 'Bearer realm="mcp"');
      }
      throw new UnauthorizedException('A valid bearer token is required');
    }
    request.user = { sub: granted.sub, scope: granted.scopes.join(' ') };
    return true;
  }
}

function digest(value: string): Buffer {
  return createHash('sha256').update(value).digest();
}
