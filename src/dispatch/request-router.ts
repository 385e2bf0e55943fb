import { Inject, Injectable, Logger } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { resolveCacheHint } from '../items/cache-hints.js';
import { Dispatcher, type DispatchEra, type DispatcherPort } from '../protocol/dispatcher.js';
import type { ServerDescription } from '../protocol/initialize.js';
import { LEGACY_ERA, SESSIONLESS_LEGACY_ERA } from '../protocol/legacy-era.js';
import {
  admitModernParams,
  CACHEABLE_METHODS,
  finishModernResult,
  MODERN_METHODS,
  MODERN_NOTIFICATIONS,
  modernError,
} from '../protocol/modern-era.js';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from '../protocol/protocol-version.js';
import type { JsonRpcResponse, RequestId } from '../protocol/json-rpc.types.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import type {
  CacheHint,
  CallToolParams,
  CallToolResult,
  CancelledNotificationParams,
  CompleteParams,
  CompleteResult,
  DiscoverResult,
  GetPromptParams,
  GetPromptResult,
  InputRequiredResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  PromptDefinition,
  ReadResourceResult,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ResourceUriParams,
  ServerCapabilities,
  SubscriptionFilter,
  ToolDefinition,
} from '../protocol/mcp.types.js';
import type { Page } from '../protocol/pagination.js';
import { invalidParams, JsonRpcError } from '../protocol/json-rpc.errors.js';
import { Method } from '../protocol/methods.js';
import {
  declaresTasksExtension,
  detailedTask,
  isTerminalStatus,
  legacyTask,
  RELATED_TASK_META,
  tasksExtensionRequired,
} from '../protocol/tasks.js';
import type { ItemStore } from '../items/item-store.js';
import { CompletionService } from '../completion/completion.service.js';
import { GuardClock, GUARD_DEADLINE_MS } from '../execution/guard-clock.js';
import { ItemVisibility } from '../execution/item-visibility.js';
import type { MessageContext } from '../execution/message-context.js';
import type { ItemRequest } from '../execution/item-request.js';
import type { ServedHandler } from '../execution/served-handler.js';
import { PromptRenderer } from '../prompts/prompt.renderer.js';
import { PromptStore } from '../prompts/prompt.store.js';
import { ResourceReader } from '../resources/resource.reader.js';
import { ResourceStore } from '../resources/resource.store.js';
import { SessionStore } from '../session/session.store.js';
import { Sealer } from '../sealing/sealer.js';
import { TaskService } from '../tasks/task.service.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { ToolCaller } from '../tools/tool.caller.js';
import { ToolStore } from '../tools/tool.store.js';
import { CursorSeal } from './cursor-seal.js';
import { EncodedPages } from './encoded-pages.js';
import { ListenStreams } from './listen-streams.js';
import { ServedCapabilities } from './served-capabilities.js';

/** The lists a caching hint is configured for, by their option names. */
type ListName = 'tools' | 'prompts' | 'resources' | 'resourceTemplates';

/** The paged lists, by the names their cursors are sealed to, and the definitions each lists. */
interface ListedDefinitions {
  readonly tools: ToolDefinition;
  readonly resources: ResourceDefinition;
  readonly templates: ResourceTemplateDefinition;
  readonly prompts: PromptDefinition;
}
type PagedList = keyof ListedDefinitions;

/**
 * The application's MCP server: binds the pure dispatcher, once per era, to this application's
 * items, sessions, listen streams and logger. One per application, so two applications in one
 * process never share anything.
 */
@Injectable()
export class RequestRouter implements DispatcherPort<MessageContext> {
  private readonly logger = new Logger('McpServer');
  /** Serves 2025 sessions. */
  readonly legacy: Dispatcher<MessageContext>;
  /** Serves stateless 2026-07-28 requests. */
  readonly modern: Dispatcher<MessageContext>;
  /** The 2025 era served without sessions (`sessions.enabled: false`). */
  readonly sessionless: Dispatcher<MessageContext>;
  /** What `server/discover` and the unsupported-version error say the endpoint speaks. */
  readonly supportedVersions: readonly string[];
  private readonly pageSize: number;
  private readonly cursors: CursorSeal;
  private readonly instructions: string | undefined;
  /** The caching hints of the lists and of `server/discover`, worked out once. */
  private readonly hints: Readonly<Record<ListName | 'discover', CacheHint>>;
  /** Each list's pages, encoded once per page and visibility class. */
  private readonly encodedPages: { readonly [L in PagedList]: EncodedPages<ListedDefinitions[L]> } = {
    tools: new EncodedPages(),
    resources: new EncodedPages(),
    templates: new EncodedPages(),
    prompts: new EncodedPages(),
  };

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions,
    private readonly tools: ToolStore,
    private readonly resources: ResourceStore,
    private readonly prompts: PromptStore,
    private readonly sessions: SessionStore,
    private readonly visibility: ItemVisibility,
    private readonly clock: GuardClock,
    private readonly toolCaller: ToolCaller,
    private readonly reader: ResourceReader,
    private readonly renderer: PromptRenderer,
    private readonly completions: CompletionService,
    private readonly capabilities: ServedCapabilities,
    private readonly listens: ListenStreams,
    private readonly tasks: TaskService,
    sealer: Sealer,
  ) {
    const description = describeServer(options);
    this.legacy = new Dispatcher(withTasks(description, capabilities), this, LEGACY_ERA);
    this.modern = new Dispatcher(description, this, this.modernEra(description));
    this.sessionless = new Dispatcher(
      withTasks(withoutSessionCapabilities(description), capabilities),
      this,
      SESSIONLESS_LEGACY_ERA,
    );
    this.supportedVersions =
      options.eras === 'modern'
        ? [...MODERN_PROTOCOL_VERSIONS]
        : [...MODERN_PROTOCOL_VERSIONS, ...LEGACY_PROTOCOL_VERSIONS];
    this.pageSize = options.limits.pageSize;
    this.cursors = new CursorSeal(sealer.keysOf('cursor'));
    this.instructions = options.instructions;
    // Lists may differ per caller when guards hide items: private unless the options say otherwise.
    const { cache } = options;
    this.hints = {
      tools: resolveCacheHint('private', cache.tools),
      prompts: resolveCacheHint('private', cache.prompts),
      resources: resolveCacheHint('private', cache.resources),
      resourceTemplates: resolveCacheHint('private', cache.resourceTemplates),
      // What the server speaks and serves is the same for every caller.
      discover: resolveCacheHint('public', cache.discover),
    };
  }

  /** The capabilities a 2026-07-28 client is told of now (a kind without items is not served). */
  get servedCapabilities(): ServerCapabilities {
    return this.capabilities.current;
  }

  discover(context: MessageContext): DiscoverResult {
    context.cacheHint = this.hints.discover;
    return {
      supportedVersions: this.supportedVersions,
      capabilities: this.capabilities.current,
      ...(this.instructions === undefined ? {} : { instructions: this.instructions }),
    };
  }

  listen(filter: SubscriptionFilter, context: MessageContext, requestId: RequestId): Promise<Record<string, unknown>> {
    return this.listens.listen(filter, context, requestId);
  }

  async listTools(cursor: string | undefined, context: MessageContext): Promise<ListToolsResult> {
    context.cacheHint = this.hints.tools;
    const { items, nextCursor } = await this.list('tools', this.tools, cursor, context, (after, visible) =>
      this.tools.page(after, this.pageSize, (tool) => visible(tool, { kind: 'tool', name: tool.definition.name })),
    );
    return { tools: items, ...nextCursor };
  }

  async listResources(cursor: string | undefined, context: MessageContext): Promise<ListResourcesResult> {
    context.cacheHint = this.hints.resources;
    const { resources } = this.resources;
    const { items, nextCursor } = await this.list('resources', resources, cursor, context, (after, visible) =>
      resources.page(after, this.pageSize, (resource) =>
        visible(resource, { kind: 'resource', name: resource.definition.name, uri: resource.definition.uri }),
      ),
    );
    return { resources: items, ...nextCursor };
  }

  async listResourceTemplates(
    cursor: string | undefined,
    context: MessageContext,
  ): Promise<ListResourceTemplatesResult> {
    context.cacheHint = this.hints.resourceTemplates;
    const { templates } = this.resources;
    const { items, nextCursor } = await this.list('templates', templates, cursor, context, (after, visible) =>
      templates.page(after, this.pageSize, (template) =>
        visible(template, { kind: 'resourceTemplate', name: template.definition.name }),
      ),
    );
    return { resourceTemplates: items, ...nextCursor };
  }

  readResource(
    params: ResourceUriParams,
    context: MessageContext,
    requestId: RequestId,
  ): Promise<ReadResourceResult | InputRequiredResult> {
    return this.reader.read(params, context, requestId);
  }

  subscribeResource(params: ResourceUriParams, context: MessageContext, requestId: RequestId): Promise<void> {
    return this.reader.subscribe(params, context, requestId);
  }

  unsubscribeResource(params: ResourceUriParams, context: MessageContext): void {
    this.reader.unsubscribe(params, context);
  }

  async listPrompts(cursor: string | undefined, context: MessageContext): Promise<ListPromptsResult> {
    context.cacheHint = this.hints.prompts;
    const { items, nextCursor } = await this.list('prompts', this.prompts, cursor, context, (after, visible) =>
      this.prompts.page(after, this.pageSize, (prompt) =>
        visible(prompt, { kind: 'prompt', name: prompt.definition.name }),
      ),
    );
    return { prompts: items, ...nextCursor };
  }

  getPrompt(
    params: GetPromptParams,
    context: MessageContext,
    requestId: RequestId,
  ): Promise<GetPromptResult | InputRequiredResult> {
    return this.renderer.get(params, context, requestId);
  }

  complete(params: CompleteParams, context: MessageContext, requestId: RequestId): Promise<CompleteResult> {
    return this.completions.complete(params, context, requestId);
  }

  /**
   * One page of a list method, its cursors sealed to the session and to the list they belong to,
   * its items' definitions encoded once per page and visibility class (see {@link EncodedPages}).
   * One guard deadline for the whole listing: a guard that never settles leaves its item out,
   * rather than the page hanging, and a page of hung guards takes 10 s, not 10 s per turn of items.
   */
  private async list<L extends PagedList, T extends { readonly definition: ListedDefinitions[L] }>(
    list: L,
    catalogue: ItemStore<T>,
    cursor: string | undefined,
    context: MessageContext,
    page: (
      after: string | undefined,
      visible: (handler: ServedHandler, item: ItemRequest) => Promise<boolean>,
    ) => Promise<Page<T>>,
  ): Promise<{ items: readonly ListedDefinitions[L][]; nextCursor: { nextCursor?: string } }> {
    const scope = `${list}\0${context.caller.cursorScope}`;
    const after = cursor === undefined ? undefined : this.cursors.open(cursor, scope);
    const revision = catalogue.servedItems();
    const deadline = this.clock.deadline(GUARD_DEADLINE_MS);
    const visible = (handler: ServedHandler, item: ItemRequest): Promise<boolean> =>
      this.visibility.isVisible(handler, item, context, deadline.passed, true);
    const result = await page(after, visible).finally(() => deadline.cancel());
    const definitions = result.page.map((item) => item.definition);
    // A list that changed while the guards ran is served as it was read, not kept: keeping it
    // would drop the pages already kept for the list as it is now.
    const current = catalogue.servedItems() === revision;
    return {
      items: current ? this.encodedPages[list].page(revision, after, definitions) : definitions,
      nextCursor: result.nextCursor === undefined ? {} : { nextCursor: this.cursors.seal(result.nextCursor, scope) },
    };
  }

  callTool(
    params: CallToolParams,
    context: MessageContext,
    requestId: RequestId,
  ): Promise<CallToolResult | InputRequiredResult | Readonly<Record<string, unknown>>> {
    return this.toolCaller.call(params, context, requestId);
  }

  async getTask(taskId: string, context: MessageContext): Promise<Record<string, unknown>> {
    this.tasksAllowed(Method.TasksGet, context);
    const task = await this.tasks.get(taskId, context.caller);
    return context.caller.era === 'modern' ? detailedTask(task) : legacyTask(task);
  }

  async updateTask(
    taskId: string,
    inputResponses: Record<string, unknown>,
    context: MessageContext,
  ): Promise<Record<string, unknown>> {
    this.tasksAllowed(Method.TasksUpdate, context);
    await this.tasks.update(taskId, context.caller, inputResponses);
    return {};
  }

  /**
   * 2026-07-28: an empty acknowledgement, a finished task included. 2025-11-25: the task, now
   * cancelled; -32602 for a finished one, as that revision prescribes.
   */
  async cancelTask(taskId: string, context: MessageContext): Promise<Record<string, unknown>> {
    this.tasksAllowed(Method.TasksCancel, context);
    const before = await this.tasks.cancel(taskId, context.caller);
    if (context.caller.era === 'modern') return {};
    if (isTerminalStatus(before.status)) {
      throw invalidParams(`Task ${taskId} cannot be cancelled: it is ${before.status} already`);
    }
    return legacyTask(await this.tasks.get(taskId, context.caller));
  }

  /** 2025-11-25: what the call would have answered, once the task has finished. */
  async taskResult(taskId: string, context: MessageContext, requestId: RequestId): Promise<Record<string, unknown>> {
    const { channel, session, caller } = context;
    // Cancelling the request, or its session's end, stops the wait.
    const controller = caller.beginCall(requestId);
    let task: TaskRecord;
    try {
      // The task's requests, progress and status go on this request's stream while it waits.
      task = await this.tasks.finished(taskId, caller, channel && session ? { channel, session } : undefined, {
        signal: controller.signal,
        requestId,
      });
    } finally {
      caller.endCall(requestId, controller);
    }
    if (task.status === 'failed' && task.error) {
      throw new JsonRpcError(task.error.code, task.error.message, task.error.data);
    }
    if (task.status !== 'completed' || !task.result) {
      throw invalidParams(`Task ${taskId} was cancelled: it has no result`);
    }
    const meta = (task.result._meta ?? {}) as Record<string, unknown>;
    return { ...task.result, _meta: { ...meta, [RELATED_TASK_META]: { taskId } } };
  }

  /** 2025-11-25: the caller's tasks, oldest first, in pages sealed to the caller. */
  async listTasks(cursor: string | undefined, context: MessageContext): Promise<Record<string, unknown>> {
    const scope = `tasks\0${context.caller.cursorScope}`;
    const after = cursor === undefined ? undefined : this.cursors.open(cursor, scope);
    const { tasks, more } = await this.tasks.list(context.caller, after, this.pageSize);
    const last = tasks.at(-1);
    return {
      tasks: tasks.map(legacyTask),
      ...(more && last ? { nextCursor: this.cursors.seal(last.taskId, scope) } : {}),
    };
  }

  /** 2026-07-28: the tasks methods are the extension's, for requests that declare it (-32021 otherwise). */
  private tasksAllowed(method: string, context: MessageContext): void {
    if (context.caller.era === 'modern' && !declaresTasksExtension(context.caller.clientCapabilities)) {
      throw tasksExtensionRequired(method);
    }
  }

  // The methods and notifications below are the legacy era's: only session requests reach them
  // (the modern era has no notification over HTTP, where closing a stream is the cancellation).

  onInitialized({ session }: MessageContext): void {
    session?.markInitialized();
  }

  setLoggingLevel(level: LoggingLevel, { session }: MessageContext): void {
    session?.setLogLevel(level);
  }

  onCancelled(params: CancelledNotificationParams, { session }: MessageContext): void {
    // Unknown and finished ids are ignored, as the specification says: the cancellation crossed the answer.
    if (
      session &&
      !session.cancelCall(params.requestId, params.reason) &&
      !this.sessions.routeCancel(session, params.requestId, params.reason)
    ) {
      this.logger.debug(`Cancellation of ${JSON.stringify(params.requestId)} ignored: no such call is running`);
    }
  }

  onRootsListChanged({ session }: MessageContext): void {
    if (session) this.sessions.reportRootsChanged(session);
  }

  onResponse(response: JsonRpcResponse, { session }: MessageContext): void {
    if (session && !session.settleClientRequest(response) && !this.sessions.routeResponse(session, response)) {
      this.logger.debug(`Answer ${JSON.stringify(response.id)} ignored: no request of this session waits for it`);
    }
  }

  reportError(error: unknown, method: string): void {
    this.logger.error(`Handling ${method} failed`, error instanceof Error ? error.stack : String(error));
  }

  /**
   * The modern era as this server sends it: every result carries `resultType` and the server's
   * identity, cacheable ones the caching hints of what served them.
   */
  private modernEra(description: ServerDescription): DispatchEra<MessageContext> {
    const { serverInfo } = description;
    return {
      methods: MODERN_METHODS,
      notifications: MODERN_NOTIFICATIONS,
      admit: admitModernParams,
      finish: (method, result, context) =>
        finishModernResult(result, serverInfo, CACHEABLE_METHODS.has(method) ? context.cacheHint : undefined),
      mapError: modernError,
    };
  }
}

/**
 * What a 2025 client is told without sessions: nothing could deliver a `list_changed` or a resource
 * update to it, so neither is announced.
 */
function withoutSessionCapabilities(description: ServerDescription): ServerDescription {
  return Object.freeze({
    ...description,
    capabilities: Object.freeze({
      tools: Object.freeze({}),
      resources: Object.freeze({}),
      prompts: Object.freeze({}),
      completions: Object.freeze({}),
      logging: Object.freeze({}),
    }),
  });
}

/**
 * What a 2025 client is told at `initialize`, worked out then: the tasks capability is there while a
 * served tool supports tasks (tools come and go at run time).
 */
function withTasks(description: ServerDescription, served: ServedCapabilities): ServerDescription {
  const base = description.capabilities;
  return Object.freeze({
    ...description,
    get capabilities(): ServerCapabilities {
      return served.legacy(base);
    },
  });
}

function describeServer(options: ResolvedMcpOptions): ServerDescription {
  return Object.freeze({
    serverInfo: Object.freeze({
      name: options.name,
      version: options.version,
      ...(options.title === undefined ? {} : { title: options.title }),
    }),
    capabilities: Object.freeze({
      tools: Object.freeze({ listChanged: true }),
      resources: Object.freeze({ subscribe: true, listChanged: true }),
      prompts: Object.freeze({ listChanged: true }),
      completions: Object.freeze({}),
      logging: Object.freeze({}),
    }),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });
}
