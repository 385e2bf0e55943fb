import type { McpEra } from '../protocol/era-classifier.js';
import type { TaskState } from '../protocol/tasks.js';

/** A task as the store keeps it: its state, who it belongs to, and when it is forgotten. */
export interface TaskRecord extends TaskState {
  /**
   * Who may see it: `principal:<id>`, else `session:<id>` for a 2025 session, else `anonymous`
   * (then only its unguessable id protects it, as the specification allows).
   */
  readonly owner: string;
  /** The era of the call that made it: its tasks methods are that era's. */
  readonly era: McpEra;
  /** The tool it runs. */
  readonly tool: string;
  /** When it is forgotten (milliseconds since the epoch): `createdAt + ttlMs`. */
  readonly expiresAt: number;
  /**
   * The instance running it, when tasks are shared across instances: where `tasks/update` and
   * `tasks/cancel` are sent, and whose lease tells whether it still runs.
   */
  readonly replica?: string;
}

/** Why a task could not be created: the caller's or the server's limit is reached. */
export type TaskRefusal = 'owner-full' | 'full';
