import type { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';

/** The parts of a Fastify request mcp42's hooks use (Fastify is not a dependency of mcp42). */
export interface FastifyRequestLike {
  readonly raw: IncomingMessage;
  [stash: symbol]: unknown;
}

/** The parts of a Fastify reply mcp42's hooks use. */
export interface FastifyReplyLike {
  readonly raw: ServerResponse;
  /** Takes the response from Fastify: what is written to `raw` is all the client gets. */
  hijack(): unknown;
}

/** A callback hook's way to let the request go on (or fail it). */
export type FastifyDone = (error?: Error | null, payload?: unknown) => void;

/** A callback hook of the `onRequest` or `preValidation` phase. */
export type FastifyRequestHook = (request: FastifyRequestLike, reply: FastifyReplyLike, done: FastifyDone) => void;

/**
 * A route as Fastify's `onRoute` hooks see it, before it is registered: they may change its config
 * and add hooks of its own (which run after the instance's hooks of the same phase).
 */
export interface FastifyRouteLike {
  readonly handler?: unknown;
  config?: Record<string, unknown>;
  onRequest?: FastifyRequestHook | readonly FastifyRequestHook[];
  preValidation?: FastifyRequestHook | readonly FastifyRequestHook[];
}

/** The hooks mcp42 adds to a Fastify instance, and the methods its router takes. */
export interface FastifyLike {
  readonly supportedMethods?: readonly string[];
  addHttpMethod?(method: string, options: { hasBody: boolean }): unknown;
  addHook(name: 'onRoute', hook: (route: FastifyRouteLike) => void): unknown;
}

/** The application's Fastify instance, or `undefined` when it runs on another platform. */
export function fastifyOf(adapterHost: HttpAdapterHost): FastifyLike | undefined {
  const adapter = adapterHost.httpAdapter as { getType?: () => string; getInstance?: () => unknown } | undefined;
  if (adapter?.getType?.() !== 'fastify') return undefined;
  return adapter.getInstance?.() as FastifyLike | undefined;
}

/** A route's hooks of one phase with `hook` after them (a new array: the route's own may be shared). */
export function withHook(
  hooks: FastifyRequestHook | readonly FastifyRequestHook[] | undefined,
  hook: FastifyRequestHook,
): FastifyRequestHook[] {
  if (hooks === undefined) return [hook];
  return typeof hooks === 'function' ? [hooks, hook] : [...hooks, hook];
}
