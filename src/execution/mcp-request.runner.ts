import { HttpException, Inject, Injectable, IntrinsicException, Logger } from '@nestjs/common';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { RequestCancelledError } from '../protocol/dispatcher.js';
import { ErrorCode, internalError, invalidParams, invalidRequest, JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { Meta } from '../protocol/mcp.types.js';
import { McpSchemas } from '../schemas/mcp-schemas.js';
import type { McpCallContext } from './mcp-call-context.js';
import { ToolCallContext, type ToolCallSettings } from './handler-context.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import { executionArgs, type McpInvocation, type McpItemKind } from './mcp-invocation.js';
import type { PipelineTarget } from './pipeline-target.js';
import { ABORTED, untilAborted } from './until-aborted.js';

/** An item served behind a Nest pipeline: a tool, a resource, a template, a prompt, a completer. */
export interface ServedHandler {
  /** `Class.method` (or a runtime label), for messages and logs. */
  readonly owner: string;
  /** Milliseconds a request may run before it is answered with an error. */
  readonly timeoutMs?: number;
  /** The handler behind its pipeline, for the caller of one HTTP request. */
  readonly target: (request: unknown) => PipelineTarget | Promise<PipelineTarget>;
}

/** What one request of an item is: enough to build its invocation. */
export interface ItemRequest {
  readonly kind: McpItemKind;
  readonly name: string;
  readonly uri?: string;
}

/** What the work of {@link McpRequestRunner.run} gets: its context, and how to say the caller was admitted. */
export interface RunState {
  readonly context: ToolCallContext;
  /** The caller may use `item`: from now on its `timeoutMs` runs, and a timeout names it. */
  admit(item: ItemRequest, timeoutMs: number | undefined): void;
}

/** How long one request waits for an item's guards before treating them as a denial. */
export const GUARD_DEADLINE_MS = 10_000;

/** A promise that settles after {@link GUARD_DEADLINE_MS} (or `shorterMs`), and the way to drop its timer. */
function guardDeadline(shorterMs?: number): { promise: Promise<void>; cancel: () => void } {
  let timer: NodeJS.Timeout | undefined;
  const promise = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.min(GUARD_DEADLINE_MS, shorterMs ?? GUARD_DEADLINE_MS));
    timer.unref();
  });
  return { promise, cancel: () => clearTimeout(timer) };
}

/** What happened in {@link McpRequestRunner.execute}: denied by the guards, or the handler's value. */
export type Execution = { readonly denied: true } | { readonly denied: false; readonly value: unknown };

/**
 * Runs the MCP requests that are not tool calls (`resources/read`, `prompts/get`,
 * `completion/complete`) through their handler's Nest pipeline, as cancellable calls of the
 * session: `notifications/cancelled`, the item's `timeoutMs` and the end of the session stop the
 * wait, and the handler gets an {@link McpContext} (progress, logs, requests to the client).
 *
 * Unlike tool failures, which are results a model reads, these failures are JSON-RPC errors:
 * a {@link JsonRpcError} the handler throws is answered as it is, an `HttpException` below 500
 * becomes -32602 with its message (a `NotFoundException` from a resource: -32002), anything else is
 * logged and answered -32603 without details.
 *
 * Also answers, for every kind of item, whether a caller may see it: its guards, asked once per
 * listing with one deadline, so a guard that never settles hides its item instead of hanging the list.
 */
@Injectable()
export class McpRequestRunner {
  /** One logger per kind of item, named as users filter logs: `McpTools`, `McpResources`... */
  private readonly loggers: Record<McpItemKind, Logger> = {
    tool: new Logger('McpTools'),
    resource: new Logger('McpResources'),
    resourceTemplate: new Logger('McpResources'),
    prompt: new Logger('McpPrompts'),
    completion: new Logger('McpCompletions'),
  };
  private readonly settings: Omit<ToolCallSettings, 'logger'>;
  private readonly scopesOf: ResolvedMcpOptions['scopesOf'];

  constructor(@Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions, schemas: McpSchemas) {
    this.settings = {
      clientRequestTimeoutMs: options.clientRequestTimeoutMs,
      validators: schemas.validators,
    };
    this.scopesOf = options.scopesOf;
  }

  /** The invocation guards, interceptors and parameter decorators see. */
  invocation(
    phase: McpInvocation['phase'],
    item: ItemRequest,
    call: McpCallContext,
    args: object | undefined,
    context: McpContext | undefined,
  ): McpInvocation {
    const { scopesOf } = this;
    const request = call.httpRequest;
    return {
      phase,
      kind: item.kind,
      name: item.name,
      ...(item.uri === undefined ? {} : { uri: item.uri }),
      arguments: args,
      context,
      session: call.session,
      request,
      grantedScopes: () => scopesOf((request as { user?: unknown } | undefined)?.user),
    };
  }

  /**
   * Whether the caller of `call` may see `handler`'s item (its guards let it through).
   * @param deadline settles when the listing has waited long enough: one timer per listing, not per item.
   */
  async isVisible(
    handler: ServedHandler,
    item: ItemRequest,
    call: McpCallContext,
    deadline?: Promise<void>,
  ): Promise<boolean> {
    try {
      const target = await handler.target(call.httpRequest);
      const verdict = target.canActivate(executionArgs(this.invocation('list', item, call, undefined, undefined)));
      if (!deadline) return await verdict;
      let answered = false;
      const settled = verdict.finally(() => (answered = true));
      const late = deadline.then(() => {
        if (!answered)
          this.loggers[item.kind].error(`The guards of ${describe(item)} did not answer in time; it is left out`);
        return false;
      });
      return await Promise.race([settled, late]);
    } catch (error) {
      // A request-scoped provider that cannot be built hides its items; the rest of the list is served.
      this.loggers[item.kind].error(
        `${describe(item)} (${handler.owner}) could not be prepared for listing; it is left out`,
        error instanceof Error ? error.stack : String(error),
      );
      return false;
    }
  }

  /**
   * Runs `work` as a call of the session under `requestId`: cancellable, and ended with the
   * session; `work` gets the {@link McpContext} and starts the item's timeout once the caller is
   * admitted (see {@link execute}), so that the timeout of an item the caller may not see never
   * tells it apart from one that does not exist.
   * @param item names the request in logs (and is the context's `toolName`).
   * @throws RequestCancelledError when the client cancelled it (no answer at all), JsonRpcError otherwise.
   */
  async run<R>(
    requestId: RequestId,
    call: McpCallContext,
    item: ItemRequest & { readonly meta?: Meta },
    work: (state: RunState) => Promise<R>,
  ): Promise<R> {
    const { session } = call;
    if (session.isRunning(requestId)) {
      throw invalidRequest(`request id ${JSON.stringify(requestId)} is already in use by a running request`);
    }
    const controller = session.beginCall(requestId);
    const { signal } = controller;
    let timer: NodeJS.Timeout | undefined;
    let admitted: ItemRequest | undefined;
    let finished = false;
    const context = new ToolCallContext(call, requestId, item.name, item.meta, signal, {
      ...this.settings,
      logger: this.loggers[item.kind],
    });
    const state: RunState = {
      context,
      admit: (admittedItem, timeoutMs) => {
        // Work left running after its request was answered (cancelled, session ended) starts nothing.
        if (finished || signal.aborted) return;
        admitted = admittedItem;
        if (admittedItem.kind !== 'completion') context.rename(admittedItem.name);
        if (timeoutMs !== undefined && !timer) timer = startTimeout(controller, timeoutMs);
      },
    };
    try {
      const outcome = await untilAborted(
        () => work(state),
        signal,
        (late) =>
          this.loggers[item.kind].debug(`${describe(item)} failed after its request was aborted: ${String(late)}`),
      );
      if (outcome === ABORTED || signal.aborted) throw this.aborted(admitted ?? item, requestId, signal);
      return outcome as R;
    } finally {
      finished = true;
      context.finish();
      if (timer) clearTimeout(timer);
      session.endCall(requestId, controller);
    }
  }

  /**
   * Asks the guards of `handler` (bounded by {@link GUARD_DEADLINE_MS} and the item's `timeoutMs`:
   * past either, they deny), then runs its pipeline with `args`; admitting the caller starts
   * `timeoutMs` again, for the handler.
   * @returns `{ denied: true }` when a guard denies, does not answer in time, or the handler's
   *   provider cannot be built for this caller: the caller answers as if the item did not exist.
   */
  async execute(
    handler: ServedHandler,
    item: ItemRequest,
    call: McpCallContext,
    args: () => Promise<object> | object,
    state: RunState,
    raw?: object,
  ): Promise<Execution> {
    const { context } = state;
    let target: PipelineTarget;
    try {
      target = await handler.target(call.httpRequest);
    } catch (error) {
      // As in listings: a request-scoped provider that cannot be built for this caller hides its items.
      this.loggers[item.kind].error(
        `${describe(item)} (${handler.owner}) could not be prepared; answered as not found`,
        error instanceof Error ? error.stack : String(error),
      );
      return { denied: true };
    }
    // Guards see the context of the item they guard (a resource read learns its item here).
    if (item.kind !== 'completion') context.rename(item.name);
    // Guards see the arguments as sent, before validation, as a tool's guards do.
    const invocation = this.invocation('call', item, call, raw, context);
    if (!(await this.admits(target, invocation, item, handler.timeoutMs))) {
      this.loggers[item.kind].debug(`${describe(item)} denied by its guards`);
      return { denied: true };
    }
    stopIfAborted(context.signal);
    state.admit(item, handler.timeoutMs);
    const checked = await args();
    stopIfAborted(context.signal);
    try {
      return { denied: false, value: await target.execute(executionArgs({ ...invocation, arguments: checked })) };
    } catch (error) {
      throw this.failure(handler.owner, item, error, target.reportsErrors);
    }
  }

  /** Whether the guards of one item admit the caller, waiting at most {@link GUARD_DEADLINE_MS}. */
  async isAdmitted(handler: ServedHandler, item: ItemRequest, call: McpCallContext): Promise<boolean> {
    const { promise, cancel } = guardDeadline();
    try {
      return await this.isVisible(handler, item, call, promise);
    } finally {
      cancel();
    }
  }

  /**
   * Whether the guards admit the caller, within {@link GUARD_DEADLINE_MS} or the item's own
   * `timeoutMs` if shorter: guards that take longer deny, so the timeout of an item the caller may
   * not see is answered as for an item that does not exist.
   */
  private async admits(
    target: PipelineTarget,
    invocation: McpInvocation,
    item: ItemRequest,
    timeoutMs: number | undefined,
  ): Promise<boolean> {
    const { promise, cancel } = guardDeadline(timeoutMs);
    let answered = false;
    try {
      return await Promise.race([
        target.canActivate(executionArgs(invocation)).finally(() => (answered = true)),
        promise.then(() => {
          if (!answered) this.loggers[item.kind].error(`The guards of ${describe(item)} did not answer in time`);
          return false;
        }),
      ]);
    } finally {
      cancel();
    }
  }

  /** The JSON-RPC error a failure of a handler becomes. */
  failure(owner: string, item: ItemRequest, error: unknown, reported: boolean): unknown {
    if (error instanceof JsonRpcError || error instanceof RequestCancelledError) return error;
    if (error instanceof McpCallAbortedError) return error;
    if (error instanceof HttpException && error.getStatus() < 500) {
      const isResource = item.kind === 'resource' || item.kind === 'resourceTemplate';
      if (error.getStatus() === 404 && isResource && item.uri !== undefined) return resourceNotFound(item.uri);
      return invalidParams(`${describe(item)}: ${httpExceptionMessage(error)}`);
    }
    const log = `${describe(item)} (${owner}) failed; answered with an internal error`;
    const logger = this.loggers[item.kind];
    if (reported && error instanceof Error && !(error instanceof IntrinsicException)) logger.error(log);
    else logger.error(log, error instanceof Error ? error.stack : String(error));
    return internalError();
  }

  private aborted(item: ItemRequest, requestId: RequestId, signal: AbortSignal): Error {
    const reason: unknown = signal.reason;
    const kind = reason instanceof McpCallAbortedError ? reason.kind : undefined;
    this.loggers[item.kind].debug(`${describe(item)} stopped: ${String(reason)}`);
    if (kind === 'cancelled') return new RequestCancelledError(requestId);
    if (kind === 'timeout') return new JsonRpcError(ErrorCode.RequestTimeout, `${describe(item)} timed out`);
    return internalError();
  }
}

const KIND_NAMES: Record<McpItemKind, string> = {
  tool: 'Tool',
  resource: 'Resource',
  resourceTemplate: 'Resource template',
  prompt: 'Prompt',
  completion: 'Completion of',
};

/** `Tool forecast`, `Prompt forecast_summary`, `Completion of forecast_summary`, for messages. */
function describe(item: ItemRequest): string {
  return `${KIND_NAMES[item.kind]} ${item.name}`;
}

/**
 * Ends work whose request was answered already (cancelled, timed out, session ended): it must not go
 * on, nor be mapped and logged as a failure. `run` has answered; the rejection stays in its debug log.
 */
function stopIfAborted(signal: AbortSignal): void {
  if (signal.aborted) throw signal.reason;
}

/** -32002, with the URI in `data` as the specification shows it. */
export function resourceNotFound(uri: string): JsonRpcError {
  return new JsonRpcError(ErrorCode.ResourceNotFound, 'Resource not found', { uri });
}

/** The message of an `HttpException`, as a client may read it. */
export function httpExceptionMessage(error: HttpException): string {
  const response = error.getResponse();
  if (typeof response === 'string') return response;
  const message = (response as { message?: unknown }).message;
  if (Array.isArray(message)) return message.map(String).join('; ');
  return typeof message === 'string' ? message : error.message;
}

function startTimeout(controller: AbortController, timeoutMs: number): NodeJS.Timeout {
  const timer = setTimeout(() => {
    controller.abort(new McpCallAbortedError('timeout', `Timed out after ${timeoutMs} ms`));
  }, timeoutMs);
  timer.unref();
  return timer;
}
