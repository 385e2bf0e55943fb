import { createHash } from 'node:crypto';

/**
 * Names of the keys and channels mcp42 uses in Redis, all behind one prefix. Every key of one
 * session carries the hash tag `{sid}`, so each script on a session touches one Cluster slot; the
 * global keys share `{g}`.
 * @internal
 */
export class RedisKeys {
  /** The channel every instance hears (broadcasts). */
  readonly broadcast: string;
  /** Session index: member sid, score its idle deadline (Redis time, ms). */
  readonly index: string;
  private readonly standalonePrefix: string;
  private readonly ownerPrefix: string;
  /** Every task kept (sorted set: member task id, score its expiry, Redis time, ms), for `tasks.maxTasks`. */
  readonly tasks: string;
  /** The instances recorded as running unfinished tasks (set). */
  readonly taskRunners: string;

  constructor(private readonly prefix: string) {
    this.broadcast = `${prefix}c:all`;
    this.index = `${prefix}{g}:idx`;
    this.tasks = `${prefix}{g}:ta`;
    this.taskRunners = `${prefix}{g}:trs`;
    this.standalonePrefix = `${prefix}g:`;
    this.ownerPrefix = `${prefix}{g}:o:`;
  }

  /**
   * The sessions of one principal (sorted set, kept like {@link index}: member sid, score its idle
   * deadline), for `limits.sessionsPerPrincipal`. In the global slot, so that one script admits a
   * session against both; named by a digest, since a principal (`<iss>#<sub>`...) may be long and
   * contain braces.
   */
  owner(principal: string): string {
    return `${this.ownerPrefix}${digest(principal)}`;
  }

  /**
   * A task's record (hash: `v` its version, `j` its JSON). Tasks live in the global slot, with the
   * sets that admit them, so that one script creates a task against its caps and one script ends
   * it: in a Cluster, one node holds every task.
   */
  task(taskId: string): string {
    return `${this.prefix}{g}:t:${taskId}`;
  }

  /** An owner's unfinished tasks (sorted set, score their expiry), for `tasks.maxPerPrincipal`. */
  ownerLiveTasks(owner: string): string {
    return `${this.prefix}{g}:tl:${digest(owner)}`;
  }

  /**
   * Every task of an owner (sorted set, score its creation in Redis time, ms to the µs), for the 2025
   * `tasks/list`; ids leave it at the owner's next creation once past their own expiry
   * ({@link ownerTaskExpiries}).
   */
  ownerTasks(owner: string): string {
    return `${this.prefix}{g}:to:${digest(owner)}`;
  }

  /**
   * The ids of {@link ownerTasks} scored by their expiry (Redis time, ms): what leaves the owner's
   * list, whatever `tasks.maxTtlMs` the instance that prunes it has.
   */
  ownerTaskExpiries(owner: string): string {
    return `${this.prefix}{g}:toe:${digest(owner)}`;
  }

  /**
   * The unfinished tasks an instance runs (set): what is failed when its lease expires. Ids of tasks
   * that expired unfinished leave it at the instance's next sweep.
   */
  tasksOf(replicaId: string): string {
    return `${this.prefix}{g}:tr:${replicaId}`;
  }

  /** The session's record (hash). */
  record(sid: string): string {
    return `${this.prefix}s:{${sid}}`;
  }

  /** The session's stored events (stream). */
  events(sid: string): string {
    return `${this.record(sid)}:e`;
  }

  /** Messages for the session's standalone stream while nobody holds it (list). */
  backlog(sid: string): string {
    return `${this.record(sid)}:b`;
  }

  /** The session's resource subscriptions (set). */
  subscriptions(sid: string): string {
    return `${this.record(sid)}:u`;
  }

  /** Every key of one session, in the order the scripts take them. */
  sessionKeys(sid: string): [record: string, events: string, backlog: string, subscriptions: string] {
    return [this.record(sid), this.events(sid), this.backlog(sid), this.subscriptions(sid)];
  }

  /**
   * The sessions subscribed to a URI (set), across sessions: named by a digest, since a URI may be
   * long (kilobytes) and may contain braces, which would make a hash tag of part of it.
   */
  subscribers(uri: string): string {
    return `${this.prefix}u:${createHash('sha256').update(uri).digest('base64url')}`;
  }

  /** An instance's lease (string with a TTL). */
  lease(replicaId: string): string {
    return `${this.prefix}r:${replicaId}`;
  }

  /** An instance's inbox channel. */
  inbox(replicaId: string): string {
    return `${this.prefix}c:${replicaId}`;
  }

  /**
   * An instance's channel for fan-outs (`standalone-many`): apart from its inbox, so that an instance
   * of an older version, which does not know them, is not counted as hearing them (the sender then
   * sends to each session as before).
   */
  fanoutInbox(replicaId: string): string {
    return `${this.prefix}c:${replicaId}:m`;
  }

  /** The channel of a session's standalone stream, heard by the instance that holds it. */
  standalone(sid: string): string {
    return `${this.standalonePrefix}${sid}`;
  }

  /** The session of a standalone channel, or `undefined` for any other channel. */
  standaloneSession(channel: string): string | undefined {
    return channel.startsWith(this.standalonePrefix) ? channel.slice(this.standalonePrefix.length) : undefined;
  }
}

/** A short name for something long or full of braces (a principal, a URI). */
function digest(text: string): string {
  return createHash('sha256').update(text).digest('base64url');
}
