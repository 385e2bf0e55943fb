import { isPlainObject, isRequestId, successResponse } from './json-rpc.codec.js';
import {
  errorResponse,
  internalError,
  invalidParams,
  invalidRequest,
  JsonRpcError,
  methodNotFound,
} from './json-rpc.errors.js';
import type {
  JsonRpcNotification,
  JsonRpcParams,
  JsonRpcRequest,
  JsonRpcResponse,
  RequestId,
} from './json-rpc.types.js';
import { acceptInitialize, type Handshake, type ServerDescription } from './initialize.js';
import { Method } from './methods.js';
import { isLoggingLevel, type LoggingLevel } from './logging-level.js';
import type {
  CallToolParams,
  CallToolResult,
  CancelledNotificationParams,
  CompleteParams,
  CompleteResult,
  GetPromptParams,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
  ResourceUriParams,
  DiscoverResult,
  InputRequiredResult,
  SubscriptionFilter,
} from './mcp.types.js';
import { readCompleteParams } from './completion-params.js';
import { readGetPromptParams } from './prompt-params.js';
import { readResourceUriParams } from './resource-params.js';
import { readSubscriptionFilter } from './subscription-filter.js';
import { readTaskId, readTaskUpdate } from './tasks.js';

/**
 * What the dispatcher needs from the server around it. `C` is the caller's per-message context
 * (session, request, signal...), opaque here: the dispatcher never assumes a session exists, so a
 * stateless transport can use it too.
 */
export interface DispatcherPort<C> {
  listTools(cursor: string | undefined, context: C): ListToolsResult | Promise<ListToolsResult>;
  /** `tools/call`: the result, an MRTR interim result, or a task made for it (its era's shape). */
  callTool(
    params: CallToolParams,
    context: C,
    requestId: RequestId,
  ): Promise<CallToolResult | InputRequiredResult | Readonly<Record<string, unknown>>>;
  /** `resources/list`; without it (as for every optional method below) the method is not found. */
  listResources?(cursor: string | undefined, context: C): Promise<ListResourcesResult>;
  listResourceTemplates?(cursor: string | undefined, context: C): Promise<ListResourceTemplatesResult>;
  readResource?(
    params: ResourceUriParams,
    context: C,
    requestId: RequestId,
  ): Promise<ReadResourceResult | InputRequiredResult>;
  subscribeResource?(params: ResourceUriParams, context: C, requestId: RequestId): Promise<void>;
  unsubscribeResource?(params: ResourceUriParams, context: C): void | Promise<void>;
  listPrompts?(cursor: string | undefined, context: C): Promise<ListPromptsResult>;
  getPrompt?(params: GetPromptParams, context: C, requestId: RequestId): Promise<GetPromptResult | InputRequiredResult>;
  complete?(params: CompleteParams, context: C, requestId: RequestId): Promise<CompleteResult>;
  /** `server/discover` (2026-07-28): the versions spoken, the capabilities served, the instructions. */
  discover?(context: C): DiscoverResult | Promise<DiscoverResult>;
  /**
   * `subscriptions/listen` (2026-07-28): streams the change notifications `filter` asks for until the
   * server ends the subscription (its result then closes it) or the client goes away.
   */
  listen?(filter: SubscriptionFilter, context: C, requestId: RequestId): Promise<Record<string, unknown>>;
  /** `tasks/get`: the task's state as the request's era shows it. */
  getTask?(taskId: string, context: C): Promise<Record<string, unknown>>;
  /** `tasks/update` (2026-07-28): the client's answers to what the task asks. */
  updateTask?(taskId: string, inputResponses: Record<string, unknown>, context: C): Promise<Record<string, unknown>>;
  /** `tasks/cancel`. */
  cancelTask?(taskId: string, context: C): Promise<Record<string, unknown>>;
  /** `tasks/result` (2025-11-25): waits for the task to finish, answers what the call would have. */
  taskResult?(taskId: string, context: C, requestId: RequestId): Promise<Record<string, unknown>>;
  /** `tasks/list` (2025-11-25): the caller's tasks, one page. */
  listTasks?(cursor: string | undefined, context: C): Promise<Record<string, unknown>>;
  onInitialized?(context: C): void;
  /** Sets the client's log threshold (`logging/setLevel`); without it the method is not found. */
  setLoggingLevel?(level: LoggingLevel, context: C): void;
  /** The client cancelled one of its requests (`notifications/cancelled`, params already checked). */
  onCancelled?(params: CancelledNotificationParams, context: C): void;
  /** The client's roots changed (`notifications/roots/list_changed`). */
  onRootsListChanged?(context: C): void;
  /** The client answered a request the server sent it. */
  onResponse?(response: JsonRpcResponse, context: C): void;
  /** Receives every error a handler threw that is not a {@link JsonRpcError}, before it is answered as -32603. */
  reportError(error: unknown, method: string): void;
}

type RequestHandler<C> = (params: JsonRpcParams, context: C, id: RequestId) => unknown;

/**
 * What differs between the eras for the dispatcher (see `legacy-era.ts` and `modern-era.ts`):
 * which methods exist, what a request must pass before it is routed, and what results carry.
 */
export interface DispatchEra<C> {
  /** The methods of the era; the port must implement one too for it to be found. */
  readonly methods: ReadonlySet<string>;
  /** The notifications of the era; others are ignored. */
  readonly notifications: ReadonlySet<string>;
  /** Refuses a request before it is routed by throwing a {@link JsonRpcError}. */
  readonly admit?: (request: JsonRpcRequest, context: C) => void;
  /** A handler's result as the era sends it. */
  readonly finish?: (method: string, result: Record<string, unknown>, context: C) => Record<string, unknown>;
  /** An error as the era sends it (2026-07-28 has no -32002: a resource not found is -32602). */
  readonly mapError?: (error: JsonRpcError) => JsonRpcError;
}

/** The outcome of an `initialize` request: the response, and the handshake when it was accepted. */
export interface InitializeOutcome {
  readonly response: JsonRpcResponse;
  readonly handshake?: Handshake;
}

const EMPTY_PARAMS: JsonRpcParams = Object.freeze({});

/**
 * Thrown by a handler whose request the client cancelled: the specification forbids answering it,
 * so the dispatcher produces no response at all.
 */
export class RequestCancelledError extends Error {
  constructor(readonly requestId: RequestId) {
    super(`request ${JSON.stringify(requestId)} was cancelled by the client`);
    this.name = 'RequestCancelledError';
  }
}

/**
 * Routes JSON-RPC messages to MCP method handlers and turns every outcome into a response.
 * Pure: no I/O, no framework; all effects go through the {@link DispatcherPort}.
 */
export class Dispatcher<C> {
  private readonly methods: ReadonlyMap<string, RequestHandler<C>>;

  constructor(
    private readonly server: ServerDescription,
    private readonly port: DispatcherPort<C>,
    private readonly era: DispatchEra<C>,
  ) {
    const methods = new Map<string, RequestHandler<C>>([
      [Method.Ping, () => ({})],
      [Method.ToolsList, (params, context) => this.port.listTools(readCursor(params), context)],
      [Method.ToolsCall, (params, context, id) => this.port.callTool(readCallToolParams(params), context, id)],
    ]);
    const { port: p } = this;
    const routes: [string, boolean, RequestHandler<C>][] = [
      [
        Method.LoggingSetLevel,
        p.setLoggingLevel !== undefined,
        (params, context) => {
          p.setLoggingLevel!(readLoggingLevel(params), context);
          return {};
        },
      ],
      [
        Method.ResourcesList,
        p.listResources !== undefined,
        (params, context) => p.listResources!(readCursor(params), context),
      ],
      [
        Method.ResourceTemplatesList,
        p.listResourceTemplates !== undefined,
        (params, context) => p.listResourceTemplates!(readCursor(params), context),
      ],
      [
        Method.ResourcesRead,
        p.readResource !== undefined,
        (params, context, id) => p.readResource!(readResourceUriParams(params), context, id),
      ],
      [
        Method.ResourcesSubscribe,
        p.subscribeResource !== undefined,
        async (params, context, id) => {
          await p.subscribeResource!(readResourceUriParams(params), context, id);
          return {};
        },
      ],
      [
        Method.ResourcesUnsubscribe,
        p.unsubscribeResource !== undefined,
        async (params, context) => {
          await p.unsubscribeResource!(readResourceUriParams(params), context);
          return {};
        },
      ],
      [
        Method.PromptsList,
        p.listPrompts !== undefined,
        (params, context) => p.listPrompts!(readCursor(params), context),
      ],
      [
        Method.PromptsGet,
        p.getPrompt !== undefined,
        (params, context, id) => p.getPrompt!(readGetPromptParams(params), context, id),
      ],
      [
        Method.CompletionComplete,
        p.complete !== undefined,
        (params, context, id) => p.complete!(readCompleteParams(params), context, id),
      ],
      [Method.ServerDiscover, p.discover !== undefined, (_params, context) => p.discover!(context)],
      [Method.TasksGet, p.getTask !== undefined, (params, context) => p.getTask!(readTaskId(params), context)],
      [
        Method.TasksUpdate,
        p.updateTask !== undefined,
        (params, context) => {
          const { taskId, inputResponses } = readTaskUpdate(params);
          return p.updateTask!(taskId, inputResponses, context);
        },
      ],
      [Method.TasksCancel, p.cancelTask !== undefined, (params, context) => p.cancelTask!(readTaskId(params), context)],
      [
        Method.TasksResult,
        p.taskResult !== undefined,
        (params, context, id) => p.taskResult!(readTaskId(params), context, id),
      ],
      [Method.TasksList, p.listTasks !== undefined, (params, context) => p.listTasks!(readCursor(params), context)],
      [
        Method.SubscriptionsListen,
        p.listen !== undefined,
        (params, context, id) => p.listen!(readSubscriptionFilter(params), context, id),
      ],
    ];
    // A method the port does not implement is not found, rather than answered by a stub.
    for (const [method, implemented, handler] of routes) if (implemented) methods.set(method, handler);
    for (const method of [...methods.keys()]) if (!era.methods.has(method)) methods.delete(method);
    this.methods = methods;
  }

  /** Accepts or refuses an `initialize` request; creating the session is the caller's job. */
  initialize(request: JsonRpcRequest): InitializeOutcome {
    try {
      const handshake = acceptInitialize(request.params, this.server);
      return { response: successResponse(request.id, handshake.result), handshake };
    } catch (error) {
      return { response: this.toErrorResponse(request, error) };
    }
  }

  /**
   * Answers one request. Never rejects: every failure becomes an error response.
   * @returns `undefined` when the client cancelled the request: it must not be answered.
   */
  async handleRequest(request: JsonRpcRequest, context: C): Promise<JsonRpcResponse | undefined> {
    if (request.method === Method.Initialize) {
      return errorResponse(request.id, invalidRequest('initialize must be sent alone, without a session'));
    }
    const handler = this.methods.get(request.method);
    if (!handler) return errorResponse(request.id, methodNotFound(request.method));
    try {
      this.era.admit?.(request, context);
      // Every MCP result is an object; a handler that returns nothing must not produce a response without `result`.
      const result = ((await handler(request.params ?? EMPTY_PARAMS, context, request.id)) ?? {}) as Record<
        string,
        unknown
      >;
      const { finish } = this.era;
      return successResponse(request.id, finish ? finish(request.method, result, context) : result);
    } catch (error) {
      if (error instanceof RequestCancelledError) return undefined;
      return this.toErrorResponse(request, error);
    }
  }

  /**
   * Handles a notification. Unknown notifications, and known ones with malformed params, are
   * ignored: a notification cannot be answered, not even with an error.
   */
  handleNotification(notification: JsonRpcNotification, context: C): void {
    if (!this.era.notifications.has(notification.method)) return;
    try {
      switch (notification.method) {
        case Method.Initialized:
          this.port.onInitialized?.(context);
          break;
        case Method.Cancelled: {
          const params = readCancelledParams(notification.params);
          if (params) this.port.onCancelled?.(params, context);
          break;
        }
        case Method.RootsListChanged:
          this.port.onRootsListChanged?.(context);
          break;
      }
    } catch (error) {
      this.report(error, notification.method);
    }
  }

  /** Hands the client's answer to a server-initiated request to whoever waits for it. */
  handleResponse(response: JsonRpcResponse, context: C): void {
    try {
      this.port.onResponse?.(response, context);
    } catch (error) {
      this.report(error, 'response');
    }
  }

  private toErrorResponse(request: JsonRpcRequest, error: unknown): JsonRpcResponse {
    if (error instanceof JsonRpcError) return errorResponse(request.id, this.era.mapError?.(error) ?? error);
    this.report(error, request.method);
    return errorResponse(request.id, internalError());
  }

  /** Reporting must not become a second failure: a throwing logger would otherwise lose the response. */
  private report(error: unknown, method: string): void {
    try {
      this.port.reportError(error, method);
    } catch {
      // Nothing better to do with it; the client still gets its error response.
    }
  }
}

function readCursor(params: JsonRpcParams): string | undefined {
  const { cursor } = params;
  if (cursor === undefined) return undefined;
  if (typeof cursor !== 'string') throw invalidParams('cursor must be a string');
  return cursor;
}

function readLoggingLevel(params: JsonRpcParams): LoggingLevel {
  if (!isLoggingLevel(params.level)) {
    throw invalidParams('level must be one of debug, info, notice, warning, error, critical, alert, emergency');
  }
  return params.level;
}

/** The params of a `notifications/cancelled`, or `undefined` when malformed (the notification is then ignored). */
export function readCancelledParams(params: JsonRpcParams | undefined): CancelledNotificationParams | undefined {
  if (!params || !isRequestId(params.requestId)) return undefined;
  return typeof params.reason === 'string'
    ? { requestId: params.requestId, reason: params.reason }
    : { requestId: params.requestId };
}

function readCallToolParams(params: JsonRpcParams): CallToolParams {
  if (typeof params.name !== 'string' || params.name.length === 0) {
    throw invalidParams('tools/call needs a tool name');
  }
  if (params.arguments !== undefined && !isPlainObject(params.arguments)) {
    throw invalidParams('arguments must be an object');
  }
  return params as unknown as CallToolParams;
}
