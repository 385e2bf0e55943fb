import { Inject, Injectable, Logger } from '@nestjs/common';
import { from } from 'rxjs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import {
  LAST_EVENT_ID_HEADER,
  MCP_PROTOCOL_VERSION_HEADER,
  MCP_RESOLVED_OPTIONS,
  MCP_SESSION_ID_HEADER,
} from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { classifyPost } from '../protocol/era-classifier.js';
import { withoutUnreadableId } from '../protocol/modern-era.js';
import type { DecodedBody, DecodedMessage } from '../protocol/json-rpc.codec.js';
import {
  errorResponse,
  ErrorCode,
  invalidRequest,
  JsonRpcError,
  unsupportedProtocolVersion,
} from '../protocol/json-rpc.errors.js';
import type { JsonRpcRequest, JsonRpcResponse } from '../protocol/json-rpc.types.js';
import { McpMethod } from '../protocol/mcp.methods.js';
import {
  DEFAULT_HEADER_PROTOCOL_VERSION,
  isLegacyProtocolVersion,
  supportsBatching,
} from '../protocol/protocol-version.js';
import type { McpCallContext } from '../execution/mcp-call-context.js';
import { McpServer } from '../server/mcp.server.js';
import { parseEventId, STANDALONE_STREAM_ID } from '../session/event-id.js';
import type { ClientSession } from '../session/client-session.js';
import { McpRequestSessions } from '../session/request-sessions.js';
import { SessionStore } from '../session/session.store.js';
import { BodyParserNotice } from './body-parser.notice.js';
import { readMcpBody } from './body.reader.js';
import { headerValue, rawRequest, rawResponse } from './http-request.js';
import { writeEmpty, writeJson, writeTransportError } from './http-responses.js';
import { acceptedTypes, isJsonContentType } from './media-type.js';
import { PostResponder, type PostResponderSettings } from './post-responder.js';
import { pumpToConnection } from './stream-pump.js';
import { SseWriter } from './sse.writer.js';
import { StatelessPost } from './stateless-post.js';

/**
 * The Streamable HTTP transport (MCP 2025-03-26 and later) on Node's request and response objects,
 * so it serves the same under Express and Fastify. Cheap header checks run before the body is read;
 * the body is decoded once and handed to the dispatcher.
 */
@Injectable()
export class StreamableHttpTransport {
  private readonly logger = new Logger('McpTransport');
  private readonly logUnserializable = (error: unknown, response: JsonRpcResponse): void => {
    this.logger.error(
      `The result for request ${JSON.stringify(response.id)} cannot be serialised to JSON; answered as an internal error`,
      error instanceof Error ? error.stack : String(error),
    );
  };

  private readonly responderSettings: PostResponderSettings;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly sessions: SessionStore,
    private readonly server: McpServer,
    private readonly bodyParserNotice: BodyParserNotice,
    private readonly requestSessions: McpRequestSessions,
    private readonly stateless: StatelessPost,
  ) {
    this.responderSettings = {
      keepAliveMs: options.keepAliveMs,
      retryMs: options.sseRetryMs,
      onUnserializable: this.logUnserializable,
      onUnserializableMessage: (message) => {
        const method = 'method' in message ? message.method : 'response';
        this.logger.error(`A ${method} message cannot be serialised to JSON; it was dropped`);
      },
    };
  }

  /**
   * POST: one JSON-RPC message (or, on 2025-03-26 sessions, a batch) from the client. Its era is
   * decided per request, body first: a stateless 2026-07-28 request goes to {@link StatelessPost},
   * anything else is served as 2025 session traffic, exactly as a 2025 server serves it.
   */
  async handlePost(request: unknown, response: unknown): Promise<void> {
    const raw = rawRequest(request);
    const res = rawResponse(response);
    const { headers } = raw;

    const accepts = acceptedTypes(headers.accept);
    if (!accepts.json || !accepts.eventStream) {
      return writeTransportError(res, 406, 'Not Acceptable: Accept must list application/json and text/event-stream');
    }
    if (!isJsonContentType(headers['content-type'])) {
      return writeTransportError(res, 415, 'Unsupported Media Type: Content-Type must be application/json');
    }
    const read = await readMcpBody(request, raw, this.options.maxBodyBytes);
    if (!read.ok) {
      if (read.reason === 'too-large') {
        return writeTransportError(
          res,
          413,
          `Payload Too Large: the limit is ${this.options.maxBodyBytes} bytes`,
          ErrorCode.InvalidRequest,
          { connection: 'close' },
        );
      }
      return; // The client went away; nobody is left to answer.
    }
    const { body } = read;
    if (read.preParsed) this.bodyParserNotice.warnOnce();
    const sessionId = headerValue(headers, MCP_SESSION_ID_HEADER);
    const { eras } = this.options;
    if (eras !== 'legacy') {
      const verdict = classifyPost(body, headerValue(headers, MCP_PROTOCOL_VERSION_HEADER), sessionId !== undefined);
      if (verdict.era === 'refused') return writeJson(res, verdict.status, withoutUnreadableId(verdict.response));
      if (verdict.era === 'modern') return this.stateless.handle(verdict.message, request, raw, res);
      if (eras === 'modern') return this.refuseLegacy(body, raw, res);
    }
    return this.handleSessionPost(body, sessionId, request, raw, res);
  }

  /** A 2025 POST: `initialize`, or a message (or batch) of an existing session. */
  private async handleSessionPost(
    body: DecodedBody,
    sessionId: string | undefined,
    request: unknown,
    raw: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    const { headers } = raw;
    const session = sessionId === undefined ? undefined : this.sessions.findFor(sessionId, request);
    if (sessionId !== undefined && !session) return writeTransportError(res, 404, 'Session not found');
    if (body.kind === 'error') return writeJson(res, 400, body.error);

    if (body.kind === 'single' && body.entry.kind === 'request' && body.entry.message.method === McpMethod.Initialize) {
      return this.initialize(body.entry.message, session, request, res);
    }
    // `initialize` negotiates the version in its body, so the header is judged only for other messages.
    if (!this.versionHeaderOk(raw)) return rejectVersionHeader(res);
    if (!session) return writeTransportError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
    // The session may have ended (DELETE, idle sweep) while the body was arriving.
    if (session.ended) return writeTransportError(res, 404, 'Session not found');
    session.lastActivity = Date.now();
    this.requestSessions.bind(request, session);
    const sessionHeader = { [MCP_SESSION_ID_HEADER]: session.id };
    const base = { caller: session, session, httpRequest: request, headers };

    if (body.kind === 'single') {
      const { entry } = body;
      if (entry.kind === 'invalid') return writeJson(res, 400, entry.error, sessionHeader);
      if (entry.kind !== 'request') {
        this.dispatchOneWay(entry, base);
        return writeEmpty(res, 202, sessionHeader);
      }
      const responder = new PostResponder(res, session, 1, false, sessionHeader, this.responderSettings);
      const context: McpCallContext = { ...base, channel: responder };
      responder.respond(await this.server.legacy.handleRequest(entry.message, context));
      return;
    }

    if (!supportsBatching(session.protocolVersion)) {
      return writeJson(
        res,
        400,
        errorResponse(null, invalidRequest(`batches are not supported in protocol version ${session.protocolVersion}`)),
        sessionHeader,
      );
    }
    return this.handleBatch(body.entries, base, res, sessionHeader);
  }

  /**
   * 2025 traffic at an endpoint that serves only the modern era: requests get the unsupported-version
   * error naming the revisions it speaks (the only diagnostic a 2025 client can show its user).
   */
  private refuseLegacy(body: DecodedBody, raw: IncomingMessage, res: ServerResponse): void {
    if (body.kind !== 'single' || body.entry.kind === 'response' || body.entry.kind === 'invalid') {
      return writeJson(
        res,
        400,
        errorResponse(null, invalidRequest('this endpoint serves stateless requests of protocol revision 2026-07-28')),
      );
    }
    const { entry } = body;
    if (entry.kind === 'notification') return writeEmpty(res, 202);
    const named = entry.message.method === McpMethod.Initialize ? entry.message.params?.protocolVersion : undefined;
    const requested =
      typeof named === 'string'
        ? named
        : (headerValue(raw.headers, MCP_PROTOCOL_VERSION_HEADER) ?? DEFAULT_HEADER_PROTOCOL_VERSION);
    writeJson(
      res,
      400,
      errorResponse(entry.message.id, unsupportedProtocolVersion(requested, this.server.supportedVersions)),
    );
  }

  /**
   * GET: the session's standalone SSE stream of server-initiated messages; with `Last-Event-ID`,
   * the resumption of whichever stream of the session that event belongs to.
   */
  async handleGet(request: unknown, response: unknown): Promise<void> {
    const raw = rawRequest(request);
    const res = rawResponse(response);
    if (this.options.eras === 'modern') return refuseSessionMethod(res);
    if (!acceptedTypes(raw.headers.accept).eventStream) {
      return writeTransportError(res, 406, 'Not Acceptable: Accept must list text/event-stream');
    }
    if (!this.checkVersionHeader(raw, res)) return;
    const session = this.findSession(request, raw, res);
    if (!session) return;
    const lastEventId = headerValue(raw.headers, LAST_EVENT_ID_HEADER);
    const resumeFrom = lastEventId === undefined ? undefined : parseEventId(lastEventId);
    if (lastEventId !== undefined && (!resumeFrom || !session.streams.hasIssued(resumeFrom.streamId, resumeFrom.seq))) {
      return writeTransportError(res, 400, 'Bad Request: Last-Event-ID is not an event of this server');
    }
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
    const writer = new SseWriter(res, this.options.keepAliveMs, session.streams.pendingCounter());
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
  handleDelete(request: unknown, response: unknown): void {
    const raw = rawRequest(request);
    const res = rawResponse(response);
    if (this.options.eras === 'modern') return refuseSessionMethod(res);
    if (!this.checkVersionHeader(raw, res)) return;
    const session = this.findSession(request, raw, res);
    if (!session) return;
    session.end('deleted');
    writeEmpty(res, 204);
  }

  private initialize(
    request: JsonRpcRequest,
    existing: ClientSession | undefined,
    httpRequest: unknown,
    res: ServerResponse,
  ): void {
    if (existing) {
      return writeJson(res, 400, errorResponse(request.id, invalidRequest('this session is already initialized')), {
        [MCP_SESSION_ID_HEADER]: existing.id,
      });
    }
    if (!this.sessions.hasRoom()) {
      return writeJson(
        res,
        503,
        errorResponse(request.id, new JsonRpcError(ErrorCode.ServerError, 'Too many sessions; try again later')),
        {
          'retry-after': '60',
        },
      );
    }
    const outcome = this.server.legacy.initialize(request);
    if (!outcome.handshake) return writeJson(res, 200, outcome.response);
    const session = this.sessions.create(outcome.handshake, httpRequest);
    writeJson(res, 200, outcome.response, { [MCP_SESSION_ID_HEADER]: session.id });
  }

  private async handleBatch(
    entries: readonly DecodedMessage[],
    context: McpCallContext,
    res: ServerResponse,
    headers: Record<string, string>,
  ): Promise<void> {
    const owed = entries.filter((entry) => entry.kind === 'request' || entry.kind === 'invalid').length;
    if (owed === 0) {
      for (const entry of entries) this.dispatchOneWay(entry, context);
      return writeEmpty(res, 202, headers);
    }
    const responder = new PostResponder(res, context.session!, owed, true, headers, this.responderSettings);
    const withChannel: McpCallContext = { ...context, channel: responder };
    const dispatcher = this.server.legacy;
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.kind === 'invalid') responder.respond(entry.error);
        else if (entry.kind === 'request')
          responder.respond(await dispatcher.handleRequest(entry.message, withChannel));
        else this.dispatchOneWay(entry, context);
      }),
    );
  }

  /** Notifications and the client's answers to server requests: nothing to respond. */
  private dispatchOneWay(entry: DecodedMessage, context: McpCallContext): void {
    if (entry.kind === 'notification') this.server.legacy.handleNotification(entry.message, context);
    else if (entry.kind === 'response') this.server.legacy.handleResponse(entry.message, context);
  }

  /** An unsupported `MCP-Protocol-Version` gets 400; a missing one means 2025-03-26 and passes. */
  private checkVersionHeader(raw: IncomingMessage, res: ServerResponse): boolean {
    if (this.versionHeaderOk(raw)) return true;
    rejectVersionHeader(res);
    return false;
  }

  private versionHeaderOk(raw: IncomingMessage): boolean {
    const version = headerValue(raw.headers, MCP_PROTOCOL_VERSION_HEADER);
    return version === undefined || isLegacyProtocolVersion(version);
  }

  private findSession(request: unknown, raw: IncomingMessage, res: ServerResponse): ClientSession | undefined {
    const id = headerValue(raw.headers, MCP_SESSION_ID_HEADER);
    if (id === undefined) {
      writeTransportError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
      return undefined;
    }
    const session = this.sessions.findFor(id, request);
    if (!session) writeTransportError(res, 404, 'Session not found');
    return session;
  }
}

/** GET and DELETE are 2025 session operations: an endpoint that serves only 2026-07-28 has neither. */
function refuseSessionMethod(res: ServerResponse): void {
  writeTransportError(res, 405, 'Method Not Allowed: this endpoint serves stateless POST requests only', undefined, {
    allow: 'POST',
  });
}

function rejectVersionHeader(res: ServerResponse): void {
  // The value is not echoed: it is the client's and may be anything.
  writeTransportError(res, 400, 'Bad Request: unsupported MCP-Protocol-Version');
}
