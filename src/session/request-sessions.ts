import { Injectable } from '@nestjs/common';
import type { ClientSession } from './client-session.js';

/**
 * Which session each HTTP request of the MCP endpoint serves, so that request-scoped providers can
 * inject it (`MCP_SESSION`). Kept on the request itself, under a symbol of this instance (another
 * application's never sees it): it goes with its request, and costs a property where a WeakMap
 * entry costs the garbage collector an ephemeron per request.
 */
@Injectable()
export class RequestSessions {
  private readonly key = Symbol('mcp42:session');

  bind(request: unknown, session: ClientSession): void {
    if (typeof request === 'object' && request !== null) (request as Record<symbol, unknown>)[this.key] = session;
  }

  of(request: unknown): ClientSession | undefined {
    return typeof request === 'object' && request !== null
      ? ((request as Record<symbol, unknown>)[this.key] as ClientSession | undefined)
      : undefined;
  }
}
