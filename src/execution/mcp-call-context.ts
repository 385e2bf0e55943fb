import type { IncomingHttpHeaders } from 'node:http';
import type { ClientSession } from '../session/client-session.js';
import type { CallChannel } from './call-channel.js';

/**
 * What the transport knows about one incoming message: the dispatcher passes it through untouched
 * to the handlers.
 */
export interface McpCallContext {
  readonly session: ClientSession;
  /** The HTTP request as the framework gives it (Express `Request`, Fastify `FastifyRequest`). */
  readonly httpRequest: unknown;
  readonly headers: IncomingHttpHeaders;
  /** Where messages about this POST's requests go; absent for a POST that carried no request. */
  readonly channel?: CallChannel;
}
