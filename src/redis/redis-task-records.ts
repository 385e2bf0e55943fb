import type {
  SharedTaskAdmission,
  SharedTaskChange,
  SharedTaskRecord,
} from '../interfaces/mcp-shared-state.interface.js';
import type { RedisKeys } from './redis-keys.js';
import type { RedisConnection, RedisScripts } from './redis-scripts.js';

/** Listing stops after reading this many pages of ids that were all expired (bounded work per call). */
const MAX_EMPTY_PAGES = 8;

/**
 * Tasks in Redis: records (hash `v`, `j`, with the task's TTL), the sets that admit them, each
 * owner's list, and what each instance runs. The tasks half of the port, without the gate.
 * @internal
 */
export class RedisTaskRecords {
  constructor(
    private readonly command: RedisConnection,
    private readonly scripts: RedisScripts,
    private readonly keys: RedisKeys,
  ) {}

  create(admission: SharedTaskAdmission, json: string): Promise<'created' | 'owner-full' | 'full'> {
    const { keys } = this;
    const { taskId, owner, replica } = admission;
    return this.scripts.createTask(
      [
        keys.task(taskId),
        keys.tasks,
        keys.ownerLiveTasks(owner),
        keys.ownerTasks(owner),
        keys.tasksOf(replica),
        keys.taskRunners,
        keys.ownerTaskExpiries(owner),
      ],
      { taskId, json, ttlMs: admission.ttlMs },
      replica,
      admission,
    );
  }

  async load(taskId: string): Promise<SharedTaskRecord | undefined> {
    const [version, json] = await this.command.hmget(this.keys.task(taskId), 'v', 'j');
    if (version === null || json === null || version === undefined || json === undefined) return undefined;
    return { version: Number(version), json };
  }

  cas(taskId: string, version: number, json: string, change: SharedTaskChange): Promise<'ok' | 'conflict' | 'gone'> {
    const { keys } = this;
    const taskKeys = [keys.task(taskId), keys.ownerLiveTasks(change.owner), keys.tasksOf(change.replica)] as const;
    return this.scripts.casTask(taskKeys, taskId, version, json, change.finished, change.expiresInMs);
  }

  /**
   * One page of an owner's tasks. Ids whose record expired are dropped from the owner's list as
   * they are met; a page may then hold fewer than `limit` tasks, never one that expired.
   */
  async list(owner: string, after: string | undefined, limit: number): Promise<{ json: string[]; more: boolean }> {
    const list = this.keys.ownerTasks(owner);
    const found: string[] = [];
    let cursor = after;
    for (let empty = 0; empty < MAX_EMPTY_PAGES;) {
      // One more than wanted: whether there is more.
      const ids = await this.scripts.taskPage(list, cursor, limit + 1 - found.length);
      if (ids.length === 0) return { json: found, more: false };
      const records = await Promise.all(ids.map((id) => this.command.hget(this.keys.task(id), 'j')));
      const gone = ids.filter((_, index) => records[index] === null);
      if (gone.length > 0) await this.command.zrem(list, ...gone);
      for (const [index, json] of records.entries()) {
        if (json === null) continue;
        if (found.length === limit) return { json: found, more: true };
        found.push(json);
        cursor = ids[index];
      }
      if (found.length === limit) {
        // Filled exactly by this batch: more only if the batch went past it.
        const rest = await this.scripts.taskPage(list, cursor, 1);
        return { json: found, more: rest.length > 0 };
      }
      if (gone.length === ids.length) empty++;
      cursor = ids[ids.length - 1];
    }
    return { json: found, more: true };
  }

  async runners(): Promise<string[]> {
    return this.command.smembers(this.keys.taskRunners);
  }

  /**
   * The unfinished tasks an instance runs. Ids of tasks that expired unfinished are dropped on the
   * way; an instance left with none is dropped from the runners, unless it is this one (`mine`): it
   * may be recording a new task at this moment.
   */
  async runBy(replicaId: string, mine: boolean): Promise<string[]> {
    const set = this.keys.tasksOf(replicaId);
    const ids = await this.command.smembers(set);
    if (ids.length === 0 && mine) return [];
    // Two commands whatever the number of tasks (each sweep runs this for the instance's own set).
    const tasks = ids.map((id) => [id, this.keys.task(id)] as const);
    return this.scripts.taskRunBy([set, this.keys.taskRunners], replicaId, mine, tasks);
  }
}
