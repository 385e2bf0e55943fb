import { Injectable, Logger, type OnModuleInit } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { endpointOf, fastifyOf, type FastifyLike } from './fastify-like.js';

/** The request headers that make Fastify parse a body: without them it hands the stream on unread. */
const BODY_HEADERS = ['content-type', 'content-length', 'transfer-encoding'] as const;

/**
 * On Fastify, keeps every body parser away from the MCP endpoint, so that mcp42 reads its bodies
 * itself, with `limits.bodyBytes` (413) and JSON-RPC parse errors (-32700) exactly as on Express,
 * whatever parsers, `bodyLimit` or `rawBody` the application set up for its other routes.
 *
 * Fastify parses a body only when the request names a content type or has body framing; two hooks,
 * on the endpoint's route only, set those headers aside just before that
 * decision (`preParsing`) and put them back just after it (`preValidation`, before guards and the
 * handler). Hooks rather than a parser of our own: Nest registers the JSON parser first and Fastify
 * refuses a second one for the same type, and replacing it would change the application's other
 * routes. On Express this does nothing: mcp42 reads the raw stream unless a parser got there first.
 */
@Injectable()
export class FastifyRawBody implements OnModuleInit {
  private readonly logger = new Logger('McpTransport');
  /** Per application: where a request's body headers wait while Fastify decides not to parse. */
  private readonly stash = Symbol('mcp42:body-headers');

  constructor(private readonly adapterHost: HttpAdapterHost) {}

  onModuleInit(): void {
    const fastify = fastifyOf(this.adapterHost);
    if (!fastify) return;
    try {
      this.install(fastify);
    } catch (error) {
      this.logger.warn(
        'Fastify did not take the hooks that keep its body parser away from the MCP endpoint (was it started before ' +
          `McpModule initialised?): bodies there are parsed by Fastify, with its limits and errors. ${String(error)}`,
      );
    }
  }

  private install(fastify: FastifyLike): void {
    const { stash } = this;
    fastify.addHook('preParsing', (request, _reply, payload, done) => {
      if (endpointOf(request) !== undefined) {
        const { headers } = request.raw;
        const kept: Partial<Record<(typeof BODY_HEADERS)[number], string | string[]>> = {};
        for (const name of BODY_HEADERS) {
          const value = headers[name];
          if (value === undefined) continue;
          kept[name] = value;
          // Set aside as undefined, which is all Fastify asks, rather than deleted: a deletion turns
          // the headers object into a slower dictionary for every later read of the request.
          headers[name] = undefined;
        }
        request[stash] = kept;
      }
      done(null, payload);
    });
    fastify.addHook('preValidation', (request, _reply, done) => {
      const kept = request[stash] as Record<string, string | string[]> | undefined;
      if (kept) {
        Object.assign(request.raw.headers, kept);
        request[stash] = undefined;
      }
      done();
    });
  }
}
