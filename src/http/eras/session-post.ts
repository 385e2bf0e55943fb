import { Inject, Injectable, Logger } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { MessageContext } from '../../execution/message-context.js';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import type { SessionRefusal } from '../../interfaces/mcp-shared-state.interface.js';
import type { ServerTelemetry } from '../../interfaces/mcp-telemetry.interface.js';
import { MCP_RESOLVED_OPTIONS, MCP_SESSION_ID_HEADER } from '../../mcp.constants.js';
import type { DecodedBody, DecodedMessage } from '../../protocol/json-rpc.codec.js';
import { errorResponse, invalidRequest } from '../../protocol/json-rpc.errors.js';
import type { JsonRpcRequest, JsonRpcResponse } from '../../protocol/json-rpc.types.js';
import { Method } from '../../protocol/methods.js';
import { supportsBatching } from '../../protocol/protocol-version.js';
import { RequestRouter } from '../../dispatch/request-router.js';
import type { ClientSession } from '../../session/client-session.js';
import { RequestSessions } from '../../session/request-sessions.js';
import { SessionStore } from '../../session/session.store.js';
import { McpStateUnavailableError } from '../../errors/mcp-state-unavailable.error.js';
import { writeEmpty, writeJson, writeStateUnavailable, writeTransportError } from '../responses/http-responses.js';
import { PostResponder, type PostResponderSettings } from '../responses/post-responder.js';
import { ScopeChallenges } from '../responses/scope-challenges.js';
import { loggedSerializationReports } from '../../dispatch/serialization-reports.js';
import { legacyVersionHeaderOk, rejectVersionHeader } from './session-headers.js';
import { writeSessionRefusal } from './session-refusal.js';
import { operationOf, servedTraced } from './traced-message.js';

/**
 * Serves one 2025 POST, as a 2025 server does: `initialize` creates a session; every other message
 * needs the session it names (and its principal), and is served by the legacy dispatcher, its
 * answer JSON or, once the call sends messages first, an SSE stream of the session that a client
 * may resume. Batches only on 2025-03-26 sessions.
 */
@Injectable()
export class SessionPost {
  private readonly logger = new Logger('McpTransport');
  private readonly responderSettings: PostResponderSettings;
  private readonly telemetry: ServerTelemetry;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions,
    private readonly sessions: SessionStore,
    private readonly server: RequestRouter,
    private readonly requestSessions: RequestSessions,
    challenges: ScopeChallenges,
  ) {
    this.telemetry = options.telemetry;
    this.responderSettings = {
      keepAliveMs: options.http.keepAliveMs,
      retryMs: options.http.sseRetryMs,
      answerOf: (response) => challenges.answerOf(response),
      ...loggedSerializationReports(this.logger),
    };
  }

  /**
   * Serves one 2025 POST: `initialize`, or a message (or batch) of an existing session. Not an async
   * function: on the path of every call, with the session at hand (it is, but for shared state not
   * cached here), it waits only for the call, through one `then` rather than an async function's
   * saved frame and extra turn.
   */
  handle(
    body: DecodedBody,
    sessionId: string | undefined,
    request: unknown,
    raw: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> | void {
    if (sessionId === undefined) return this.serveSession(body, undefined, request, raw, res);
    const found = this.sessions.findFor(sessionId, request);
    if (found instanceof Promise) return this.awaitSession(found, body, request, raw, res);
    if (!found) return this.notFound(res);
    return this.serveSession(body, found, request, raw, res);
  }

  /** {@link handle} once the shared state found (or did not find) the session. */
  private async awaitSession(
    found: Promise<ClientSession | undefined>,
    body: DecodedBody,
    request: unknown,
    raw: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    let session: ClientSession | undefined;
    try {
      session = await found;
    } catch (error) {
      if (!(error instanceof McpStateUnavailableError)) throw error;
      this.telemetry.refused('state_unavailable');
      return this.unavailable(body, res);
    }
    if (!session) return this.notFound(res);
    return await this.serveSession(body, session, request, raw, res);
  }

  private notFound(res: ServerResponse): void {
    this.telemetry.refused('session_not_found');
    writeTransportError(res, 404, 'Session not found');
  }

  /** Serves the POST of `session` (`undefined`: none was named). */
  private serveSession(
    body: DecodedBody,
    session: ClientSession | undefined,
    request: unknown,
    raw: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> | void {
    if (body.kind === 'error') return writeJson(res, 400, body.error);

    if (body.kind === 'single' && body.entry.kind === 'request' && body.entry.message.method === Method.Initialize) {
      return this.initialize(body.entry.message, session, request, raw, res);
    }
    // `initialize` negotiates the version in its body, so the header is judged only for other messages.
    if (!legacyVersionHeaderOk(raw)) return rejectVersionHeader(res);
    if (!session) return writeTransportError(res, 400, 'Bad Request: Mcp-Session-Id header is required');
    // The session may have ended (DELETE, idle sweep) while the body was arriving.
    if (session.ended) return writeTransportError(res, 404, 'Session not found');
    session.lastActivity = Date.now();
    this.requestSessions.bind(request, session);
    const { headers } = raw;
    const sessionHeader = { [MCP_SESSION_ID_HEADER]: session.id };

    if (body.kind === 'single') {
      const { entry } = body;
      if (entry.kind === 'invalid') return writeJson(res, 400, entry.error, sessionHeader);
      if (entry.kind !== 'request') {
        this.dispatchOneWay(entry, this.contextOf(session, request, headers), raw);
        return writeEmpty(res, 202, sessionHeader);
      }
      const responder = new PostResponder(res, session, 1, false, sessionHeader, this.responderSettings, [
        entry.message.id,
      ]);
      // Written out rather than spread from `base`: a spread copies through a slower, generic path.
      const context: MessageContext = {
        transport: 'http',
        caller: session,
        session,
        httpRequest: request,
        headers,
        channel: responder,
      };
      const served = this.serve(entry.message, context, raw);
      if (!(served instanceof Promise)) return responder.respond(served);
      return served.then((response) => responder.respond(response));
    }

    if (!supportsBatching(session.protocolVersion)) {
      return writeJson(
        res,
        400,
        errorResponse(null, invalidRequest(`batches are not supported in protocol version ${session.protocolVersion}`)),
        sessionHeader,
      );
    }
    return this.handleBatch(body.entries, this.contextOf(session, request, headers), raw, res, sessionHeader);
  }

  /** The context of the session's messages that need no answer channel (notifications, a batch's). */
  private contextOf(session: ClientSession, request: unknown, headers: IncomingMessage['headers']): MessageContext {
    return { transport: 'http', caller: session, session, httpRequest: request, headers };
  }

  /** Serves one request of the session, inside its telemetry operation when there is telemetry. */
  private serve(
    message: JsonRpcRequest,
    context: MessageContext,
    raw: IncomingMessage,
  ): Promise<JsonRpcResponse | undefined> | JsonRpcResponse | undefined {
    // Called directly without telemetry: no closure is made for a call nobody traces.
    if (!this.telemetry.enabled) return this.server.legacy.handleRequest(message, context);
    const { session } = context;
    return servedTraced(this.telemetry, message, raw, session?.protocolVersion, session?.id, () =>
      this.server.legacy.handleRequest(message, context),
    );
  }

  /**
   * The session could not be read from the shared state: 503, except for a `ping`, which needs no
   * session to be answered and says nothing about one.
   */
  private unavailable(body: DecodedBody, res: ServerResponse): void {
    if (body.kind === 'single' && body.entry.kind === 'request' && body.entry.message.method === Method.Ping) {
      return writeJson(res, 200, { jsonrpc: '2.0', id: body.entry.message.id, result: {} });
    }
    writeStateUnavailable(res);
  }

  private async initialize(
    request: JsonRpcRequest,
    existing: ClientSession | undefined,
    httpRequest: unknown,
    raw: IncomingMessage,
    res: ServerResponse,
  ): Promise<void> {
    if (existing) {
      return writeJson(res, 400, errorResponse(request.id, invalidRequest('this session is already initialized')), {
        [MCP_SESSION_ID_HEADER]: existing.id,
      });
    }
    const outcome = this.server.legacy.initialize(request);
    if (this.telemetry.enabled) {
      // The version is the one the handshake settled on; no session exists yet.
      const version = outcome.handshake?.protocolVersion;
      await this.telemetry.request(operationOf(request, raw, version), () => outcome.response);
    }
    if (!outcome.handshake) return writeJson(res, 200, outcome.response);
    let session: ClientSession | SessionRefusal;
    try {
      const opened = this.sessions.open(outcome.handshake, httpRequest);
      session = opened instanceof Promise ? await opened : opened;
    } catch (error) {
      if (!(error instanceof McpStateUnavailableError)) throw error;
      this.telemetry.refused('state_unavailable');
      return writeStateUnavailable(res, request.id);
    }
    if (session === 'full' || session === 'principal-full') {
      this.telemetry.refused(session === 'full' ? 'sessions_full' : 'principal_sessions_full');
      return writeSessionRefusal(res, request.id, session);
    }
    writeJson(res, 200, outcome.response, { [MCP_SESSION_ID_HEADER]: session.id });
  }

  private async handleBatch(
    entries: readonly DecodedMessage[],
    context: MessageContext,
    raw: IncomingMessage,
    res: ServerResponse,
    headers: Record<string, string>,
  ): Promise<void> {
    const owed = entries.filter((entry) => entry.kind === 'request' || entry.kind === 'invalid').length;
    if (owed === 0) {
      for (const entry of entries) this.dispatchOneWay(entry, context, raw);
      return writeEmpty(res, 202, headers);
    }
    const requestIds = entries.flatMap((entry) => (entry.kind === 'request' ? [entry.message.id] : []));
    const responder = new PostResponder(res, context.session!, owed, true, headers, this.responderSettings, requestIds);
    const withChannel: MessageContext = { ...context, channel: responder };
    await Promise.all(
      entries.map(async (entry) => {
        if (entry.kind === 'invalid') responder.respond(entry.error);
        else if (entry.kind === 'request') responder.respond(await this.serve(entry.message, withChannel, raw));
        else this.dispatchOneWay(entry, context, raw);
      }),
    );
  }

  /** Notifications and the client's answers to server requests: nothing to respond. */
  private dispatchOneWay(entry: DecodedMessage, context: MessageContext, raw: IncomingMessage): void {
    if (entry.kind === 'notification') {
      const { message } = entry;
      const handle = (): void => this.server.legacy.handleNotification(message, context);
      if (!this.telemetry.enabled) return handle();
      const { session } = context;
      this.telemetry.notification(operationOf(message, raw, session?.protocolVersion, session?.id), handle);
    } else if (entry.kind === 'response') this.server.legacy.handleResponse(entry.message, context);
  }
}
