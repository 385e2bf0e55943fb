import { BufferBudget } from '../../session/buffer-budget.js';
import { Inject, Injectable, Logger, type BeforeApplicationShutdown } from '@nestjs/common';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { McpCallAbortedError } from '../../errors/mcp-call-aborted.error.js';
import type { MessageContext } from '../../execution/message-context.js';
import type { StatelessCaller } from '../../execution/stateless-caller.js';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../../mcp.constants.js';
import type { Dispatcher } from '../../protocol/dispatcher.js';
import type { JsonRpcRequest, JsonRpcResponse } from '../../protocol/json-rpc.types.js';
import type { ServerTelemetry } from '../../interfaces/mcp-telemetry.interface.js';
import { ScopeChallenges } from '../responses/scope-challenges.js';
import { loggedSerializationReports } from '../../dispatch/serialization-reports.js';
import { StatelessResponder, type StatelessResponderSettings } from '../responses/stateless-responder.js';
import { servedTraced } from './traced-message.js';

/**
 * Serves requests that stand alone, with no session around them: stateless 2026-07-28 requests, and
 * 2025 requests when `sessions.enabled` is off. Each is answered as JSON or, when it sends messages
 * first, as an SSE stream its response ends; the client closing the response is its cancellation,
 * and the application's shutdown aborts what still runs.
 */
@Injectable()
export class LoneRequests implements BeforeApplicationShutdown {
  private readonly logger = new Logger('McpTransport');
  private readonly settings: StatelessResponderSettings;
  private readonly telemetry: ServerTelemetry;
  /** The callers of requests being served: the application's shutdown aborts their calls, as it ends sessions. */
  private readonly serving = new Set<StatelessCaller>();
  /** Response streams begun: each draws on the budget under its own key. */
  private streams = 0;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions,
    private readonly challenges: ScopeChallenges,
    budget: BufferBudget,
  ) {
    this.telemetry = options.telemetry;
    this.settings = {
      keepAliveMs: options.http.keepAliveMs,
      outboxLimit: options.limits.outboxMessages,
      outboxChars: options.limits.outboxChars,
      // The budget is the application's: keys name the server, as sessions' ids are unique already.
      budget: { of: budget, nextKey: () => `stateless:${options.name}:${++this.streams}` },
      ...loggedSerializationReports(this.logger),
    };
  }

  /**
   * Aborts what still runs: a handler waiting on its signal must not hold the shutdown. After the
   * modules' destroy hooks, so that listen streams have ended gracefully first.
   */
  beforeApplicationShutdown(): void {
    const reason = new McpCallAbortedError('shutdown', 'The server is shutting down');
    for (const caller of this.serving) caller.abort(reason);
  }

  /**
   * Serves one request of `caller` with `dispatcher`, and answers it.
   * @param statusOf the HTTP status of a JSON answer (a call refused for missing scopes is 403 in any era).
   */
  async serve(
    caller: StatelessCaller,
    message: JsonRpcRequest,
    dispatcher: Dispatcher<MessageContext>,
    request: unknown,
    raw: IncomingMessage,
    res: ServerResponse,
    statusOf: (response: JsonRpcResponse | undefined) => number,
  ): Promise<void> {
    // Gone while its body arrived or was checked: nothing is left to serve. (The request itself is
    // destroyed once its body is read; the response and the socket say whether the client is there.)
    if (res.destroyed || res.writableEnded || raw.socket?.destroyed) return;
    const responder = new StatelessResponder(res, this.settings);
    abortOnClose(res, responder, caller);
    const context: MessageContext = {
      transport: 'http',
      caller,
      httpRequest: request,
      headers: raw.headers,
      channel: responder,
    };
    this.serving.add(caller);
    try {
      const response = await servedTraced(this.telemetry, message, raw, caller.protocolVersion, undefined, () =>
        dispatcher.handleRequest(message, context),
      );
      const challenge = this.challenges.answerOf(response);
      if (challenge) responder.respond(response, challenge.status, challenge.headers);
      else responder.respond(response, statusOf(response));
    } finally {
      this.serving.delete(caller);
    }
  }
}

/**
 * The client closing the response before its answer cancels the call. Made outside the async
 * `serve`, so that no closure of it holds the request's objects (see `InputRoundSlot` on V8's
 * pretenuring).
 */
function abortOnClose(res: ServerResponse, responder: StatelessResponder, caller: StatelessCaller): void {
  res.once('close', () => {
    if (!responder.done) caller.abort(new McpCallAbortedError('cancelled', 'The client closed the response stream'));
  });
}
