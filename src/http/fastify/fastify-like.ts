import type { HttpAdapterHost } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { MCP_ENDPOINT_CONFIG } from '../../mcp.constants.js';

/** The parts of a Fastify request mcp42's hooks use (Fastify is not a dependency of mcp42). */
export interface FastifyRequestLike {
  readonly raw: IncomingMessage;
  readonly routeOptions?: { readonly config?: Record<string, unknown> };
  [stash: symbol]: unknown;
}

/** The parts of a Fastify reply mcp42's hooks use. */
export interface FastifyReplyLike {
  readonly raw: ServerResponse;
  /** Takes the response from Fastify: what is written to `raw` is all the client gets. */
  hijack(): unknown;
}

/** A route as Fastify's `onRoute` hooks see it, before it is registered (they may change its config). */
export interface FastifyRouteLike {
  readonly handler?: unknown;
  config?: Record<string, unknown>;
}

/** A callback hook's way to let the request go on (or fail it). */
export type FastifyDone = (error?: Error | null, payload?: unknown) => void;

/** The hooks mcp42 adds to a Fastify instance, and the methods its router takes. */
export interface FastifyLike {
  readonly supportedMethods?: readonly string[];
  addHttpMethod?(method: string, options: { hasBody: boolean }): unknown;
  addHook(
    name: 'onRequest' | 'preValidation',
    hook: (request: FastifyRequestLike, reply: FastifyReplyLike, done: FastifyDone) => void,
  ): unknown;
  addHook(name: 'onRoute', hook: (route: FastifyRouteLike) => void): unknown;
  addHook(
    name: 'preParsing',
    hook: (request: FastifyRequestLike, reply: FastifyReplyLike, payload: unknown, done: FastifyDone) => void,
  ): unknown;
}

/** The application's Fastify instance, or `undefined` when it runs on another platform. */
export function fastifyOf(adapterHost: HttpAdapterHost): FastifyLike | undefined {
  const adapter = adapterHost.httpAdapter as { getType?: () => string; getInstance?: () => unknown } | undefined;
  if (adapter?.getType?.() !== 'fastify') return undefined;
  return adapter.getInstance?.() as FastifyLike | undefined;
}

/** The MCP endpoint path the request's route serves (its route config), or `undefined` for any other route. */
export function endpointOf(request: FastifyRequestLike): string | undefined {
  const path = request.routeOptions?.config?.[MCP_ENDPOINT_CONFIG];
  return typeof path === 'string' ? path : undefined;
}
