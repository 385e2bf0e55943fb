import type { Subscription } from 'rxjs';
import type { MessageContext } from '../execution/message-context.js';
import type { McpStdioRequest } from '../interfaces/mcp-transport.interface.js';
import { RequestRouter } from '../dispatch/request-router.js';
import type { DecodedBody, DecodedMessage } from '../protocol/json-rpc.codec.js';
import { errorResponse, ErrorCode, invalidRequest, JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { JsonRpcRequest, JsonRpcResponse } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import { supportsBatching } from '../protocol/protocol-version.js';
import type { ClientSession } from '../session/client-session.js';
import { RequestSessions } from '../session/request-sessions.js';
import { isPrimingEvent } from '../session/session-stream.js';
import { SessionStore } from '../session/session.store.js';
import { StdioCallChannel } from './stdio-call-channel.js';
import type { StdioOutput } from './stdio-output.js';

/** What the 2025 era over stdio is served with. */
export interface StdioSessionDeps {
  readonly router: RequestRouter;
  readonly sessions: SessionStore;
  readonly requestSessions: RequestSessions;
  readonly output: StdioOutput;
  /** The session ended on its own (not by the server's shutdown): the connection has nothing left. */
  readonly sessionEnded: (session: ClientSession) => void;
}

/** stdio carries no headers; every context shares this empty, frozen set. */
export const NO_HEADERS = Object.freeze({});

/**
 * The 2025 era on stdio: the process is the session. `initialize` opens it in the session store
 * (as a POST does over HTTP, so its limits, its principal, `McpSessionRegistry` and the change
 * fan-out all hold), and its standalone stream, which a GET holds over HTTP, is written to stdout
 * for as long as the session lives: list changes, resource updates, log messages and requests
 * outside calls. Every other message goes to the legacy dispatcher as a session message; batches
 * only on 2025-03-26 sessions, answered with one array.
 */
export class StdioSession {
  private session: ClientSession | undefined;
  private standalone: Subscription | undefined;

  constructor(private readonly deps: StdioSessionDeps) {}

  /** Serves one line of 2025 traffic (a message, a batch, or what could not be decoded). */
  async handle(body: DecodedBody, request: McpStdioRequest): Promise<void> {
    const { output } = this.deps;
    if (body.kind === 'error') {
      output.respond(body.error);
      return;
    }
    if (body.kind === 'single' && body.entry.kind === 'request' && body.entry.message.method === Method.Initialize) {
      this.initialize(body.entry.message, request);
      return;
    }
    const session = this.session;
    if (!session || session.ended) return this.beforeInitialize(body);
    session.lastActivity = Date.now();
    this.deps.requestSessions.bind(request, session);
    const context: MessageContext = {
      transport: 'stdio',
      caller: session,
      session,
      httpRequest: request,
      headers: NO_HEADERS,
    };
    if (body.kind === 'single') {
      const response = await this.serve(body.entry, context);
      if (response) output.respond(response);
      return;
    }
    if (!supportsBatching(session.protocolVersion)) {
      output.respond(
        errorResponse(null, invalidRequest(`batches are not supported in protocol version ${session.protocolVersion}`)),
      );
      return;
    }
    const responses = await Promise.all(body.entries.map((entry) => this.serve(entry, context)));
    const answered = responses.filter((response) => response !== undefined);
    if (answered.length > 0) output.respondAll(answered);
  }

  /** The server is stopping: its stream no longer goes to stdout (ending the session is the store's). */
  stop(): void {
    this.standalone?.unsubscribe();
    this.standalone = undefined;
  }

  /** Serves one message of the session; a request's answer is returned, a cancelled one's `undefined`. */
  private async serve(entry: DecodedMessage, context: MessageContext): Promise<JsonRpcResponse | undefined> {
    const dispatcher = this.deps.router.legacy;
    switch (entry.kind) {
      case 'invalid':
        return entry.error;
      case 'notification':
        dispatcher.handleNotification(entry.message, context);
        return undefined;
      case 'response':
        dispatcher.handleResponse(entry.message, context);
        return undefined;
      case 'request': {
        const session = context.session!;
        const channel = new StdioCallChannel(this.deps.output, () => !session.ended);
        try {
          return await dispatcher.handleRequest(entry.message, { ...context, channel });
        } finally {
          channel.close();
        }
      }
    }
  }

  /**
   * Before `initialize` only a `ping` is answered ("SHOULD NOT send requests other than pings"); any
   * other request is told to initialize first; notifications and answers have nothing to act on.
   */
  private beforeInitialize(body: DecodedBody): void {
    const { output } = this.deps;
    if (body.kind !== 'single') {
      output.respond(errorResponse(null, invalidRequest('the session is not initialized: send initialize first')));
      return;
    }
    const { entry } = body;
    if (entry.kind === 'invalid') output.respond(entry.error);
    else if (entry.kind === 'request') {
      const { id, method } = entry.message;
      output.respond(
        method === Method.Ping
          ? { jsonrpc: '2.0', id, result: {} }
          : errorResponse(id, invalidRequest('the session is not initialized: send initialize first')),
      );
    }
  }

  private initialize(request: JsonRpcRequest, stdioRequest: McpStdioRequest): void {
    const { output, router, sessions } = this.deps;
    if (this.session && !this.session.ended) {
      output.respond(errorResponse(request.id, invalidRequest('this session is already initialized')));
      return;
    }
    const outcome = router.legacy.initialize(request);
    if (!outcome.handshake) {
      output.respond(outcome.response);
      return;
    }
    // Shared state is refused for stdio servers at bootstrap: the store answers at once.
    const opened = sessions.open(outcome.handshake, stdioRequest) as ClientSession | 'full' | 'principal-full';
    if (typeof opened === 'string') {
      output.respond(
        errorResponse(request.id, new JsonRpcError(ErrorCode.ServerError, `Too many sessions (${opened})`)),
      );
      return;
    }
    this.session = opened;
    output.respond(outcome.response);
    this.pump(opened);
  }

  /**
   * The session's standalone stream, to stdout. Attached, it keeps the session from idling out: a
   * local server may sit unused for hours, and its client expects it to be there.
   */
  private pump(session: ClientSession): void {
    const { output } = this.deps;
    this.standalone = session.streams.attach().subscribe({
      next: (event) => {
        // Priming events and `retry` orders are SSE's (ids to resume from): stdio has nothing to resume.
        if (event.retry !== undefined || isPrimingEvent(event)) return;
        output.write(event.data);
      },
      complete: () => {
        if (session.endedBecause !== undefined && session.endedBecause !== 'shutdown') this.deps.sessionEnded(session);
      },
    });
  }
}
