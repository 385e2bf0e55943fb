import { Logger } from '@nestjs/common';
import { McpStateUnavailableError } from '../errors/mcp-state-unavailable.error.js';
import { ErrorCode, JsonRpcError } from '../protocol/json-rpc.errors.js';
import { RequestCancelledError } from '../protocol/dispatcher.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import { isTerminalStatus } from '../protocol/tasks.js';
import type { SharedSessions } from '../session/shared-sessions.js';
import type { TaskRecord } from './task-record.js';
import type { TaskStore } from './task-store.js';

/** What a task whose instance stopped ends with: the same words on every instance. */
export const LOST_RUNNER_MESSAGE = 'the instance running the task stopped';

/** What the instance's own tasks hear from other instances. */
export interface SharedTaskRuns {
  /** `tasks/update` reached another instance: the answers, for the run here. */
  answer(taskId: string, responses: Readonly<Record<string, unknown>>): void;
  /** `tasks/cancel` reached another instance (and recorded the end): the run here stops. */
  abort(taskId: string): void;
}

/**
 * Tasks across instances sharing state: `tasks/update` and `tasks/cancel` sent to the instance
 * running the task, and tasks of an instance that stopped renewing its lease ended as `failed`,
 * when one is read (`tasks/get`) or by a sweep every third of the lease. So a task is never
 * `working` for longer than the lease after its instance died (plus a third of it when nobody reads it).
 */
export class SharedTasks {
  private readonly logger = new Logger('McpTasks');
  private sweeper: NodeJS.Timeout | undefined;
  private sweeping = false;

  constructor(
    private readonly sessions: SharedSessions,
    private readonly store: TaskStore,
  ) {}

  /** This instance's id: what its tasks record as their runner. */
  get replicaId(): string {
    return this.sessions.replicaId;
  }

  /** Hears other instances, and sweeps every third of the lease. */
  start(runs: SharedTaskRuns): void {
    this.sessions.on('task-input', (message) => runs.answer(message.taskId, message.responses));
    this.sessions.on('task-cancel', (message) => runs.abort(message.taskId));
    const leaseMs = this.sessions.shared!.replicaLeaseMs;
    this.sweeper = setInterval(() => void this.sweep(), Math.max(100, Math.floor(leaseMs / 3))).unref();
  }

  stop(): void {
    clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** Sends the client's answers to the instance running the task (when it is not this one). */
  async sendInput(task: TaskRecord, responses: Readonly<Record<string, unknown>>): Promise<void> {
    if (task.replica === undefined || task.replica === this.replicaId) return;
    await this.sessions.shared!.send(task.replica, {
      kind: 'task-input',
      taskId: task.taskId,
      responses: { ...responses },
    });
  }

  /** Tells the instance running the task that it was cancelled (when it is not this one). */
  async sendCancel(task: TaskRecord): Promise<void> {
    if (task.replica === undefined || task.replica === this.replicaId) return;
    await this.sessions.shared!.send(task.replica, { kind: 'task-cancel', taskId: task.taskId });
  }

  /**
   * The task as it is: an unfinished one whose instance is no longer alive is ended first
   * (`failed`, -32603), so that it is never `working` forever.
   */
  async checked(task: TaskRecord): Promise<TaskRecord> {
    const { replica } = task;
    if (isTerminalStatus(task.status) || replica === undefined || replica === this.replicaId) return task;
    const alive = await this.sessions.shared!.alive([replica]);
    if (alive.has(replica)) return task;
    return (await this.failLost(task.taskId, replica)) ?? task;
  }

  /** The task once it has finished, read again every poll interval (its instance is another one). */
  async whenFinished(
    read: () => Promise<TaskRecord>,
    task: TaskRecord,
    cancelled?: { readonly signal: AbortSignal; readonly requestId: RequestId },
  ): Promise<TaskRecord> {
    let current = task;
    while (!isTerminalStatus(current.status)) {
      await new Promise((resolve) => setTimeout(resolve, Math.max(100, current.pollIntervalMs)));
      // Nobody waits for it any more: the shared state is not read for a request that is gone.
      if (cancelled?.signal.aborted) throw new RequestCancelledError(cancelled.requestId);
      current = await read();
    }
    return current;
  }

  /**
   * Ends, as `failed`, the unfinished tasks of every instance whose lease expired; forgets the ids of
   * this instance's tasks that expired unfinished.
   */
  async sweep(): Promise<void> {
    if (this.sweeping) return;
    this.sweeping = true;
    try {
      const shared = this.sessions.shared!;
      // Tasks of this instance that expired unfinished (a handler past its TTL) leave its set.
      await shared.tasksRunBy(this.replicaId);
      const runners = await shared.taskRunners();
      const alive = await shared.alive(runners);
      for (const replica of runners) {
        if (alive.has(replica)) continue;
        for (const taskId of await shared.tasksRunBy(replica)) await this.failLost(taskId, replica);
      }
    } catch (error) {
      // Redis down: the next sweep tries again; anything else is a fault worth a line.
      if (!(error instanceof McpStateUnavailableError)) {
        this.logger.error(
          'The sweep of tasks of stopped instances failed',
          error instanceof Error ? error.stack : String(error),
        );
      }
    } finally {
      this.sweeping = false;
    }
  }

  private failLost(taskId: string, replica: string): Promise<TaskRecord | undefined> {
    const error = new JsonRpcError(ErrorCode.InternalError, LOST_RUNNER_MESSAGE).toErrorObject();
    return this.store.update(taskId, (current) => {
      if (isTerminalStatus(current.status) || current.replica !== replica) return undefined;
      const { inputRequests: _dropped, ...rest } = current;
      return { ...rest, status: 'failed', statusMessage: LOST_RUNNER_MESSAGE, error, lastUpdatedAt: Date.now() };
    });
  }
}
