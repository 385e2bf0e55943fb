import type { IncomingHttpHeaders } from 'node:http';
import type { Caller } from '../interfaces/caller.interface.js';
import type { McpTransportKind } from '../interfaces/mcp-transport.interface.js';
import type { CacheHint } from '../protocol/mcp.types.js';
import type { ClientSession } from '../session/client-session.js';
import type { CallChannel } from './call-channel.js';

/**
 * What the transport knows about one incoming message: the dispatcher passes it through untouched
 * to the handlers.
 */
export interface MessageContext {
  /** How the message arrived: over HTTP, or on stdin (no headers then: `headers` is empty). */
  readonly transport: McpTransportKind;
  /** Who sent it: the 2025 session, or the stateless caller of this one 2026-07-28 request. */
  readonly caller: Caller;
  /** The 2025 session (the caller itself); absent on a stateless request. */
  readonly session?: ClientSession;
  /**
   * The HTTP request as the framework gives it (Express `Request`, Fastify `FastifyRequest`); over
   * stdio, the message's `McpStdioRequest`.
   */
  readonly httpRequest: unknown;
  readonly headers: IncomingHttpHeaders;
  /** Where messages about this message's requests go (the POST's response, or stdout); absent when it carried none. */
  readonly channel?: CallChannel;
  /**
   * The caching hints of the answer, set by what served a cacheable request (a list, a read): the
   * modern era puts them on the result.
   */
  cacheHint?: CacheHint;
}
