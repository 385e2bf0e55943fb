import { Injectable } from '@nestjs/common';
import type { ClientSession } from './client-session.js';

/**
 * Which session each HTTP request of the MCP endpoint serves, so that request-scoped providers can
 * inject it (`MCP_SESSION`). Held weakly: an entry goes with its request.
 */
@Injectable()
export class RequestSessions {
  private readonly sessions = new WeakMap<object, ClientSession>();

  bind(request: unknown, session: ClientSession): void {
    if (typeof request === 'object' && request !== null) this.sessions.set(request, session);
  }

  of(request: unknown): ClientSession | undefined {
    return typeof request === 'object' && request !== null ? this.sessions.get(request) : undefined;
  }
}
