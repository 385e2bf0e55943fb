import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { from } from 'rxjs';
import {
  LAST_EVENT_ID_HEADER,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_RESOLVED_OPTIONS,
  MCP_SESSION_ID_HEADER,
} from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { classifyPost } from '../protocol/era-classifier.js';
import { errorResponse, ErrorCode, internalError } from '../protocol/json-rpc.errors.js';
import { withoutUnreadableId } from '../protocol/modern-era.js';
import { RequestRouter } from '../dispatch/request-router.js';
import { parseEventId, STANDALONE_STREAM_ID } from '../session/event-id.js';
import { SessionStore } from '../session/session.store.js';
import { BodyParserNotice } from './body-parser.notice.js';
import { readMcpBody, type BodyResult } from './requests/body.reader.js';
import { carriesBody, headerValue, rawRequest, rawResponse } from './requests/http-request.js';
import { McpStateUnavailableError } from '../errors/mcp-state-unavailable.error.js';
import { writeEmpty, writeJson, writeStateUnavailable, writeTransportError } from './responses/http-responses.js';
import { wasAdmitted } from './door/endpoint-door.js';
import { allowedMethods, refuseMethod, servesSessions } from './door/method-refusal.js';
import { SharedGet } from './eras/shared-get.js';
import { refuseLegacyPost, refuseSessionMethod } from './eras/legacy-refusal.js';
import { MediaTypeVerdicts } from './requests/media-type-verdicts.js';
import { legacyVersionHeaderOk, rejectVersionHeader, sessionOf } from './eras/session-headers.js';
import { SessionPost } from './eras/session-post.js';
import { pumpToConnection } from './responses/stream-pump.js';
import { SseWriter } from './responses/sse.writer.js';
import { SessionlessPost } from './eras/sessionless-post.js';
import { StatelessPost } from './eras/stateless-post.js';

/**
 * The Streamable HTTP transport (MCP 2025-03-26 and later) on Node's request and response objects,
 * so it serves the same under Express and Fastify. A POST's cheap header checks run before its body
 * is read; the body is decoded once, its era decided, and it goes to {@link SessionPost} (2025) or
 * {@link StatelessPost} (2026-07-28). GET and DELETE are the 2025 session's stream and its end.
 */
@Injectable()
export class StreamableHttpTransport {
  private readonly logger = new Logger('McpTransport');
  private readonly mediaTypes = new MediaTypeVerdicts();
  private warnedUnchecked = false;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly sessions: SessionStore,
    private readonly server: RequestRouter,
    private readonly bodyParserNotice: BodyParserNotice,
    private readonly sessionPost: SessionPost,
    private readonly stateless: StatelessPost,
    private readonly sessionless: SessionlessPost,
    private readonly sharedGet: SharedGet,
  ) {}

  /** Whether 2025 sessions exist here: GET and DELETE are theirs. */
  private get servesSessions(): boolean {
    return servesSessions(this.options);
  }

  /** 405 for GET and DELETE where there are no sessions, saying why. */
  private refuseSessionMethod(res: ServerResponse): void {
    if (this.options.eras === 'modern') return refuseSessionMethod(res);
    refuseSessionMethod(
      res,
      'Method Not Allowed: this server serves 2025 clients without sessions (sessions.enabled: false)',
    );
  }

  /**
   * Every request to the endpoint, by method: POST, GET and DELETE are served; HEAD (which both
   * platforms would otherwise route to GET, opening a stream it never ends) and every other method
   * get 405.
   */
  handle(request: unknown, response: unknown): Promise<void> | void {
    const raw = rawRequest(request);
    if (!wasAdmitted(raw)) return this.refuseUnchecked(response);
    switch (raw.method) {
      case 'POST':
        return this.handlePost(request, response);
      case 'GET':
        return this.handleGet(request, response);
      case 'DELETE':
        return this.handleDelete(request, response);
      default:
        return this.handleOtherMethod(request, response);
    }
  }

  /**
   * A request that reached the endpoint without meeting its door (Origin/Host, CORS, methods): the
   * door failed to install. Refused (500) rather than served unchecked, and said once in the log.
   */
  private refuseUnchecked(response: unknown): void {
    if (!this.warnedUnchecked) {
      this.warnedUnchecked = true;
      this.logger.error(
        'A request reached the MCP endpoint without its Origin/Host check: the check did not install ' +
          '(an onRoute hook of the application replacing route configs, or an unsupported platform); ' +
          'every request is refused with 500 until it does',
      );
    }
    writeTransportError(rawResponse(response), 500, 'Internal Server Error: the endpoint is not configured');
  }

  /**
   * POST: one JSON-RPC message (or, on 2025-03-26 sessions, a batch) from the client. Its era is
   * decided per request, body first: a stateless 2026-07-28 request goes to {@link StatelessPost},
   * anything else is served as 2025 session traffic, exactly as a 2025 server serves it.
   *
   * One async function with its own `try` rather than a handler inside {@link answering}: the path
   * every tool call takes, it then costs one promise and no extra turn of the microtask queue. Each
   * promise it awaits is awaited (not returned) inside the `try`, so that a failure is answered here.
   */
  private async handlePost(request: unknown, response: unknown): Promise<void> {
    const raw = rawRequest(request);
    const res = rawResponse(response);
    try {
      const { headers } = raw;
      const accepts = this.mediaTypes.accepted(headers.accept);
      if (!accepts.json || !accepts.eventStream) {
        return writeTransportError(res, 406, 'Not Acceptable: Accept must list application/json and text/event-stream');
      }
      if (!this.mediaTypes.isJson(headers['content-type'])) {
        return writeTransportError(res, 415, 'Unsupported Media Type: Content-Type must be application/json');
      }
      const reading = readMcpBody(request, raw, this.options.limits.bodyBytes, this.options.http.bodyTimeoutMs);
      const read = this.readOutcome(reading instanceof Promise ? await reading : reading, res);
      if (!read) return;
      const { body } = read;
      if (read.preParsed) this.bodyParserNotice.warnOnce();
      const sessionId = headerValue(headers, MCP_SESSION_ID_HEADER);
      const { eras } = this.options;
      if (eras !== 'legacy') {
        const verdict = classifyPost(body, headerValue(headers, MCP_PROTOCOL_VERSION_HEADER), sessionId !== undefined);
        if (verdict.era === 'refused') return writeJson(res, verdict.status, withoutUnreadableId(verdict.response));
        if (verdict.era === 'modern') return await this.stateless.handle(verdict.message, request, raw, res);
        if (eras === 'modern') return refuseLegacyPost(body, raw, res, this.server.supportedVersions);
      }
      if (!this.options.sessions.enabled) return await this.sessionless.handle(body, request, raw, res);
      return await this.sessionPost.handle(body, sessionId, request, raw, res);
    } catch (error) {
      this.failed(res, error);
    }
  }

  /**
   * Reads the body within the size and idle limits; when it cannot be read, answers why (408 or
   * 413, closing the connection) or, for a client already gone, nothing.
   */
  private async readBody(
    request: unknown,
    raw: IncomingMessage,
    res: ServerResponse,
  ): Promise<Extract<BodyResult, { ok: true }> | undefined> {
    const read = readMcpBody(request, raw, this.options.limits.bodyBytes, this.options.http.bodyTimeoutMs);
    return this.readOutcome(read instanceof Promise ? await read : read, res);
  }

  /** The body read, or (having answered why there is none) `undefined`. */
  private readOutcome(read: BodyResult, res: ServerResponse): Extract<BodyResult, { ok: true }> | undefined {
    if (read.ok) return read;
    if (read.reason === 'timeout') {
      writeTransportError(
        res,
        408,
        `Request Timeout: no part of the body arrived for ${this.options.http.bodyTimeoutMs} ms`,
        ErrorCode.InvalidRequest,
        { connection: 'close' },
      );
    } else if (read.reason === 'too-large') {
      writeTransportError(
        res,
        413,
        `Payload Too Large: the limit is ${this.options.limits.bodyBytes} bytes`,
        ErrorCode.InvalidRequest,
        { connection: 'close' },
      );
    }
    return undefined; // For 'aborted': the client went away, nobody is left to answer.
  }

  /**
   * GET: the session's standalone SSE stream of server-initiated messages; with `Last-Event-ID`,
   * the resumption of whichever stream of the session that event belongs to.
   */
  private handleGet(request: unknown, response: unknown): Promise<void> {
    const raw = rawRequest(request);
    const res = rawResponse(response);
    return this.answering(res, this.get(request, raw, res));
  }

  private async get(request: unknown, raw: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.servesSessions) return this.refuseSessionMethod(res);
    if (!this.mediaTypes.accepted(raw.headers.accept).eventStream) {
      return writeTransportError(res, 406, 'Not Acceptable: Accept must list text/event-stream');
    }
    if (carriesBody(raw)) {
      // Refused, but read first (within the POST limits): left unread under an open stream, it would
      // stop Node reading the socket, so the client's hang-up would go unseen and the stream stay
      // attached (409 for the client's next GET) until a keep-alive write failed.
      if (!(await this.readBody(request, raw, res))) return;
      return writeTransportError(res, 400, 'Bad Request: a GET request carries no body');
    }
    if (!legacyVersionHeaderOk(raw)) return rejectVersionHeader(res);
    const session = await sessionOf(this.sessions, request, raw, res);
    if (!session) return;
    const lastEventId = headerValue(raw.headers, LAST_EVENT_ID_HEADER);
    const resumeFrom = lastEventId === undefined ? undefined : parseEventId(lastEventId);
    if (lastEventId !== undefined && (!resumeFrom || !session.streams.hasIssued(resumeFrom.streamId, resumeFrom.seq))) {
      return writeTransportError(res, 400, 'Bad Request: Last-Event-ID is not an event of this server');
    }
    if (this.sharedGet.handles(resumeFrom)) return this.sharedGet.serve(session, resumeFrom, raw, res);
    if (!resumeFrom && session.hasStream) {
      return writeTransportError(res, 409, 'Conflict: this session already has an open stream');
    }

    let events = resumeFrom ? session.streams.resume(resumeFrom.streamId, resumeFrom.seq) : session.streams.attach();
    if (!events) {
      // A POST stream that finished: only its kept events remain. With none left, 204 tells the client
      // (as it tells any EventSource) that there is nothing to come back for.
      const streamId = resumeFrom!.streamId;
      // Gone already (an async guard let the client give up): its 'close' would never release the claim.
      if (raw.destroyed || res.destroyed || res.writableEnded) return;
      // One replay of a finished stream at a time: parallel ones would each buffer all of it.
      if (!session.streams.beginReplay(streamId)) {
        return writeTransportError(res, 409, 'Conflict: this stream is being replayed already');
      }
      res.once('close', () => session.streams.endReplay(streamId));
      const replay = await session.streams.stored(streamId, resumeFrom!.seq);
      if (replay.length === 0) return writeEmpty(res, 204, { [MCP_SESSION_ID_HEADER]: session.id });
      events = from(replay.map((event) => ({ ...event, replayed: true })));
    }
    // An async guard may have let the client give up already: a stream attached now would never see
    // its 'close', and would keep the session from ever idling out.
    if (raw.destroyed || res.destroyed || res.writableEnded) return;
    session.lastActivity = Date.now();
    const writer: SseWriter = new SseWriter(
      res,
      this.options.http.keepAliveMs,
      session.streams.pendingCounter(() => writer.abandon()),
    );
    if (!writer.open({ [MCP_SESSION_ID_HEADER]: session.id })) return;
    const postStreamId = resumeFrom && resumeFrom.streamId !== STANDALONE_STREAM_ID ? resumeFrom.streamId : undefined;
    pumpToConnection(events, writer, res, {
      onDelivered: postStreamId === undefined ? undefined : () => session.streams.forgetPostStream(postStreamId),
      streamFinished: () => postStreamId !== undefined && !session.streams.hasLivePostStream(postStreamId),
      onClose: () => {
        session.lastActivity = Date.now();
      },
    });
  }

  /** DELETE: the client ends its session. */
  private handleDelete(request: unknown, response: unknown): Promise<void> {
    const raw = rawRequest(request);
    const res = rawResponse(response);
    return this.answering(res, this.delete(request, raw, res));
  }

  private async delete(request: unknown, raw: IncomingMessage, res: ServerResponse): Promise<void> {
    if (!this.servesSessions) return this.refuseSessionMethod(res);
    if (!legacyVersionHeaderOk(raw)) return rejectVersionHeader(res);
    const session = await sessionOf(this.sessions, request, raw, res);
    if (!session) return;
    try {
      await this.sessions.delete(session);
    } catch (error) {
      if (!(error instanceof McpStateUnavailableError)) throw error;
      return writeStateUnavailable(res);
    }
    writeEmpty(res, 204);
  }

  /**
   * Any other method: 405, naming the methods this endpoint serves. The endpoint's door refuses
   * them before any guard (`EndpointDoor`); this answers one that came another way.
   */
  private handleOtherMethod(request: unknown, response: unknown): void {
    refuseMethod(rawRequest(request), rawResponse(response), allowedMethods(this.options));
  }

  /**
   * Awaits a handler that writes `res` itself (an async method: it never throws, it rejects), and
   * answers what it could not: a failure of ours is logged and answered 500 with a JSON-RPC error
   * that says nothing of it (or, once the answer has begun, the connection is cut). Nothing escapes
   * to the framework, which would answer too.
   */
  private async answering(res: ServerResponse, served: Promise<void>): Promise<void> {
    try {
      await served;
    } catch (error) {
      this.failed(res, error);
    }
  }

  /**
   * Answers a failure of ours: 503 while the shared state cannot be reached, else logged and
   * answered 500 with a JSON-RPC error that says nothing of it (or, once the answer has begun, the
   * connection is cut).
   */
  private failed(res: ServerResponse, error: unknown): void {
    if (error instanceof McpStateUnavailableError) {
      if (!res.headersSent) writeStateUnavailable(res);
      else res.destroy();
      return;
    }
    this.logger.error('An MCP request could not be served', error instanceof Error ? error.stack : String(error));
    if (!res.headersSent) writeJson(res, 500, errorResponse(null, internalError()));
    else res.destroy();
  }
}
