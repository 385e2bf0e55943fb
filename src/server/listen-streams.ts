import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import type { McpCallContext } from '../execution/mcp-call-context.js';
import type { McpChange, McpChangeBus } from '../interfaces/mcp-change-bus.interface.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_CHANGE_BUS, MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import { RequestCancelledError } from '../protocol/dispatcher.js';
import { notificationMessage } from '../protocol/json-rpc.codec.js';
import { ErrorCode, JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { JsonRpcParams, RequestId } from '../protocol/json-rpc.types.js';
import { McpMethod } from '../protocol/mcp.methods.js';
import type { SubscriptionFilter } from '../protocol/mcp.types.js';
import { MetaKey } from '../protocol/request-envelope.js';
import { McpResourceReader } from '../resources/resource.reader.js';
import { ServedCapabilities } from './served-capabilities.js';

/** One open `subscriptions/listen` stream. */
interface ListenStream {
  readonly id: RequestId;
  readonly principal: string;
  readonly filter: SubscriptionFilter;
  readonly uris: ReadonlySet<string>;
  readonly call: McpCallContext;
  /** Aborts when the client ends the stream. */
  readonly controller: AbortController;
  /** Ends the subscription gracefully: its result goes out, then the stream closes. */
  readonly finish: () => void;
}

const LIST_METHOD = {
  tools: McpMethod.ToolsListChanged,
  prompts: McpMethod.PromptsListChanged,
  resources: McpMethod.ResourcesListChanged,
} as const;
const LIST_FLAG = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const;
const ANONYMOUS = '';

/**
 * The open `subscriptions/listen` streams (2026-07-28) of the application: the change notifications
 * on the bus reach each stream that asked for them, tagged with its subscription id. A stream
 * acknowledges first, with the part of its filter the server honours: list changes of the kinds it
 * serves, updates of the resources the caller may read. It ends when the client closes it (or
 * cancels it by id), or gracefully, with its result, when the application shuts down. Open streams
 * are bounded in all and per principal.
 */
@Injectable()
export class ListenStreams implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('McpListen');
  private readonly streams = new Set<ListenStream>();
  private readonly perPrincipal = new Map<string, number>();
  private unsubscribe: (() => void) | undefined;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_CHANGE_BUS) private readonly bus: McpChangeBus,
    private readonly capabilities: ServedCapabilities,
    private readonly reader: McpResourceReader,
  ) {}

  /** Open streams. */
  get size(): number {
    return this.streams.size;
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = this.bus.subscribe((change) => this.deliver(change));
  }

  /** Ends every stream gracefully: each gets its result before the server closes. */
  onModuleDestroy(): void {
    this.unsubscribe?.();
    for (const stream of [...this.streams]) stream.finish();
  }

  /**
   * Serves one `subscriptions/listen`: acknowledges, then streams what was asked until it ends.
   * @returns the result that ends it gracefully.
   * @throws RequestCancelledError when the client ended it (nothing is answered then);
   *   JsonRpcError -32000 when too many streams are open (answered with HTTP 429).
   */
  async listen(filter: SubscriptionFilter, call: McpCallContext, id: RequestId): Promise<Record<string, unknown>> {
    const principal = this.options.sessionOwner(call.httpRequest) ?? ANONYMOUS;
    this.checkRoom(principal);
    const { caller, channel } = call;
    if (!channel) throw new JsonRpcError(ErrorCode.InternalError, 'subscriptions/listen needs a response stream');
    const controller = caller.beginCall(id);
    const honoured = await this.honoured(filter, call);
    // The guards of the resources took a while: the room may be gone, or the client.
    if (controller.signal.aborted) {
      caller.endCall(id, controller);
      throw new RequestCancelledError(id);
    }
    this.checkRoom(principal);
    return new Promise<Record<string, unknown>>((resolve, reject) => {
      const stream: ListenStream = {
        id,
        principal,
        filter: honoured,
        uris: new Set(honoured.resourceSubscriptions),
        call,
        controller,
        finish: () => {
          if (!this.forget(stream)) return;
          resolve({ _meta: { [MetaKey.SubscriptionId]: id } });
        },
      };
      const abort = (): void => {
        if (this.forget(stream)) reject(new RequestCancelledError(id));
      };
      controller.signal.addEventListener('abort', abort, { once: true });
      this.streams.add(stream);
      this.perPrincipal.set(principal, (this.perPrincipal.get(principal) ?? 0) + 1);
      const acknowledged = channel.send(
        notificationMessage(McpMethod.SubscriptionsAcknowledged, this.tagged(id, { notifications: honoured })),
      );
      if (!acknowledged) abort();
      // Nothing asked for is served: nothing would ever come, so the subscription ends at once, gracefully.
      else if (isEmpty(honoured)) stream.finish();
    }).finally(() => caller.endCall(id, controller));
  }

  /**
   * The client cancelled its listen request by id (`notifications/cancelled`, as a stdio client
   * would; HTTP clients usually close the stream): it ends without an answer.
   * @returns whether a stream of that principal had that id.
   */
  cancel(call: McpCallContext, requestId: RequestId): boolean {
    const principal = this.options.sessionOwner(call.httpRequest) ?? ANONYMOUS;
    for (const stream of this.streams) {
      if (stream.id === requestId && stream.principal === principal) {
        stream.controller.abort(new McpCallAbortedError('cancelled', 'Cancelled by the client'));
        return true;
      }
    }
    return false;
  }

  /** Whether `principal` (a `sessionOwner`, `undefined` when anonymous) may open another stream now. */
  hasRoom(principal: string | undefined): boolean {
    return (
      this.streams.size < this.options.maxListenStreams &&
      (this.perPrincipal.get(principal ?? ANONYMOUS) ?? 0) < this.options.maxListenStreamsPerPrincipal
    );
  }

  private checkRoom(principal: string): void {
    if (this.streams.size >= this.options.maxListenStreams) {
      throw new JsonRpcError(ErrorCode.ServerError, 'Too many open listen streams; try again later');
    }
    if ((this.perPrincipal.get(principal) ?? 0) >= this.options.maxListenStreamsPerPrincipal) {
      throw new JsonRpcError(ErrorCode.ServerError, 'Too many open listen streams for this caller; close one first');
    }
  }

  /** What the server honours of a filter: lists of kinds it serves, resources the caller may read. */
  private async honoured(filter: SubscriptionFilter, call: McpCallContext): Promise<SubscriptionFilter> {
    const served = this.capabilities.current;
    const honoured: { -readonly [K in keyof SubscriptionFilter]: SubscriptionFilter[K] } = {};
    if (filter.toolsListChanged && served.tools) honoured.toolsListChanged = true;
    if (filter.promptsListChanged && served.prompts) honoured.promptsListChanged = true;
    if (filter.resourcesListChanged && served.resources) honoured.resourcesListChanged = true;
    if (filter.resourceSubscriptions && served.resources) {
      const readable = await this.reader.readableUris(filter.resourceSubscriptions, call);
      if (readable.length > 0) honoured.resourceSubscriptions = readable;
    }
    return honoured;
  }

  private deliver(change: McpChange): number {
    let sent = 0;
    for (const stream of this.streams) {
      const wanted =
        change.kind === 'list' ? stream.filter[LIST_FLAG[change.list]] === true : stream.uris.has(change.uri);
      if (!wanted) continue;
      const method = change.kind === 'list' ? LIST_METHOD[change.list] : McpMethod.ResourceUpdated;
      const params = change.kind === 'list' ? {} : { uri: change.uri };
      if (stream.call.channel?.send(notificationMessage(method, this.tagged(stream.id, params)))) sent++;
      else this.logger.debug(`A listen stream could not take ${method}; it is closing`);
    }
    return sent;
  }

  private tagged(id: RequestId, params: JsonRpcParams): JsonRpcParams {
    return { ...params, _meta: { [MetaKey.SubscriptionId]: id } };
  }

  /** @returns whether the stream was open (it is not any more). */
  private forget(stream: ListenStream): boolean {
    if (!this.streams.delete(stream)) return false;
    const left = (this.perPrincipal.get(stream.principal) ?? 1) - 1;
    if (left > 0) this.perPrincipal.set(stream.principal, left);
    else this.perPrincipal.delete(stream.principal);
    return true;
  }
}

function isEmpty(filter: SubscriptionFilter): boolean {
  return Object.keys(filter).length === 0;
}
