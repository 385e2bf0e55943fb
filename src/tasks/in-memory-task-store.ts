import { isTerminalStatus } from '../protocol/tasks.js';
import type { TaskRecord, TaskRefusal } from './task-record.js';
import type { TaskCaps, TaskStore } from './task-store.js';

/** How often expired tasks are swept out: an expired task is never served, only its memory waits. */
const SWEEP_INTERVAL_MS = 60_000;

/**
 * The tasks of this process (the default store): bounded by the caps the service passes, each task
 * forgotten at its `expiresAt` (never served after it, swept out within a minute).
 */
export class InMemoryTaskStore implements TaskStore {
  private readonly tasks = new Map<string, TaskRecord>();
  /** Each owner's task ids, in creation order (a Set keeps insertion order). */
  private readonly byOwner = new Map<string, Set<string>>();
  /** Unfinished tasks per owner: what `perOwner` caps. */
  private readonly live = new Map<string, number>();
  private sweeper: NodeJS.Timeout | undefined;

  constructor(private readonly now: () => number = Date.now) {}

  create(record: TaskRecord, caps: TaskCaps): Promise<TaskRefusal | undefined> {
    // Expired tasks still held (the sweep runs every minute) give their places back first.
    if (this.tasks.size >= caps.total || this.liveOf(record.owner) >= caps.perOwner) this.sweep();
    if (this.tasks.size >= caps.total) return Promise.resolve('full');
    if (this.liveOf(record.owner) >= caps.perOwner) return Promise.resolve('owner-full');
    this.tasks.set(record.taskId, record);
    let owned = this.byOwner.get(record.owner);
    if (!owned) this.byOwner.set(record.owner, (owned = new Set()));
    owned.add(record.taskId);
    if (!isTerminalStatus(record.status)) this.live.set(record.owner, (this.live.get(record.owner) ?? 0) + 1);
    this.sweeper ??= setInterval(() => this.sweep(), SWEEP_INTERVAL_MS).unref();
    return Promise.resolve(undefined);
  }

  get(taskId: string): Promise<TaskRecord | undefined> {
    return Promise.resolve(this.current(taskId));
  }

  update(taskId: string, change: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined> {
    const current = this.current(taskId);
    if (!current) return Promise.resolve(undefined);
    const next = change(current);
    if (!next) return Promise.resolve(current);
    this.tasks.set(taskId, next);
    if (!isTerminalStatus(current.status) && isTerminalStatus(next.status)) this.finished(current.owner);
    return Promise.resolve(next);
  }

  list(owner: string, after: string | undefined, limit: number): Promise<{ tasks: TaskRecord[]; more: boolean }> {
    const ids = [...(this.byOwner.get(owner) ?? [])];
    let start = 0;
    if (after !== undefined) {
      const index = ids.indexOf(after);
      // A cursor's task that expired since: the page starts over rather than failing.
      start = index < 0 ? 0 : index + 1;
    }
    const tasks: TaskRecord[] = [];
    let index = start;
    for (; index < ids.length && tasks.length < limit; index++) {
      const task = this.current(ids[index]!);
      if (task) tasks.push(task);
    }
    return Promise.resolve({ tasks, more: index < ids.length });
  }

  /** Stops the sweep: the store is dropped with its module. */
  close(): void {
    if (this.sweeper) clearInterval(this.sweeper);
    this.sweeper = undefined;
  }

  /** How many tasks are kept (for tests and figures). */
  get size(): number {
    return this.tasks.size;
  }

  private liveOf(owner: string): number {
    return this.live.get(owner) ?? 0;
  }

  private current(taskId: string): TaskRecord | undefined {
    const task = this.tasks.get(taskId);
    if (task && task.expiresAt <= this.now()) {
      this.remove(task);
      return undefined;
    }
    return task;
  }

  private sweep(): void {
    const now = this.now();
    for (const task of this.tasks.values()) if (task.expiresAt <= now) this.remove(task);
  }

  private remove(task: TaskRecord): void {
    this.tasks.delete(task.taskId);
    const owned = this.byOwner.get(task.owner);
    owned?.delete(task.taskId);
    if (owned?.size === 0) this.byOwner.delete(task.owner);
    if (!isTerminalStatus(task.status)) this.finished(task.owner);
  }

  private finished(owner: string): void {
    const count = (this.live.get(owner) ?? 1) - 1;
    if (count > 0) this.live.set(owner, count);
    else this.live.delete(owner);
  }
}
