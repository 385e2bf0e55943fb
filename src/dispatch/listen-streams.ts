import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { MessageContext } from '../execution/message-context.js';
import type { ServerChange, ChangeBus } from '../interfaces/change-bus.interface.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_CHANGE_BUS, MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import { RequestCancelledError } from '../protocol/dispatcher.js';
import { notificationMessage } from '../protocol/json-rpc.codec.js';
import { ErrorCode, JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { JsonRpcParams, RequestId } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import type { SubscriptionFilter } from '../protocol/mcp.types.js';
import { MetaKey } from '../protocol/request-envelope.js';
import { ResourceReader } from '../resources/resource.reader.js';
import { subscriptionTagger } from '../protocol/subscription-tagging.js';
import { FanoutSlices } from '../session/fanout-slices.js';
import { ServedCapabilities } from './served-capabilities.js';
import { declaresTasksExtension, detailedTask, tasksExtensionRequired } from '../protocol/tasks.js';
import { TaskService } from '../tasks/task.service.js';
import type { TaskRecord } from '../tasks/task-record.js';

/** One open `subscriptions/listen` stream. */
interface ListenStream {
  readonly id: RequestId;
  readonly filter: SubscriptionFilter;
  readonly uris: ReadonlySet<string>;
  readonly taskIds: ReadonlySet<string>;
  readonly call: MessageContext;
  /** Ends the subscription gracefully: its result goes out, then the stream closes. */
  readonly finish: () => void;
}

const LIST_METHOD = {
  tools: Method.ToolsListChanged,
  prompts: Method.PromptsListChanged,
  resources: Method.ResourcesListChanged,
} as const;
const LIST_FLAG = {
  tools: 'toolsListChanged',
  prompts: 'promptsListChanged',
  resources: 'resourcesListChanged',
} as const;

/**
 * The open `subscriptions/listen` streams (2026-07-28) of the application: the change notifications
 * on the bus reach each stream that asked for them, tagged with its subscription id. A stream
 * acknowledges first, with the part of its filter the server honours: list changes of the kinds it
 * serves, updates of the resources the caller may read. It ends when the client closes it, or
 * gracefully, with its result, when the application shuts down (a listen that arrives then is ended
 * at once). Streams are bounded in all and per identified principal, counted from the moment a
 * listen arrives (its guards may take a while), not from its acknowledgement.
 *
 * A change wanted by many streams goes out in slices that yield (as broadcasts to sessions do), and
 * each stream is a response stream like any other: what a listener that stopped reading holds back
 * counts against `limits.outboxMessages`, `limits.outboxChars` and the application's
 * `limits.bufferedChars`, and past them its stream is cut (the client listens again).
 */
@Injectable()
export class ListenStreams implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('McpListen');
  private readonly streams = new Set<ListenStream>();
  /** A change to many streams goes out in slices, so that other requests are served meanwhile. */
  private readonly slices = new FanoutSlices<ListenStream>((refused) => {
    this.logger.warn(
      `${refused} change notification(s) to listen streams refused: changes come faster than the server ` +
        `delivers them while other requests are served, and a million sends already wait`,
    );
  });
  /** Listens arrived and not ended (acknowledged or not), in all and per identified principal. */
  private held = 0;
  private readonly heldBy = new Map<string, number>();
  private unsubscribe: (() => void) | undefined;
  private unwatch: (() => void) | undefined;
  private closing = false;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    @Inject(MCP_CHANGE_BUS) private readonly bus: ChangeBus,
    private readonly capabilities: ServedCapabilities,
    private readonly reader: ResourceReader,
    private readonly tasks: TaskService,
  ) {}

  /** Open streams. */
  get size(): number {
    return this.streams.size;
  }

  onApplicationBootstrap(): void {
    this.unsubscribe = this.bus.subscribe((change) => this.deliver(change));
    this.unwatch = this.tasks.watch((task) => this.deliverTask(task));
  }

  /** Ends every stream gracefully: each gets its result before the server closes. */
  onModuleDestroy(): void {
    this.closing = true;
    this.unsubscribe?.();
    this.slices.clear();
    this.unwatch?.();
    for (const stream of [...this.streams]) stream.finish();
  }

  /**
   * Whether `principal` may open another stream now: there is room in all, and for an identified
   * principal, room of its own (anonymous callers are bounded by the total alone: one of them must
   * not lock every other out).
   */
  hasRoom(principal: string | undefined): boolean {
    if (this.held >= this.options.limits.listenStreams) return false;
    return principal === undefined || (this.heldBy.get(principal) ?? 0) < this.options.limits.listenStreamsPerPrincipal;
  }

  /**
   * Serves one `subscriptions/listen`: acknowledges, then streams what was asked until it ends.
   * The transport checks {@link hasRoom} just before, in the same turn.
   * @returns the result that ends it gracefully.
   * @throws RequestCancelledError when the client ended it (nothing is answered then);
   *   JsonRpcError -32000 when there is no room (the transport answers that with 429 first).
   */
  async listen(filter: SubscriptionFilter, call: MessageContext, id: RequestId): Promise<Record<string, unknown>> {
    const { caller, channel } = call;
    const { principal } = caller;
    if (!channel) throw new JsonRpcError(ErrorCode.InternalError, 'subscriptions/listen needs a response stream');
    // The tasks extension's notifications are for clients that declare it (SEP-2663 MUST).
    if (filter.taskIds && !declaresTasksExtension(caller.clientCapabilities)) {
      throw tasksExtensionRequired('notifications/tasks on subscriptions/listen');
    }
    if (!this.hasRoom(principal)) throw new JsonRpcError(ErrorCode.ServerError, 'Too many open listen streams');
    const release = this.hold(principal);
    const controller = caller.beginCall(id);
    try {
      const { honoured, current } = await this.honoured(filter, call);
      // The guards of the resources took a while: the client may be gone.
      if (controller.signal.aborted) throw new RequestCancelledError(id);
      return await new Promise<Record<string, unknown>>((resolve, reject) => {
        const stream: ListenStream = {
          id,
          filter: honoured,
          uris: new Set(honoured.resourceSubscriptions),
          taskIds: new Set(honoured.taskIds),
          call,
          finish: () => {
            if (this.streams.delete(stream)) resolve({ _meta: { [MetaKey.SubscriptionId]: id } });
          },
        };
        const abort = (): void => {
          if (this.streams.delete(stream)) reject(new RequestCancelledError(id));
        };
        controller.signal.addEventListener('abort', abort, { once: true });
        this.streams.add(stream);
        const acknowledged = channel.send(
          notificationMessage(Method.SubscriptionsAcknowledged, this.tagged(id, { notifications: honoured })),
        );
        if (!acknowledged) {
          abort();
          return;
        }
        // Each task's state as it is now: what changed between the client's last poll and this
        // listen is not missed (and a finished task's result is there at once).
        for (const task of current) this.sendTask(stream, task);
        // Nothing would ever come (nothing asked is served), or the application is shutting down:
        // the subscription ends at once, gracefully.
        if (this.closing || isEmpty(honoured)) stream.finish();
      });
    } finally {
      release();
      caller.endCall(id, controller);
    }
  }

  /** Counts a listen from its arrival; the release counts it out, once. */
  private hold(principal: string | undefined): () => void {
    this.held++;
    if (principal !== undefined) this.heldBy.set(principal, (this.heldBy.get(principal) ?? 0) + 1);
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.held--;
      if (principal === undefined) return;
      const left = (this.heldBy.get(principal) ?? 1) - 1;
      if (left > 0) this.heldBy.set(principal, left);
      else this.heldBy.delete(principal);
    };
  }

  /**
   * What the server honours of a filter: lists of kinds it serves, resources the caller may read,
   * the caller's own tasks (with their state now).
   */
  private async honoured(
    filter: SubscriptionFilter,
    call: MessageContext,
  ): Promise<{ honoured: SubscriptionFilter; current: TaskRecord[] }> {
    const served = this.capabilities.current;
    const honoured: { -readonly [K in keyof SubscriptionFilter]: SubscriptionFilter[K] } = {};
    if (filter.toolsListChanged && served.tools) honoured.toolsListChanged = true;
    if (filter.promptsListChanged && served.prompts) honoured.promptsListChanged = true;
    if (filter.resourcesListChanged && served.resources) honoured.resourcesListChanged = true;
    if (filter.resourceSubscriptions && served.resources) {
      const readable = await this.reader.readableUris(filter.resourceSubscriptions, call);
      if (readable.length > 0) honoured.resourceSubscriptions = readable;
    }
    if (filter.taskIds) {
      // The caller's own tasks only: another's, like an unknown one, is left out without a word.
      const tasks = await Promise.all(
        filter.taskIds.map((taskId) => this.tasks.get(taskId, call.caller).catch(() => undefined)),
      );
      const own = tasks.filter((task) => task !== undefined);
      if (own.length > 0) honoured.taskIds = own.map((task) => task.taskId);
      return { honoured, current: own };
    }
    return { honoured, current: [] };
  }

  /** `notifications/tasks` to each stream that listens for the task: its state as `tasks/get` gives it. */
  private deliverTask(task: TaskRecord): void {
    for (const stream of this.streams) {
      if (stream.taskIds.has(task.taskId)) this.sendTask(stream, task);
    }
  }

  private sendTask(stream: ListenStream, task: TaskRecord): void {
    const sent = stream.call.channel?.send(
      notificationMessage(Method.Tasks, this.tagged(stream.id, detailedTask(task))),
    );
    if (sent !== true) this.logger.debug(`A listen stream could not take ${Method.Tasks}; it is closing`);
  }

  private deliver(change: ServerChange): number {
    if (!this.slices.accepts(this.streams.size)) return 0;
    const targets: ListenStream[] = [];
    for (const stream of this.streams) {
      const wanted =
        change.kind === 'list' ? stream.filter[LIST_FLAG[change.list]] === true : stream.uris.has(change.uri);
      if (wanted) targets.push(stream);
    }
    if (targets.length === 0) return 0;
    const method = change.kind === 'list' ? LIST_METHOD[change.list] : Method.ResourceUpdated;
    const params = change.kind === 'list' ? {} : { uri: change.uri };
    // Each stream's copy names its subscription: the rest is serialised once for all of them.
    const textFor = subscriptionTagger(method, params);
    const chars = textFor('').length;
    return this.slices.fanOut(
      targets,
      (stream) => {
        // Ended while the change waited for its slice.
        if (!this.streams.has(stream)) return false;
        const channel = stream.call.channel;
        const sent = channel?.sendEncoded
          ? channel.sendEncoded(textFor(stream.id))
          : channel?.send(notificationMessage(method, this.tagged(stream.id, params)));
        if (sent === true) return true;
        this.logger.debug(`A listen stream could not take ${method}; it is closing`);
        return false;
      },
      chars * targets.length,
    );
  }

  private tagged(id: RequestId, params: JsonRpcParams): JsonRpcParams {
    return { ...params, _meta: { [MetaKey.SubscriptionId]: id } };
  }
}

function isEmpty(filter: SubscriptionFilter): boolean {
  return Object.keys(filter).length === 0;
}
