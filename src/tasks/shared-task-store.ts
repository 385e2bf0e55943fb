import type { SharedState } from '../interfaces/mcp-shared-state.interface.js';
import { isTerminalStatus } from '../protocol/tasks.js';
import type { TaskRecord, TaskRefusal } from './task-record.js';
import type { TaskCaps, TaskStore } from './task-store.js';

/** Task ids mcp42 makes (UUID v4): anything else names no task, and is never sent to the shared state. */
const TASK_ID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/**
 * Writes that lost a compare-and-set race are tried again this many times: a task's writers are its
 * run (status messages, input requests, its end) and the clients' cancels, a handful at most.
 */
const MAX_ATTEMPTS = 16;

/**
 * The tasks of every instance, in the shared state (`state.shared`): any instance answers for any
 * task. Created atomically against the caps; changed by compare-and-set on a version, so two
 * instances changing one task never lose a write and the first end stays the end.
 */
export class SharedTaskStore implements TaskStore {
  /**
   * This instance's changes of each task, in the order they were asked: a run's writes (its input
   * requests, status messages, end) each carry a whole state, so a later one must never land first.
   */
  private readonly queues = new Map<string, Promise<unknown>>();

  constructor(
    private readonly shared: SharedState,
    private readonly now: () => number = Date.now,
  ) {}

  /** A task past its `expiresAt` is no task, even while Redis still holds it (its expiry brought forward). */
  private current(task: TaskRecord | undefined): TaskRecord | undefined {
    return task && task.expiresAt > this.now() ? task : undefined;
  }

  async create(record: TaskRecord, caps: TaskCaps): Promise<TaskRefusal | undefined> {
    const outcome = await this.shared.createTask(
      {
        taskId: record.taskId,
        owner: record.owner,
        replica: record.replica ?? this.shared.replicaId,
        ttlMs: record.ttlMs,
        maxPerOwner: caps.perOwner,
        maxTasks: caps.total,
        maxTtlMs: caps.maxTtlMs,
      },
      JSON.stringify(record),
    );
    return outcome === 'created' ? undefined : outcome;
  }

  async get(taskId: string): Promise<TaskRecord | undefined> {
    if (!TASK_ID.test(taskId)) return undefined;
    const stored = await this.shared.loadTask(taskId);
    return this.current(stored && recordOf(stored.json));
  }

  update(taskId: string, change: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    if (!TASK_ID.test(taskId)) return Promise.resolve(undefined);
    const before = this.queues.get(taskId) ?? Promise.resolve();
    const updated = before.then(
      () => this.write(taskId, change),
      () => this.write(taskId, change),
    );
    this.queues.set(taskId, updated);
    const forget = (): void => {
      if (this.queues.get(taskId) === updated) this.queues.delete(taskId);
    };
    updated.then(forget, forget);
    return updated;
  }

  private async write(
    taskId: string,
    change: (current: TaskRecord) => TaskRecord | undefined,
  ): Promise<TaskRecord | undefined> {
    for (let attempt = 0; attempt < MAX_ATTEMPTS; attempt++) {
      const stored = await this.shared.loadTask(taskId);
      const current = this.current(stored && recordOf(stored.json));
      if (!stored || !current) return undefined;
      const next = change(current);
      if (!next) return current;
      const outcome = await this.shared.casTask(taskId, stored.version, JSON.stringify(next), {
        owner: current.owner,
        replica: current.replica ?? this.shared.replicaId,
        finished: !isTerminalStatus(current.status) && isTerminalStatus(next.status),
        // Forgotten sooner (its expiry brought forward): Redis lets it go then too.
        ...(next.expiresAt < current.expiresAt ? { expiresInMs: next.expiresAt - this.now() } : {}),
      });
      if (outcome === 'ok') return next;
      if (outcome === 'gone') return undefined;
    }
    throw new Error(`Task ${taskId} changed ${MAX_ATTEMPTS} times while this instance tried to change it`);
  }

  async list(owner: string, after: string | undefined, limit: number): Promise<{ tasks: TaskRecord[]; more: boolean }> {
    const page = await this.shared.listTasks(
      owner,
      after !== undefined && TASK_ID.test(after) ? after : undefined,
      limit,
    );
    const tasks = page.json
      .map((json) => this.current(recordOf(json)))
      .filter((task): task is TaskRecord => task !== undefined);
    return { tasks, more: page.more };
  }
}

/** A record as written by {@link SharedTaskStore}; anything else (another version's, a stray key) is no task. */
function recordOf(json: string): TaskRecord | undefined {
  try {
    const value = JSON.parse(json) as Partial<TaskRecord> | null;
    return value &&
      typeof value.taskId === 'string' &&
      typeof value.owner === 'string' &&
      typeof value.status === 'string'
      ? (value as TaskRecord)
      : undefined;
  } catch {
    return undefined;
  }
}
