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
   * Where a call running as a task sends what its handler asks the client (`ctx.elicit`,
   * `ctx.sample`, `ctx.listRoots`): the task waits in `input_required` for the answer.
   */
  readonly taskInput?: TaskInputPort;
  /**
   * For a call of a tool whose handler starts its task (`ctx.startTask()`), while it runs in its
   * request: told when the handler starts the task, with the answers the request carried.
   */
  readonly taskStart?: TaskStartPort;
  /**
   * The caching hints of the answer, set by what served a cacheable request (a list, a read): the
   * modern era puts them on the result.
   */
  cacheHint?: CacheHint;
}

/** What a task does with a request its handler makes to the client (see `MessageContext.taskInput`). */
export interface TaskInputPort {
  /**
   * Puts the request in the task's `inputRequests` and resolves with the client's answer.
   * @param key the request's key, unique over the task's life; by default its kind and order.
   * @param problemOf what is wrong with an answer, if anything (a malformed one rejects).
   * @param timeoutMs how long the client has to answer, where the request goes to it on a stream
   *   (2025-11-25); a 2026-07-28 task waits for `tasks/update` as long as it lives.
   */
  ask(
    method: string,
    params: Record<string, unknown>,
    key: string | undefined,
    problemOf: (answer: unknown) => string | undefined,
    timeoutMs?: number,
  ): Promise<unknown>;
}

/** What `ctx.startTask()` tells, in the request of a tool whose handler starts its task. */
export interface TaskStartPort {
  /** The handler started the task: `answers` are what the request answered so far, by key. */
  start(answers: Readonly<Record<string, unknown>>): void;
}
