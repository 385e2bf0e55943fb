import { randomUUID } from 'node:crypto';
import { Inject, Injectable, Logger, Optional, type OnModuleDestroy, type OnModuleInit } from '@nestjs/common';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import type { Caller } from '../interfaces/caller.interface.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import type { MessageContext, TaskInputPort } from '../execution/message-context.js';
import { RequestCancelledError } from '../protocol/dispatcher.js';
import { ErrorCode, internalError, JsonRpcError, serverError } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { InputRequest } from '../protocol/mcp.types.js';
import { isTerminalStatus, unknownTask } from '../protocol/tasks.js';
import { SharedSessions } from '../session/shared-sessions.js';
import { InMemoryTaskStore } from './in-memory-task-store.js';
import { SharedTaskStore } from './shared-task-store.js';
import { SharedTasks } from './shared-tasks.js';
import { TaskCaller } from './task-caller.js';
import type { TaskRecord } from './task-record.js';
import type { TaskInputBounds } from './task-input-bounds.js';
import { TaskRun } from './task-run.js';
import { LegacyTaskLink } from './legacy-task-link.js';
import type { CallChannel } from '../execution/call-channel.js';
import type { ClientSession } from '../session/client-session.js';
import type { TaskCaps, TaskStore } from './task-store.js';

/**
 * A 2025-11-25 task without a session (`sessions.enabled: false`) has no stream to ask its client
 * on: a handler's request in such a task fails, saying so.
 */
const NO_SESSION_TASK_INPUT: TaskInputPort = {
  ask: (method) =>
    Promise.reject(
      new McpClientRequestError(
        `${method} cannot be sent from this task: a 2025-11-25 task asks its client on a session's streams (sessions.enabled: false)`,
        ErrorCode.InvalidRequest,
      ),
    ),
};

/** Told of every change of a task's record (the new record). */
export type TaskWatcher = (task: TaskRecord) => void;

/** What a task's call answers: the tool's result (`isError` ones included). */
export type TaskOutcome = Record<string, unknown>;

/**
 * Runs the call of a task: the same call lifecycle as a plain call, with the task's own context.
 * Resolves with the result; rejects with a {@link JsonRpcError} (the task fails with it) or
 * {@link RequestCancelledError} (it was cancelled).
 */
export type TaskWork = (call: MessageContext) => Promise<TaskOutcome>;

/**
 * The tasks of one server (both eras): creates them within the caps, runs their calls detached
 * from the request that made them, keeps their status, input requests, result or error in the
 * {@link TaskStore} until their TTL, and serves the tasks methods, each task visible to its owner only.
 */
@Injectable()
export class TaskService implements OnModuleInit, OnModuleDestroy {
  private readonly logger = new Logger('McpTasks');
  private readonly store: TaskStore;
  private readonly caps: TaskCaps;
  private readonly settings: ResolvedMcpOptions['tasks'];
  /** What a task's pending inputs may hold: they wait for the client as an outbox's messages do. */
  private readonly inputBounds: TaskInputBounds;
  /** Tasks running in this process. */
  private readonly runs = new Map<
    string,
    { readonly run: TaskRun; readonly expiry: NodeJS.Timeout; readonly link?: LegacyTaskLink }
  >();
  /** Who is told of every task's changes (`subscriptions/listen` streams). */
  private readonly watchers = new Set<TaskWatcher>();
  private readonly clientRequestTimeoutMs: number;
  /** `tasks/result` calls waiting for a task of this process to finish. */
  private readonly waiters = new Map<string, Set<(task: TaskRecord | undefined) => void>>();

  /** Tasks across instances, with `state.shared`: messages to the instance running a task, lost instances. */
  private readonly shared: SharedTasks | undefined;

  constructor(@Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions, @Optional() sessions?: SharedSessions) {
    this.settings = options.tasks;
    this.inputBounds = { messages: options.limits.outboxMessages, chars: options.limits.outboxChars };
    this.clientRequestTimeoutMs = options.sessions.clientRequestTimeoutMs;
    this.caps = {
      perOwner: options.tasks.maxPerPrincipal,
      total: options.tasks.maxTasks,
      maxTtlMs: options.tasks.maxTtlMs,
    };
    const port = sessions?.shared;
    this.store = port ? new SharedTaskStore(port) : new InMemoryTaskStore();
    this.shared = sessions && port ? new SharedTasks(sessions, this.store) : undefined;
  }

  onModuleInit(): void {
    this.shared?.start({
      answer: (taskId, responses) => this.runs.get(taskId)?.run.answer(responses),
      abort: (taskId) => this.abortRun(taskId),
    });
  }

  /** Who a task of this caller belongs to: its principal, else its 2025 session, else nobody in particular. */
  ownerOf(caller: Caller): string {
    if (caller.principal !== undefined) return `principal:${caller.principal}`;
    if (caller.session) return `session:${caller.session.id}`;
    return 'anonymous';
  }

  /**
   * Creates a task for a call and starts its work, detached from the request.
   * @param ttlMs the TTL the client asked for (2025-11-25), cut to `tasks.maxTtlMs`.
   * @param carried answers the request carried, for what the handler asked before `ctx.startTask()`.
   * @param progressToken the call's own (2025-11-25): the task's progress goes to the client under it.
   * @returns the task as created: a `tasks/get` for it resolves already.
   * @throws JsonRpcError -32000 when the caller's or the server's cap on tasks is reached.
   */
  async start(
    call: MessageContext,
    tool: string,
    ttlMs: number | undefined,
    work: TaskWork,
    carried?: Readonly<Record<string, unknown>>,
    progressToken?: string | number,
  ): Promise<TaskRecord> {
    const now = Date.now();
    const ttl = Math.min(ttlMs ?? this.settings.defaultTtlMs, this.settings.maxTtlMs);
    const record: TaskRecord = {
      taskId: randomUUID(),
      owner: this.ownerOf(call.caller),
      era: call.caller.era,
      tool,
      status: 'working',
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs: ttl,
      pollIntervalMs: this.settings.pollIntervalMs,
      expiresAt: now + ttl,
      ...(this.shared ? { replica: this.shared.replicaId } : {}),
    };
    const refusal = await this.store.create(record, this.caps);
    if (refusal === 'owner-full') {
      throw serverError(
        `Too many unfinished tasks for this caller (tasks.maxPerPrincipal = ${this.caps.perOwner}); retry once one finishes`,
      );
    }
    if (refusal === 'full') {
      throw serverError(`Too many tasks on this server (tasks.maxTasks = ${this.caps.total}); retry later`);
    }
    this.launch(record, call, work, carried, progressToken);
    return record;
  }

  /**
   * The caller's task.
   * @throws JsonRpcError -32602 for a task that does not exist, expired, is another caller's or another era's.
   */
  async get(taskId: string, caller: Caller): Promise<TaskRecord> {
    const task = await this.store.get(taskId);
    if (!task || task.owner !== this.ownerOf(caller) || task.era !== caller.era) throw unknownTask(taskId);
    return this.shared ? this.shared.checked(task) : task;
  }

  /** The client's answers to what the caller's task asks (answers to unknown keys are ignored). */
  async update(taskId: string, caller: Caller, responses: Readonly<Record<string, unknown>>): Promise<void> {
    const task = await this.get(taskId, caller);
    const local = this.runs.get(taskId);
    if (local) local.run.answer(responses);
    else if (!isTerminalStatus(task.status)) await this.shared?.sendInput(task, responses);
  }

  /**
   * Cancels the caller's task: it is `cancelled` at once and its call's signal aborts. A finished
   * task stays as it is.
   * @returns the task as it was before.
   */
  async cancel(taskId: string, caller: Caller): Promise<TaskRecord> {
    const before = await this.get(taskId, caller);
    if (isTerminalStatus(before.status)) return before;
    await this.settle(taskId, { status: 'cancelled', statusMessage: 'Cancelled by the client' });
    if (this.runs.has(taskId)) this.abortRun(taskId);
    else await this.shared?.sendCancel(before);
    return before;
  }

  /**
   * The caller's task once it has finished (2025-11-25 `tasks/result` blocks until then).
   * @param stream the response stream of the `tasks/result` waiting, and its session: until the task
   *   ends, what the task sends its client (its requests, progress, logs, status) goes there.
   * @param cancelled the request's signal: once it aborts (the client cancelled it, or its session
   *   ended), nothing waits for it any more, and it rejects with {@link RequestCancelledError}.
   */
  async finished(
    taskId: string,
    caller: Caller,
    stream?: { readonly channel: CallChannel; readonly session: ClientSession },
    cancelled?: { readonly signal: AbortSignal; readonly requestId: RequestId },
  ): Promise<TaskRecord> {
    const task = await this.get(taskId, caller);
    if (isTerminalStatus(task.status)) return task;
    // Run by another instance: its end is read from the shared state, once per poll interval.
    if (this.shared && !this.runs.has(taskId)) {
      return this.shared.whenFinished(() => this.get(taskId, caller), task, cancelled);
    }
    const link = this.runs.get(taskId)?.link;
    const detach = link && stream ? link.attach(stream.channel, stream.session) : undefined;
    let stopWaiting: (() => void) | undefined;
    try {
      const ended = await new Promise<TaskRecord | undefined>((resolve, reject) => {
        let waiting = this.waiters.get(taskId);
        if (!waiting) this.waiters.set(taskId, (waiting = new Set()));
        const waiters = waiting;
        waiters.add(resolve);
        if (cancelled) {
          const abort = (): void => {
            waiters.delete(resolve);
            if (waiters.size === 0 && this.waiters.get(taskId) === waiters) this.waiters.delete(taskId);
            reject(new RequestCancelledError(cancelled.requestId));
          };
          if (cancelled.signal.aborted) abort();
          cancelled.signal.addEventListener('abort', abort, { once: true });
          stopWaiting = () => cancelled.signal.removeEventListener('abort', abort);
        }
        // It may have ended while it was read: the end's wake-up found nobody waiting then.
        this.store.get(taskId).then(
          (current) => {
            if (!current || isTerminalStatus(current.status)) this.wake(taskId, current);
          },
          () => undefined,
        );
      });
      if (!ended) throw unknownTask(taskId);
      return ended;
    } finally {
      stopWaiting?.();
      detach?.();
    }
  }

  /**
   * Tells `watcher` of every change of every task from now on (its owner is the watcher's to check).
   * @returns what stops it.
   */
  watch(watcher: TaskWatcher): () => void {
    this.watchers.add(watcher);
    return () => this.watchers.delete(watcher);
  }

  /**
   * A 2025 session ended: the tasks it owns (made without a principal) are cancelled and
   * forgotten, since nobody can ask for them any more. A principal's tasks outlive the session.
   */
  async sessionEnded(sessionId: string): Promise<void> {
    const owner = `session:${sessionId}`;
    for (let after: string | undefined, more = true; more;) {
      const page = await this.store.list(owner, after, 100);
      for (const task of page.tasks) {
        const local = this.runs.get(task.taskId);
        if (local) {
          local.run.abort.abort(
            new McpCallAbortedError('session-ended', `Task ${task.taskId} stopped: its session ended`),
          );
        } else if (!isTerminalStatus(task.status)) {
          // Run by another instance: stopped there too, not left working for nobody until its TTL.
          await this.shared?.sendCancel(task).catch(() => undefined);
        }
        // Forgotten now: its expiry is the store's to apply.
        await this.store.update(task.taskId, (current) => ({
          ...current,
          ...(isTerminalStatus(current.status) ? {} : { status: 'cancelled' as const }),
          expiresAt: Date.now(),
        }));
        this.wake(task.taskId, undefined);
      }
      after = page.tasks.at(-1)?.taskId;
      more = page.more;
    }
  }

  /** One page of the caller's tasks, oldest first. */
  list(caller: Caller, after: string | undefined, limit: number): Promise<{ tasks: TaskRecord[]; more: boolean }> {
    return this.store.list(this.ownerOf(caller), after, limit);
  }

  onModuleDestroy(): void {
    for (const [taskId, { run, expiry }] of this.runs) {
      clearTimeout(expiry);
      run.abort.abort(new McpCallAbortedError('shutdown', `Task ${taskId} stopped: the server is shutting down`));
    }
    if (this.store instanceof InMemoryTaskStore) this.store.close();
    this.shared?.stop();
  }

  private abortRun(taskId: string): void {
    this.runs
      .get(taskId)
      ?.run.abort.abort(new McpCallAbortedError('cancelled', `Task ${taskId} was cancelled by the client`));
  }

  private launch(
    record: TaskRecord,
    call: MessageContext,
    work: TaskWork,
    carried: Readonly<Record<string, unknown>> | undefined,
    progressToken: string | number | undefined,
  ): void {
    const { taskId } = record;
    let link: LegacyTaskLink | undefined;
    const run = new TaskRun(
      {
        inputRequestsChanged: (requests) => this.inputRequestsChanged(taskId, requests),
        statusMessage: (message) => this.unawaited(taskId, this.change(taskId, { statusMessage: message })),
        relay: (message) => link?.relay(message) ?? false,
      },
      carried,
      this.inputBounds,
    );
    const { session } = call;
    if (call.caller.era === 'legacy' && session) {
      link = new LegacyTaskLink(
        taskId,
        session,
        progressToken,
        this.clientRequestTimeoutMs,
        run.abort.signal,
        {
          inputRequestsChanged: (requests) => this.inputRequestsChanged(taskId, requests),
        },
        this.inputBounds,
      );
    }
    // A task still running at the end of its TTL is stopped: nobody could read what it produces.
    const expiry = setTimeout(() => this.expire(taskId), Math.max(0, record.expiresAt - Date.now())).unref();
    this.runs.set(taskId, { run, expiry, ...(link ? { link } : {}) });
    const taskCall: MessageContext = {
      caller: new TaskCaller(call.caller, run.abort, link !== undefined),
      ...(session ? { session } : {}),
      transport: call.transport,
      httpRequest: call.httpRequest,
      headers: call.headers,
      channel: run,
      taskInput: call.caller.era === 'modern' ? run : (link ?? NO_SESSION_TASK_INPUT),
    };
    void work(taskCall)
      .then(
        (result) => this.settle(taskId, { status: 'completed', result }),
        (error: unknown) => this.settle(taskId, this.failure(taskId, error)),
      )
      .catch((error: unknown) => {
        this.logger.error(
          `Task ${taskId} could not record its end`,
          error instanceof Error ? error.stack : String(error),
        );
      })
      .finally(() => {
        clearTimeout(expiry);
        this.runs.delete(taskId);
        // Its end could not be recorded (shared state unreachable): whoever waits is not left waiting.
        if (this.waiters.has(taskId)) {
          this.store.get(taskId).then(
            (task) => this.wake(taskId, task && isTerminalStatus(task.status) ? task : undefined),
            () => this.wake(taskId, undefined),
          );
        }
      });
  }

  private failure(taskId: string, error: unknown): Partial<TaskRecord> {
    if (error instanceof RequestCancelledError) return { status: 'cancelled' };
    if (error instanceof JsonRpcError) return { status: 'failed', error: error.toErrorObject() };
    this.logger.error(`Task ${taskId} failed`, error instanceof Error ? error.stack : String(error));
    return { status: 'failed', error: internalError().toErrorObject() };
  }

  private inputRequestsChanged(taskId: string, requests: Readonly<Record<string, InputRequest>>): void {
    const waiting = Object.keys(requests).length > 0;
    this.unawaited(
      taskId,
      this.apply(taskId, (task) =>
        isTerminalStatus(task.status)
          ? undefined
          : {
              ...task,
              status: waiting ? 'input_required' : 'working',
              inputRequests: requests,
              lastUpdatedAt: Date.now(),
            },
      ),
    );
  }

  /** A write nobody waits for (shared state may be unreachable): said in the log, never an unhandled rejection. */
  private unawaited(taskId: string, write: Promise<unknown>): void {
    write.catch((error: unknown) => {
      this.logger.warn(
        `Task ${taskId}: a change could not be recorded (${error instanceof Error ? error.message : String(error)})`,
      );
    });
  }

  private change(taskId: string, change: Partial<TaskRecord>): Promise<TaskRecord | undefined> {
    return this.apply(taskId, (current) =>
      isTerminalStatus(current.status) ? undefined : { ...current, ...change, lastUpdatedAt: Date.now() },
    );
  }

  /** {@link TaskStore.update}, then whoever follows the task is told when it changed. */
  private async apply(
    taskId: string,
    change: (current: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    let changed = false;
    const task = await this.store.update(taskId, (current) => {
      const next = change(current);
      changed = next !== undefined;
      return next;
    });
    if (changed) this.changed(task);
    return task;
  }

  /** The task's end: recorded once (the first end wins), then whoever waits for it is told. */
  private async settle(taskId: string, end: Partial<TaskRecord>): Promise<void> {
    const task = await this.apply(taskId, (current) => {
      if (isTerminalStatus(current.status)) return undefined;
      const { inputRequests: _done, ...rest } = current;
      return { ...rest, ...end, lastUpdatedAt: Date.now() };
    });
    this.wake(taskId, task);
  }

  /**
   * Tells the task's client and the watchers of a change (2025-11-25 `notifications/tasks/status`,
   * 2026-07-28 `notifications/tasks`).
   */
  private changed(task: TaskRecord | undefined): void {
    if (!task) return;
    this.runs.get(task.taskId)?.link?.statusChanged(task);
    for (const watcher of this.watchers) {
      try {
        watcher(task);
      } catch (error) {
        this.logger.error('A task watcher failed', error instanceof Error ? error.stack : String(error));
      }
    }
  }

  private expire(taskId: string): void {
    this.runs
      .get(taskId)
      ?.run.abort.abort(new McpCallAbortedError('timeout', `Task ${taskId} reached the end of its TTL`));
    this.wake(taskId, undefined);
  }

  private wake(taskId: string, task: TaskRecord | undefined): void {
    if (task && !isTerminalStatus(task.status)) return;
    const waiting = this.waiters.get(taskId);
    this.waiters.delete(taskId);
    for (const resolve of waiting ?? []) resolve(task);
  }
}
