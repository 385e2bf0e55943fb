import type { Cluster, Redis } from 'ioredis';
import type { SessionAdmission } from '../interfaces/mcp-shared-state.interface.js';
import { LUA } from './redis-lua.js';

/**
 * A connection of ours: a duplicate of the user's standalone client or cluster.
 * @internal
 */
export type RedisConnection = Redis | Cluster;

type ScriptName = keyof typeof LUA;
type Argument = string | number;
type ScriptCommand = (...args: Argument[]) => Promise<unknown>;

/** Our command names carry a prefix, so they never shadow a script of the user's client options. */
const commandName = (name: ScriptName): string => `mcp42_${name}`;

/**
 * The scripts of {@link LUA} registered on one connection, as typed calls. ioredis sends `EVALSHA`
 * and falls back to `EVAL` when Redis answers `NOSCRIPT` (after a restart, a failover, a flush).
 * @internal
 */
export class RedisScripts {
  constructor(private readonly connection: RedisConnection) {
    for (const name of Object.keys(LUA) as ScriptName[]) {
      const { keys, lua } = LUA[name];
      // Without `numberOfKeys`, ioredis takes the count as the first argument (see `run`).
      connection.defineCommand(commandName(name), keys === 'variable' ? { lua } : { numberOfKeys: keys, lua });
    }
  }

  /** Admits a session into the index, and into its owner's set (`owner`, for an owned session). */
  async admit(
    index: string,
    owner: string | undefined,
    sid: string,
    idleMs: number,
    maxSessions: number,
    maxPerOwner: number,
  ): Promise<SessionAdmission> {
    const keys = owner === undefined ? [index] : [index, owner];
    const reply = await this.run('admit', keys, [sid, duration(idleMs), limit(maxSessions), limit(maxPerOwner)]);
    return reply === 1 ? 'created' : reply === 2 ? 'principal-full' : 'full';
  }

  async create(record: string, idleMs: number, fields: ReadonlyArray<readonly [string, string]>): Promise<void> {
    await this.run('create', [record], [duration(idleMs), ...fields.flat()]);
  }

  /** The session's subscribed URIs and its owner, or `undefined` when it is gone. */
  async touch(keys: readonly string[], idleMs: number): Promise<SessionKept | undefined> {
    const reply = await this.run('touch', keys, [duration(idleMs)]);
    return Array.isArray(reply) ? kept(reply) : undefined;
  }

  /** Makes a key live at least `ttlMs` more (never shortens it). */
  async stretch(key: string, ttlMs: number): Promise<void> {
    await this.run('stretch', [key], [duration(ttlMs)]);
  }

  async indexSubscriber(key: string, sid: string, ttlMs: number): Promise<void> {
    await this.run('indexSubscriber', [key], [sid, duration(ttlMs)]);
  }

  /** Deletes a session's keys; returns the URIs it was subscribed to, and its owner. */
  async end(keys: readonly string[]): Promise<SessionKept> {
    return kept((await this.run('end', keys, [])) as unknown[]);
  }

  /**
   * Sets the deadlines of sessions in the index, and in their owners' sets (the key of each, if
   * any); `idleMs` -1 removes a session that was found gone.
   */
  async touchIndex(
    index: string,
    deadlines: ReadonlyArray<readonly [sid: string, idleMs: number, owner: string | undefined]>,
  ): Promise<void> {
    const keys = [index];
    const position = new Map<string, number>();
    const args = deadlines.flatMap(([sid, idleMs, owner]) => {
      // Positions as Lua counts KEYS, from 1 (the index): `push` returns the new length, the added key's.
      let at = 0;
      if (owner !== undefined) {
        at = position.get(owner) ?? keys.push(owner);
        position.set(owner, at);
      }
      return [sid, idleMs < 0 ? -1 : duration(idleMs), at];
    });
    await this.run('touchIndex', keys, args);
  }

  async count(index: string): Promise<number> {
    return Number(await this.run('count', [index], []));
  }

  async live(index: string): Promise<string[]> {
    return (await this.run('live', [index], [])) as string[];
  }

  /** The record's fields, its subscriptions and its PTTL, or `undefined` when it is gone. */
  async load(
    record: string,
    subscriptions: string,
  ): Promise<{ fields: Record<string, string>; uris: string[]; ttl: number } | undefined> {
    const reply = (await this.run('load', [record, subscriptions], [])) as [string[], string[], number] | null;
    if (!reply) return undefined;
    const fields: Record<string, string> = {};
    for (let index = 0; index + 1 < reply[0].length; index += 2) fields[reply[0][index]!] = reply[0][index + 1]!;
    return { fields, uris: reply[1], ttl: reply[2] };
  }

  /** Sets a field of a live record, or deletes it (`value` undefined). False: the record is gone. */
  async setField(record: string, field: string, value: string | undefined): Promise<boolean> {
    return (await this.run('setField', [record], value === undefined ? [field] : [field, value])) === 1;
  }

  /** `ok` comes with the session's time left, for the index by URI to live as long. */
  async subscribe(
    keys: readonly [string, string],
    uri: string,
    maxCount: number,
    maxChars: number,
  ): Promise<{ outcome: 'ok'; ttl: number } | { outcome: 'limit' | 'gone' }> {
    const args = [uri, uri.length, limit(maxCount), limit(maxChars)];
    const [code, ttl] = (await this.run('subscribe', keys, args)) as [number, number?];
    if (code === 1) return { outcome: 'ok', ttl: Number(ttl) };
    return { outcome: code === 0 ? 'gone' : 'limit' };
  }

  async unsubscribe(keys: readonly [string, string], uri: string): Promise<void> {
    await this.run('unsubscribe', keys, [uri, uri.length]);
  }

  async append(
    keys: readonly [string, string],
    event: { readonly streamId: string; readonly seq: number; readonly data: string },
    bounds: { readonly maxEvents: number; readonly maxChars: number; readonly maxAgeMs: number },
  ): Promise<void> {
    await this.run('append', keys, [
      event.streamId,
      event.seq,
      event.data,
      event.data.length,
      limit(bounds.maxEvents),
      limit(bounds.maxChars),
      limit(bounds.maxAgeMs),
    ]);
  }

  /** `[seq, data]` pairs of one stream after `afterSeq`, in order. */
  async replay(keys: readonly [string, string], streamId: string, afterSeq: number): Promise<[number, string][]> {
    const flat = (await this.run('replay', keys, [streamId, afterSeq])) as string[];
    const events: [number, string][] = [];
    for (let index = 0; index + 1 < flat.length; index += 2) events.push([Number(flat[index]), flat[index + 1]!]);
    return events;
  }

  async deleteStream(keys: readonly [string, string], streamId: string): Promise<void> {
    await this.run('deleteStream', keys, [streamId]);
  }

  /**
   * Claims a session's standalone stream.
   * @param inboxPrefix the prefix of every instance's inbox channel, and `released` the message a
   *   previous holder is told there, in the same step.
   */
  async claim(
    keys: readonly [string, string],
    me: string,
    force: boolean,
    inboxPrefix: string,
    released: string,
  ): Promise<
    { outcome: 'gone' } | { outcome: 'busy'; holder: string } | { outcome: 'ok'; previous: string; backlog: string[] }
  > {
    const args = [me, force ? '1' : '0', inboxPrefix, released];
    const reply = (await this.run('claim', keys, args)) as [number, string?, string[]?];
    if (reply[0] === 0) return { outcome: 'gone' };
    if (reply[0] === 2) return { outcome: 'busy', holder: String(reply[1]) };
    return { outcome: 'ok', previous: reply[1] ?? '', backlog: reply[2] ?? [] };
  }

  async release(record: string, me: string): Promise<void> {
    await this.run('release', [record], [me]);
  }

  async sendStandalone(
    keys: readonly [string, string],
    channel: string,
    data: string,
    backlogLimit: number,
  ): Promise<'held' | 'queued' | 'gone'> {
    const reply = await this.run('sendStandalone', keys, [channel, data, limit(backlogLimit)]);
    return reply === 0 ? 'gone' : reply === 1 ? 'held' : 'queued';
  }

  /**
   * Whom a session's standalone stream is held by, for a fan-out that tells each holder once; a
   * stream held nowhere gets the message in its backlog here.
   */
  async standaloneHolder(
    keys: readonly [string, string],
    data: string,
    backlogLimit: number,
  ): Promise<{ readonly outcome: 'gone' | 'queued' } | { readonly outcome: 'held'; readonly holder: string }> {
    const [code, holder] = (await this.run('standaloneHolder', keys, [data, limit(backlogLimit)])) as [number, string?];
    if (code === 1 && typeof holder === 'string') return { outcome: 'held', holder };
    return { outcome: code === 0 ? 'gone' : 'queued' };
  }

  /**
   * Creates a task against its caps (keys: {@link RedisKeys} task, tasks, owner live, owner, runner's,
   * runners, owner expiries).
   */
  async createTask(
    keys: readonly [string, string, string, string, string, string, string],
    task: { readonly taskId: string; readonly json: string; readonly ttlMs: number },
    replica: string,
    caps: { readonly maxTasks: number; readonly maxPerOwner: number; readonly maxTtlMs: number },
  ): Promise<'created' | 'owner-full' | 'full'> {
    const args = [task.taskId, task.json, duration(task.ttlMs), limit(caps.maxTasks), limit(caps.maxPerOwner)];
    const reply = await this.run('taskCreate', keys, [...args, duration(caps.maxTtlMs), replica]);
    return reply === 1 ? 'created' : reply === 2 ? 'owner-full' : 'full';
  }

  /** Compare-and-set of a task's JSON (keys: task, owner live, runner's). */
  async casTask(
    keys: readonly [string, string, string],
    taskId: string,
    version: number,
    json: string,
    finished: boolean,
    expiresInMs?: number,
  ): Promise<'ok' | 'conflict' | 'gone'> {
    const args = [String(version), json, finished ? '1' : '0', taskId];
    if (expiresInMs !== undefined) args.push(String(duration(expiresInMs)));
    const reply = await this.run('taskCas', keys, args);
    return reply === 1 ? 'ok' : reply === 0 ? 'gone' : 'conflict';
  }

  /** Up to `count` ids of an owner's tasks after `after`. */
  async taskPage(owner: string, after: string | undefined, count: number): Promise<string[]> {
    return (await this.run('taskPage', [owner], [after ?? '', count])) as string[];
  }

  /**
   * The ids of `taskKeys` (the tasks of a replica's set, read just before) whose record is still
   * there, the others dropped from the set (keys: runner's, runners), in one script.
   */
  async taskRunBy(
    keys: readonly [string, string],
    replica: string,
    mine: boolean,
    tasks: readonly (readonly [taskId: string, key: string])[],
  ): Promise<string[]> {
    const taskKeys = tasks.map(([, key]) => key);
    const args = [replica, mine ? '1' : '0', ...tasks.map(([taskId]) => taskId)];
    return (await this.run('taskRunBy', [...keys, ...taskKeys], args)) as string[];
  }

  private run(name: ScriptName, keys: readonly string[], args: readonly Argument[]): Promise<unknown> {
    const command = (this.connection as unknown as Record<string, ScriptCommand>)[commandName(name)]!;
    const count: Argument[] = LUA[name].keys === 'variable' ? [keys.length] : [];
    return command.call(this.connection, ...count, ...keys, ...args);
  }
}

/**
 * What the `touch` and `end` scripts say of a session: its subscribed URIs and its owner.
 * @internal
 */
export interface SessionKept {
  readonly uris: string[];
  readonly owner: string | undefined;
}

const kept = (reply: readonly unknown[]): SessionKept => ({
  uris: (reply[0] as string[] | undefined) ?? [],
  owner: typeof reply[1] === 'string' ? reply[1] : undefined,
});

/** A TTL that never runs out in practice, yet keeps deadlines (Redis time + TTL) exact in Lua's doubles. */
const FOREVER_MS = 100 * 365 * 24 * 3600 * 1000;

/** A TTL for Redis: whole milliseconds, at least 1 (PEXPIRE 0 would delete the key). */
function duration(ms: number): number {
  return Number.isFinite(ms) ? Math.min(FOREVER_MS, Math.max(1, Math.ceil(ms))) : FOREVER_MS;
}

/** A bound for the scripts: a whole number, or -1 for none. */
function limit(value: number): number {
  return Number.isFinite(value) ? Math.max(0, Math.floor(value)) : -1;
}
