import { Injectable } from '@nestjs/common';
import type { FastifyRequestLike } from './fastify-like.js';

/** A request's body headers while Fastify decides not to parse: `undefined` for one it did not send. */
type SetAside = readonly [type: string | undefined, length: string | undefined, encoding: string | undefined];

/**
 * On Fastify, keeps every body parser away from the MCP endpoint, so that mcp42 reads its bodies
 * itself, with `limits.bodyBytes` (413) and JSON-RPC parse errors (-32700) exactly as on Express,
 * whatever parsers, `bodyLimit` or `rawBody` the application set up for its other routes.
 *
 * Fastify parses a body only when the request names a content type or has body framing, and decides
 * so after the `preParsing` phase. Two steps, in hooks of the endpoint's route alone
 * (`FastifyEndpointRoute` adds them), set those headers aside at the end of the `onRequest` phase,
 * once the door admitted the request, and put them back at the end of the `preValidation` phase, so
 * before guards and the handler: in between, only the application's own `preParsing` and
 * `preValidation` hooks, if any, see the request without them. Set aside in `onRequest` rather than
 * a `preParsing` hook of our own: with no `preParsing` hook at all Fastify skips that phase, a hook
 * runner and its closures per request. Hooks rather than a parser of our own: Nest registers the
 * JSON parser first and Fastify refuses a second one for the same type, and replacing it would change
 * the application's other routes. On Express nothing of this runs: mcp42 reads the raw stream unless
 * a parser got there first.
 */
@Injectable()
export class FastifyRawBody {
  /** Per application: where a request's body headers wait while Fastify decides not to parse. */
  private readonly stash = Symbol('mcp42:body-headers');

  /** Sets the request's body headers aside, so that Fastify hands the stream on unread. */
  setAside(request: FastifyRequestLike): void {
    const { headers } = request.raw;
    const type = headers['content-type'];
    const length = headers['content-length'];
    const encoding = headers['transfer-encoding'];
    if (type === undefined && length === undefined && encoding === undefined) return;
    // Set aside as undefined, which is all Fastify asks, rather than deleted: a deletion turns the
    // headers object into a slower dictionary for every later read of the request.
    if (type !== undefined) headers['content-type'] = undefined;
    if (length !== undefined) headers['content-length'] = undefined;
    if (encoding !== undefined) headers['transfer-encoding'] = undefined;
    request[this.stash] = [type, length, encoding] satisfies SetAside;
  }

  /** Puts back what {@link setAside} took. */
  putBack(request: FastifyRequestLike): void {
    const kept = request[this.stash] as SetAside | undefined;
    if (kept === undefined) return;
    const { headers } = request.raw;
    const [type, length, encoding] = kept;
    if (type !== undefined) headers['content-type'] = type;
    if (length !== undefined) headers['content-length'] = length;
    if (encoding !== undefined) headers['transfer-encoding'] = encoding;
    request[this.stash] = undefined;
  }
}
