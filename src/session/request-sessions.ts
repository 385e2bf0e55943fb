import { Injectable } from '@nestjs/common';
import type { McpSession } from './mcp-session.js';

/**
 * Which session each HTTP request of the MCP endpoint serves, so that request-scoped providers can
 * inject it (`MCP_SESSION`). Held weakly: an entry goes with its request.
 */
@Injectable()
export class McpRequestSessions {
  private readonly sessions = new WeakMap<object, McpSession>();

  bind(request: unknown, session: McpSession): void {
    if (typeof request === 'object' && request !== null) this.sessions.set(request, session);
  }

  of(request: unknown): McpSession | undefined {
    return typeof request === 'object' && request !== null ? this.sessions.get(request) : undefined;
  }
}
