import type { RequestId, JsonRpcResponse } from '../protocol/json-rpc.types.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import type { McpStoredEvent } from './mcp-event-store.interface.js';

/**
 * Shared state that lets several instances of one application serve the same 2025 sessions, created
 * by an adapter (`redisState()` from `mcp42/redis`) and passed as the `state` option. Opaque: what
 * it holds and how is the adapter's business.
 * @category Scaling
 */
export interface McpState {
  /** Tells a state object from anything else passed as `state`. */
  readonly kind: 'mcp42.state';
  /** Whether the shared state can be reached now (connected, and not failing): for health checks. */
  readonly available: boolean;
  /** @internal */
  readonly port: SharedState;
}

/**
 * A session's record as every instance sees it.
 * @internal
 */
export interface SharedSessionRecord {
  readonly id: string;
  readonly protocolVersion: string;
  /** JSON of the client's `clientInfo`. */
  readonly clientInfo: string;
  /** JSON of the client's capabilities. */
  readonly clientCapabilities: string;
  /** The principal that owns it; absent when anonymous. */
  readonly owner?: string;
  readonly logLevel: string;
}

/**
 * A record read back, with what the session gathered since and how long it has left.
 * @internal
 */
export interface LoadedSessionRecord extends SharedSessionRecord {
  readonly initialized: boolean;
  readonly subscriptions: readonly string[];
  /** Milliseconds until the session expires unless touched. */
  readonly remainingMs: number;
}

/**
 * Which limit refused a new session: `limits.sessions` (`'full'`) or `limits.sessionsPerPrincipal`.
 * @internal
 */
export type SessionRefusal = 'full' | 'principal-full';

/**
 * Whether a new session was created, or which limit refused it.
 * @internal
 */
export type SessionAdmission = 'created' | SessionRefusal;

/**
 * What instances say to each other, one kind per case. The core defines the kinds and checks what
 * arrives (`instanceMessageOf`); the adapter only carries them, as JSON.
 * @internal
 */
export type InstanceMessage =
  /** A client's answer to a request of this instance's call (elicitation, sampling, roots). */
  | { readonly kind: 'client-response'; readonly sessionId: string; readonly response: JsonRpcResponse }
  /** The client cancelled a call: the instance running it aborts it. */
  | {
      readonly kind: 'cancel-call';
      readonly sessionId: string;
      readonly requestId: RequestId;
      readonly reason?: string;
    }
  /** The session ended (DELETE, expiry, overflow): every instance drops it and aborts its calls. */
  | { readonly kind: 'session-ended'; readonly sessionId: string }
  /** The session's record changed (log level, subscriptions): cached copies read it again. */
  | { readonly kind: 'session-changed'; readonly sessionId: string }
  /** The instance that held the session's GET stream gave it up to another one. */
  | { readonly kind: 'stream-released'; readonly sessionId: string }
  /** The client said its roots changed. */
  | { readonly kind: 'roots-changed'; readonly sessionId: string }
  /** A notification for the sessions whose GET stream is open now, each instance telling its own. */
  | { readonly kind: 'notify-connected'; readonly method: string; readonly params?: Record<string, unknown> }
  /** A log message for every session, each instance telling its own. */
  | { readonly kind: 'log-all'; readonly level: LoggingLevel; readonly data: unknown; readonly logger?: string }
  /** A resource update for the 2026-07-28 listen streams of every instance. */
  | { readonly kind: 'resource-updated'; readonly uri: string }
  /** The client answered requests of a task (`tasks/update`): the instance running it settles its asks. */
  | { readonly kind: 'task-input'; readonly taskId: string; readonly responses: Record<string, unknown> }
  /** The client cancelled a task (recorded already): the instance running it aborts its call. */
  | { readonly kind: 'task-cancel'; readonly taskId: string }
  /**
   * One message for the standalone streams of many sessions that this instance holds (a fan-out):
   * one Redis message per holding instance rather than one per session. A session it no longer
   * holds gets the message the way a single send goes (to its holder now, or its backlog).
   */
  | { readonly kind: 'standalone-many'; readonly ids: readonly string[]; readonly data: string };

/** The message of one kind. @internal */
export type InstanceMessageOf<K extends InstanceMessage['kind']> = Extract<InstanceMessage, { readonly kind: K }>;

/**
 * What the shared state tells the instance.
 * @internal
 */
export interface SharedStateHooks {
  /**
   * A message sent to this instance, or broadcast to all (this one's own broadcasts included): a
   * JSON object as it arrived, which the core checks before it trusts it.
   */
  onMessage(message: object): void;
  /** A message for the standalone (GET) stream of a session whose stream this instance holds. */
  onStandalone(sessionId: string, data: string): void;
  /** The state became reachable again (`up`), or stopped being reachable (with the cause). */
  onAvailability(up: boolean, cause?: unknown): void;
}

/**
 * Bounds of a session's stored events, the same as the in-memory store's.
 * @internal
 */
export interface StoredEventBounds {
  readonly maxEvents: number;
  readonly maxChars: number;
  readonly maxAgeMs: number;
}

/**
 * The result of claiming a session's standalone stream.
 * @internal
 */
export type StandaloneClaim =
  | { readonly outcome: 'ok'; readonly backlog: readonly string[]; readonly previousHolder?: string }
  | { readonly outcome: 'busy'; readonly holder: string }
  | { readonly outcome: 'gone' };

/**
 * A task's record as shared state keeps it: its JSON, and the version a compare-and-set names.
 * @internal
 */
export interface SharedTaskRecord {
  readonly json: string;
  readonly version: number;
}

/**
 * What a task's creation needs besides its JSON: who owns it, which instance runs it, how long it is
 * kept, the caps it is admitted against (unfinished tasks per owner; tasks kept in all), and the
 * longest TTL of any task (what an owner's list is pruned by).
 * @internal
 */
export interface SharedTaskAdmission {
  readonly taskId: string;
  readonly owner: string;
  readonly replica: string;
  readonly ttlMs: number;
  readonly maxPerOwner: number;
  readonly maxTasks: number;
  /** The longest TTL a task may have: an owner's list forgets ids older than it (with a margin for clocks). */
  readonly maxTtlMs: number;
}

/**
 * What a compare-and-set of a task says besides its JSON.
 * @internal
 */
export interface SharedTaskChange {
  readonly owner: string;
  readonly replica: string;
  readonly finished: boolean;
  /** The task is to be forgotten sooner than its TTL: in this many milliseconds (at least 1). */
  readonly expiresInMs?: number;
}

/**
 * The port between the library and an engine of shared state. Every method may reject with
 * `McpStateUnavailableError` when the engine cannot be reached or answers too slowly; nothing is
 * queued locally while it is down.
 * @internal
 */
export interface SharedState {
  /** This instance's id among the others: random per start, `[0-9a-z]{12}`. */
  readonly replicaId: string;
  /** Whether operations can be sent now. */
  readonly available: boolean;
  /**
   * What tells this state's keys and channels from another's on the same store (Redis: the key
   * prefix): two servers of one application must not share one, or each would serve the other's
   * sessions and hear its broadcasts.
   */
  readonly namespace?: string;
  /** Connects and starts hearing messages. Resolves once ready, or after the connect timeout. */
  start(hooks: SharedStateHooks): Promise<void>;
  /** Releases what this instance holds, and disconnects. */
  stop(): Promise<void>;

  /**
   * Creates a session record, unless its owner holds `maxPerOwner` live sessions already
   * (`'principal-full'`, checked first: the owner can free a place itself) or `limits.sessions` live
   * sessions exist (`'full'`). Anonymous records (no owner) are bounded by `limits.sessions` alone.
   */
  createSession(
    record: SharedSessionRecord,
    idleMs: number,
    maxSessions: number,
    maxPerOwner: number,
  ): Promise<SessionAdmission>;
  /** The record of a live session, or `undefined` when it does not exist (ended, expired, never was). */
  loadSession(id: string): Promise<LoadedSessionRecord | undefined>;
  /** Sets one field of a live record: `ll` (log level) or `in` (`initialized`). */
  setSessionField(id: string, field: 'll' | 'in', value: string): Promise<void>;
  /** Adds a resource subscription, within bounds of count and characters. */
  addSubscription(id: string, uri: string, maxCount: number, maxChars: number): Promise<'ok' | 'limit' | 'gone'>;
  /** Removes a subscription (also from the index by URI, even when the session is gone). */
  removeSubscription(id: string, uri: string): Promise<void>;
  /** The sessions subscribed to a URI, from an index by URI (it may name sessions since expired). */
  subscribersOf(uri: string): Promise<readonly string[]>;
  /** The ids of the live sessions of every instance. */
  sessionIds(): Promise<readonly string[]>;
  /** Gives each session its idle time again (ms); returns the ids found gone. */
  touch(sessions: ReadonlyMap<string, number>): Promise<readonly string[]>;
  /** Milliseconds left per session; a negative number for one that is gone. */
  remaining(ids: readonly string[]): Promise<ReadonlyMap<string, number>>;
  /** Ends a session everywhere: its record, events, backlog and subscriptions are deleted. */
  endSession(id: string): Promise<void>;
  /** Live sessions across every instance. */
  countSessions(): Promise<number>;

  /** Keeps an event of a session's stream, within the bounds; nothing for a session that is gone. */
  /**
   * @param waitedOn a request waits on this write (a resume), rather than it going on beside the
   *   stream: it is not refused where background writes are.
   */
  appendEvent(id: string, event: McpStoredEvent, bounds: StoredEventBounds, waitedOn?: boolean): Promise<void>;
  /** The kept events of one stream after a position, in order. */
  replayEvents(id: string, streamId: string, afterSeq: number): Promise<readonly McpStoredEvent[]>;
  /** Forgets the events of one stream. */
  deleteStream(id: string, streamId: string): Promise<void>;
  /** Notes that a POST stream runs for these request ids (JSON), or (`undefined`) that it finished. */
  markStream(id: string, streamId: string, requestIds: string | undefined): Promise<void>;
  /** The request ids (JSON) of a POST stream still marked running, if any. */
  streamRequests(id: string, streamId: string): Promise<string | undefined>;

  /**
   * Makes this instance the holder of a session's standalone stream: messages sent to it from any
   * instance reach {@link SharedStateHooks.onStandalone} here from then on, and what waited in its
   * backlog is handed over. Busy when another instance holds it, unless `force`.
   */
  claimStandalone(id: string, force: boolean): Promise<StandaloneClaim>;
  /** Stops holding a session's standalone stream (if this instance still holds it). */
  releaseStandalone(id: string): Promise<void>;
  /**
   * Sends a message to a session's standalone stream: to its holder (`held`), or into its backlog of
   * at most `backlogLimit` messages (oldest dropped) while none holds it (`queued`).
   */
  sendStandalone(id: string, data: string, backlogLimit: number): Promise<'held' | 'queued' | 'gone'>;
  /**
   * {@link sendStandalone} to many sessions as one operation (a fan-out): its outcome per session.
   * The held ones go to their holders as one `standalone-many` message per holding instance.
   */
  sendStandaloneMany(
    ids: readonly string[],
    data: string,
    backlogLimit: number,
  ): Promise<ReadonlyMap<string, 'held' | 'queued' | 'gone'>>;

  /** Sends a message to one instance. */
  send(replicaId: string, message: InstanceMessage): Promise<void>;
  /** Sends a message to every instance, this one included. */
  broadcast(message: InstanceMessage): Promise<void>;
  /** Which of these instances are alive (their lease is current). */
  alive(replicaIds: readonly string[]): Promise<ReadonlySet<string>>;
  /**
   * How long an instance's lease lasts (ms): an instance that stops renewing it is taken for dead
   * this long after its last renewal at most.
   */
  readonly replicaLeaseMs: number;

  /**
   * Keeps a new task (`json`, version 1) for `ttlMs`, atomically with its admission against the
   * caps: `'owner-full'` (checked first) or `'full'` refuse it. Resolved once a `loadTask` anywhere
   * finds it.
   */
  createTask(admission: SharedTaskAdmission, json: string): Promise<'created' | 'owner-full' | 'full'>;
  /** A task's record, or `undefined` once it expired (or never was). */
  loadTask(taskId: string): Promise<SharedTaskRecord | undefined>;
  /**
   * Replaces a task's JSON if its version is still `version` (its TTL kept, unless `expiresInMs`
   * shortens it); `finished` says the task ends with this write (it no longer counts among its
   * owner's unfinished tasks, nor among those its instance runs).
   */
  casTask(taskId: string, version: number, json: string, change: SharedTaskChange): Promise<'ok' | 'conflict' | 'gone'>;
  /** One page of an owner's tasks (JSON), oldest first, after the task `after` (exclusive). */
  listTasks(owner: string, after: string | undefined, limit: number): Promise<{ json: string[]; more: boolean }>;
  /** The instances recorded as running unfinished tasks. */
  taskRunners(): Promise<readonly string[]>;
  /**
   * The unfinished tasks recorded as run by an instance; ids of expired ones are forgotten on the way
   * (each instance asks for its own on its sweep, so that tasks expiring unfinished leave no trace).
   */
  tasksRunBy(replicaId: string): Promise<readonly string[]>;
}
