import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { StatelessCaller } from '../execution/stateless-caller.js';
import type { McpStdioRequest } from '../interfaces/mcp-transport.interface.js';
import { RequestRouter } from '../dispatch/request-router.js';
import { readCancelledParams } from '../protocol/dispatcher.js';
import { errorResponse, invalidRequest } from '../protocol/json-rpc.errors.js';
import type { JsonRpcNotification, JsonRpcRequest, RequestId } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import { admitModernRequest, ModernRefusal, NO_HEADER_LAYER } from '../protocol/modern-era.js';
import { MODERN_PROTOCOL_VERSIONS } from '../protocol/protocol-version.js';
import { StdioCallChannel } from './stdio-call-channel.js';
import type { StdioOutput } from './stdio-output.js';
import { NO_HEADERS } from './stdio-session.js';

/** What the 2026-07-28 era over stdio is served with. */
export interface StdioStatelessDeps {
  readonly router: RequestRouter;
  readonly output: StdioOutput;
  readonly principalOf: (request: unknown) => string | undefined;
}

/** One stateless request being served. */
interface Running {
  readonly caller: StatelessCaller;
  readonly channel: StdioCallChannel;
}

/**
 * The stateless era (2026-07-28) on stdio: every request stands alone with what its `_meta` says,
 * admitted as over HTTP minus the header layer stdio does not have, and served by the modern
 * dispatcher; its progress and log messages, and a `subscriptions/listen` stream's notifications,
 * go to stdout before its response. There is no per-request stream to close, so the client cancels
 * with `notifications/cancelled` naming the request: the running call aborts, and nothing more is
 * sent for it. Ids are the one client's, on its own pipe: one naming a request that is still
 * running is refused, since a cancellation could not tell the two apart.
 */
export class StdioStateless {
  private readonly running = new Map<RequestId, Running>();

  constructor(private readonly deps: StdioStatelessDeps) {}

  async handle(message: JsonRpcRequest | JsonRpcNotification, request: McpStdioRequest): Promise<void> {
    if (!('id' in message)) return this.notified(message);
    const { output, router } = this.deps;
    const { id } = message;
    if (this.running.has(id)) {
      output.respond(errorResponse(id, invalidRequest('a request with this id is running already')));
      return;
    }
    let envelope;
    try {
      envelope = admitModernRequest(message, NO_HEADER_LAYER, {
        supportedVersions: MODERN_PROTOCOL_VERSIONS,
        capabilities: router.servedCapabilities,
      });
    } catch (error) {
      if (!(error instanceof ModernRefusal)) throw error;
      output.respond(errorResponse(id, error.error));
      return;
    }
    const caller = new StatelessCaller(envelope, this.deps.principalOf(request));
    const channel = new StdioCallChannel(output);
    this.running.set(id, { caller, channel });
    try {
      const response = await router.modern.handleRequest(message, {
        transport: 'stdio',
        caller,
        httpRequest: request,
        headers: NO_HEADERS,
        channel,
      });
      channel.close();
      if (response) output.respond(response);
    } finally {
      this.running.delete(id);
    }
  }

  /** Aborts every request still running: the server is shutting down. */
  abortAll(reason: McpCallAbortedError): void {
    for (const { caller } of this.running.values()) caller.abort(reason);
  }

  /** The era's one client notification on stdio: `notifications/cancelled`. Others are ignored. */
  private notified(notification: JsonRpcNotification): void {
    if (notification.method !== Method.Cancelled) return;
    const params = readCancelledParams(notification.params);
    const running = params && this.running.get(params.requestId);
    // Unknown and finished ids are ignored: the cancellation crossed the answer.
    if (!params || !running) return;
    running.channel.close();
    running.caller.abort(new McpCallAbortedError('cancelled', params.reason ?? 'The client cancelled the request'));
  }
}
