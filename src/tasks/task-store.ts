import type { TaskRecord, TaskRefusal } from './task-record.js';

/** The limits a store enforces when it creates a task, atomically with the creation. */
export interface TaskCaps {
  /** Unfinished tasks one owner may have. */
  readonly perOwner: number;
  /** Tasks kept in all, finished ones included. */
  readonly total: number;
  /** The longest TTL a task has (`tasks.maxTtlMs`): a store may forget what is older without looking. */
  readonly maxTtlMs: number;
}

/**
 * Where tasks are kept: in this process by default ({@link InMemoryTaskStore}), or in shared state
 * so that any instance answers for any task. Every method is asynchronous: a shared store answers
 * over the network. A store forgets a task at its `expiresAt`.
 */
export interface TaskStore {
  /**
   * Keeps a new task, unless a cap refuses it. Resolved once a `get` anywhere would find it (the
   * 2026-07-28 extension answers `CreateTaskResult` only then).
   */
  create(record: TaskRecord, caps: TaskCaps): Promise<TaskRefusal | undefined>;
  /** The task, or `undefined` if it does not exist or expired. */
  get(taskId: string): Promise<TaskRecord | undefined>;
  /**
   * Changes a task atomically: `change` gets the current record and returns the new one, or
   * `undefined` to leave it as it is (a finished task is never changed again).
   * @returns the record as it is after the change, `undefined` if the task does not exist.
   */
  update(taskId: string, change: (current: TaskRecord) => TaskRecord | undefined): Promise<TaskRecord | undefined>;
  /** One page of an owner's tasks, oldest first, after the task `after` (exclusive). */
  list(owner: string, after: string | undefined, limit: number): Promise<{ tasks: TaskRecord[]; more: boolean }>;
}
