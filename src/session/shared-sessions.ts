import type { BufferBudget } from './buffer-budget.js';
import { Inject, Injectable, Logger, type OnApplicationShutdown, type OnModuleInit } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { inspect } from 'node:util';
import { McpStateUnavailableError } from '../errors/mcp-state-unavailable.error.js';
import type {
  InstanceMessage,
  InstanceMessageOf,
  SharedState,
  StoredEventBounds,
} from '../interfaces/mcp-shared-state.interface.js';
import { instanceMessageOf } from './instance-message.js';
import type { SessionRefusal } from '../interfaces/mcp-shared-state.interface.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { Handshake } from '../protocol/initialize.js';
import type { JsonRpcResponse, RequestId } from '../protocol/json-rpc.types.js';
import type { ClientSession, SessionEndReason } from './client-session.js';
import { STANDALONE_STREAM_ID, streamProducer } from './event-id.js';
import { replayForeignStream, type ForeignStreamReplay } from './foreign-stream.js';
import { FanoutSlices } from './fanout-slices.js';
import { RateLimitedReport } from './rate-limited-report.js';
import { setTimeout as sleep } from 'node:timers/promises';
import { SharedEventStore } from './shared-event-store.js';
import { SharedSessionCache } from './shared-session-cache.js';
import { SharedSessionFactory } from './shared-session-factory.js';
import { StandaloneHolds, type StandaloneHold } from './standalone-holds.js';

/** What the session store lends the sessions this class builds. */
export interface SharedSessionCallbacks {
  readonly onEnd: (session: ClientSession, reason: SessionEndReason) => void;
  readonly onStoreError: (error: unknown) => void;
  readonly onUnserializable: (session: ClientSession) => void;
  readonly onRootsChanged: (session: ClientSession) => void;
  /** The server's budget for undelivered messages, which every session's outbox draws on. */
  readonly budget?: BufferBudget;
}

/**
 * The 2025 sessions of this instance when `options.state.shared` shares them with other instances: records
 * read from the shared state and cached here, so a request on a cached session sends nothing to it;
 * one timer per instance writes activity in batches, notices sessions ended elsewhere and drops
 * what nobody uses. Messages between instances (answers to server requests, cancellations, ends,
 * changes) arrive here and reach the sessions they name.
 */
@Injectable()
export class SharedSessions implements OnModuleInit, OnApplicationShutdown {
  private readonly logger = new Logger('McpSharedState');
  /** The port; `undefined` without `options.state.shared` (then nothing here is used). */
  readonly shared: SharedState | undefined;
  private cacheOfSessions: SharedSessionCache | undefined;
  private readonly loading = new Map<string, Promise<ClientSession | undefined>>();
  private standaloneHolds: StandaloneHolds | undefined;
  /** Sessions ending here because they ended elsewhere (or are being deleted everywhere now). */
  private readonly endingEverywhere = new Set<string>();
  private readonly handlers: { [K in InstanceMessage['kind']]?: (message: InstanceMessageOf<K>) => void } = {};
  private readonly writes = new Set<Promise<unknown>>();
  /** Broadcasts to every session going to the shared state now, and those waiting for a place. */
  private broadcastsRunning = 0;
  /**
   * Messages from the shared state for the streams held here go out in slices, as broadcasts made
   * here do: a burst of them (a broadcast on another instance) takes a share of this instance's
   * loop, not all of it. Past the slices' bound a message is refused, and said.
   */
  private readonly deliveries = new FanoutSlices<string>((refused) => {
    this.logger.warn(
      `${refused} message(s) from the shared state for streams held here were dropped: they arrive faster than ` +
        'this instance delivers them while it serves its requests, and a million already wait',
    );
  });
  private readonly broadcastsWaiting: (() => void)[] = [];
  /** The end of the last chunk of a fan-out to the shared state and its rest (see {@link paced}). */
  private chunkTail: Promise<void> = Promise.resolve();
  /** Chunks waiting for their turn in {@link paced}. */
  private pacedWaiting = 0;
  private readonly refusedBroadcasts = new RateLimitedReport((count) =>
    this.logger.warn(
      `${count} broadcast(s) to every session refused: ${BROADCASTS_WAITING} wait for the shared state already ` +
        '(a tool broadcasts faster than Redis takes them while requests are served)',
    ),
  );
  private callbacks: SharedSessionCallbacks | undefined;
  private sessionFactory: SharedSessionFactory | undefined;
  private tickTimer: NodeJS.Timeout | undefined;
  private down = false;
  private warnedUnknownMessage = false;

  constructor(@Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions) {
    this.shared = options.state.shared?.port;
    this.on('client-response', (m) => this.cached(m.sessionId)?.settleClientRequest(m.response));
    this.on('standalone-many', (m) => this.deliveries.fanOut(m.ids, this.deliverNow(m.data), m.data.length));
    this.on('cancel-call', (m) => this.cached(m.sessionId)?.cancelCall(m.requestId, m.reason));
    this.on('session-ended', (m) => this.endHere(m.sessionId));
    this.on('session-changed', (m) => this.refresh(m.sessionId));
    this.on('stream-released', (m) => {
      // Another instance holds the stream now: what comes for it from here on is forwarded there,
      // the queued deliveries included, before the old connection has even closed.
      this.holds.let(m.sessionId);
      this.cached(m.sessionId)?.streams.detachStandalone();
    });
    this.on('roots-changed', (m) => {
      const session = this.cached(m.sessionId);
      if (session) this.callbacks?.onRootsChanged(session);
    });
  }

  /** Whether sessions are shared (`options.state.shared` is set). */
  get enabled(): boolean {
    return this.shared !== undefined;
  }

  /** This instance's id among the others. */
  get replicaId(): string {
    return this.shared!.replicaId;
  }

  /** Sessions cached here. */
  cachedSessions(): ClientSession[] {
    return this.cache.sessions();
  }

  get cacheSize(): number {
    return this.cache.size;
  }

  /** Hears messages of one kind from other instances (and this one's own broadcasts). */
  on<K extends InstanceMessage['kind']>(kind: K, handler: (message: InstanceMessageOf<K>) => void): void {
    (this.handlers as Record<K, (message: InstanceMessageOf<K>) => void>)[kind] = handler;
  }

  /**
   * A message from the shared state, checked, to the handler of its kind. One this version does not
   * know is said once: another version of mcp42 on the same key prefix (0.x beside 1.0) loses
   * answers, cancellations and session ends between the two, which would otherwise go unnoticed.
   */
  private hear(value: object): void {
    const message = instanceMessageOf(value);
    if (message) {
      (this.handlers[message.kind] as ((message: InstanceMessage) => void) | undefined)?.(message);
      return;
    }
    if (this.warnedUnknownMessage) return;
    this.warnedUnknownMessage = true;
    this.logger.warn(
      'An instance sent a message this one does not understand: is another version of mcp42 using the same ' +
        'Redis key prefix? Its answers, cancellations and session ends are lost here; give each version its own keyPrefix',
    );
  }

  /** The session store's part: how sessions built here end and report. */
  bind(callbacks: SharedSessionCallbacks): void {
    this.callbacks = callbacks;
  }

  async onModuleInit(): Promise<void> {
    if (!this.shared) return;
    const { options } = this;
    this.cacheOfSessions = new SharedSessionCache(this.shared, options.sessions.idleTimeoutMs);
    this.standaloneHolds = new StandaloneHolds(this.shared, options.limits.outboxMessages, (operation) =>
      this.guard(operation),
    );
    const callbacks = this.callbacks!;
    const store = new SharedEventStore(this.shared, this.bounds, callbacks.budget, () =>
      this.logger.warn(
        'Events on their way to the shared state filled the buffer budget (limits.bufferedChars): ' +
          'new events are sent live but not stored, so a client cannot resume to them, until writes are answered',
      ),
    );
    this.sessionFactory = new SharedSessionFactory(this.shared, options, store, {
      ...callbacks,
      guard: (operation) => this.guard(operation),
    });
    await this.shared.start({
      onMessage: (message) => this.hear(message),
      onStandalone: (sessionId, data) => this.deliverStandalone(sessionId, data),
      onAvailability: (up, cause) => this.availability(up, cause),
    });
    // One timer for every session of this instance: no timer per session, whatever their number.
    this.tickTimer = setInterval(() => {
      this.holds.retry();
      void this.cache.tick().catch(this.callbacks!.onStoreError);
    }, 1_000);
    this.tickTimer.unref();
  }

  async onApplicationShutdown(): Promise<void> {
    if (!this.shared) return;
    clearInterval(this.tickTimer);
    // What waits for its slice is owed: written (and stored) now rather than dropped.
    this.deliveries.flush();
    // Waiting broadcasts go now (and fail once the state is stopped) rather than wait for ever.
    for (const next of this.broadcastsWaiting.splice(0)) next();
    await this.cache.tick(true).catch(() => undefined);
    await Promise.allSettled([...this.writes]);
    await this.shared.stop();
  }

  /** Creates a session for an accepted `initialize`, unless a limit, across instances, refuses it. */
  async open(handshake: Handshake, owner: string | undefined): Promise<ClientSession | SessionRefusal> {
    const { shared, options } = this;
    const id = randomUUID();
    const admission = await shared!.createSession(
      {
        id,
        protocolVersion: handshake.protocolVersion,
        clientInfo: JSON.stringify(handshake.clientInfo),
        clientCapabilities: JSON.stringify(handshake.clientCapabilities),
        owner,
        logLevel: options.sessions.defaultLogLevel,
      },
      options.sessions.idleTimeoutMs,
      options.limits.sessions,
      options.limits.sessionsPerPrincipal,
    );
    if (admission !== 'created') return admission;
    const now = Date.now();
    const session = this.factory.build({
      id,
      protocolVersion: handshake.protocolVersion,
      clientInfo: handshake.clientInfo,
      clientCapabilities: handshake.clientCapabilities,
      owner,
      logLevel: options.sessions.defaultLogLevel,
      now,
    });
    this.cache.add(session, options.sessions.idleTimeoutMs, now);
    return session;
  }

  /**
   * The session with this id as the shared state knows it: from the cache while surely alive,
   * else read (once, however many requests ask at the same time).
   */
  find(id: string): ClientSession | undefined | Promise<ClientSession | undefined> {
    return this.cache.fresh(id) ?? this.loadOnce(id);
  }

  /** Ends a session everywhere (DELETE): resolves once no instance can serve it any more. */
  async endEverywhere(session: ClientSession): Promise<void> {
    await this.shared!.endSession(session.id);
    this.endHere(session.id, session);
    this.guard(this.shared!.broadcast({ kind: 'session-ended', sessionId: session.id }));
  }

  /** A client's answer that no request here waits for: to the instance whose id it carries. */
  routeResponse(session: ClientSession, response: JsonRpcResponse): boolean {
    const replica =
      typeof response.id === 'string' ? /^mcp42-([0-9a-z]{12})-[0-9]+$/.exec(response.id)?.[1] : undefined;
    if (!replica || replica === this.replicaId) return false;
    this.guard(this.shared!.send(replica, { kind: 'client-response', sessionId: session.id, response }));
    return true;
  }

  /** A cancellation of a call that does not run here: every instance tries it. */
  routeCancel(session: ClientSession, requestId: RequestId, reason: string | undefined): void {
    this.guard(
      this.shared!.broadcast({
        kind: 'cancel-call',
        sessionId: session.id,
        requestId,
        ...(reason === undefined ? {} : { reason }),
      }),
    );
  }

  /** The client's roots changed: every instance that caches the session hears it. */
  routeRootsChanged(session: ClientSession): void {
    this.guard(this.shared!.broadcast({ kind: 'roots-changed', sessionId: session.id }));
  }

  /**
   * Sends a message to the standalone stream of every session subscribed to `uri`, whichever
   * instance holds it (or into its backlog while none does): each hears it once.
   */
  async notifySubscribers(uri: string, data: string): Promise<void> {
    const shared = this.shared!;
    if (this.pacedWaiting >= BROADCASTS_WAITING) {
      this.refusedBroadcasts.refuse();
      return;
    }
    await this.holding(data, async () =>
      inChunks(await shared.subscribersOf(uri), async (ids) => {
        const outcomes = await this.paced(() =>
          shared.sendStandaloneMany(ids, data, this.options.limits.outboxMessages),
        );
        // The index outlives sessions that expired: tidied as they are met.
        for (const [id, outcome] of outcomes) if (outcome === 'gone') this.guard(shared.removeSubscription(id, uri));
      }),
    );
  }

  /**
   * Sends a message to the standalone stream of every live session of every instance. Refused, and
   * said once a second, while {@link BROADCASTS_WAITING} broadcasts wait already: a tool
   * broadcasting faster than the shared state takes them is told so rather than given memory.
   */
  async notifyEverySession(data: string): Promise<void> {
    const shared = this.shared!;
    if (this.broadcastsWaiting.length >= BROADCASTS_WAITING) {
      this.refusedBroadcasts.refuse();
      return;
    }
    await this.holding(data, async () => {
      await this.broadcastTurn();
      try {
        await inChunks(await shared.sessionIds(), (ids) =>
          this.paced(() => shared.sendStandaloneMany(ids, data, this.options.limits.outboxMessages)),
        );
      } finally {
        this.broadcastDone();
      }
    });
  }

  /**
   * Runs a fan-out of `data` while the message is held here, until every chunk is answered: it
   * counts in the budget meanwhile, and without room there it is refused (thrown).
   */
  private async holding(data: string, fanOut: () => Promise<void>): Promise<void> {
    const budget = this.callbacks?.budget;
    const release = budget ? budget.reserve(data.length) : () => undefined;
    if (!release) {
      throw new Error(
        `no room in the buffer budget (limits.bufferedChars) for a ${data.length}-character message on its way to the shared state`,
      );
    }
    try {
      await fanOut();
    } finally {
      release();
    }
  }

  /**
   * Waits for a place among the broadcasts to every session that go to the shared state at once.
   * Each sends one message per session: unchecked, a tool broadcasting in a loop would fill Redis
   * with millions of sends, and every instance's own operations would wait behind them. Those
   * waiting here are held in this process, reserved in the budget, so their number is bounded too.
   */
  private broadcastTurn(): Promise<void> {
    if (this.broadcastsRunning < BROADCASTS_AT_ONCE) {
      this.broadcastsRunning++;
      return Promise.resolve();
    }
    return new Promise((resolve) => this.broadcastsWaiting.push(resolve));
  }

  /**
   * Runs one chunk of a fan-out to the shared state when no other chunk of this instance runs, and
   * keeps the next one waiting afterwards as long as this one took: broadcasts from here take at
   * most about half of what Redis does, and the operations of requests (on every instance) get
   * through between their chunks instead of behind all of them.
   */
  private paced<T>(chunk: () => Promise<T>): Promise<T> {
    let started = 0;
    this.pacedWaiting++;
    const run = this.chunkTail.then(() => {
      this.pacedWaiting--;
      started = performance.now();
      return chunk();
    });
    const rest = (): Promise<void> => sleep(performance.now() - started);
    this.chunkTail = run.then(rest, rest);
    return run;
  }

  /** A broadcast is done: its place goes to the next one waiting. */
  private broadcastDone(): void {
    const next = this.broadcastsWaiting.shift();
    if (next) next();
    else this.broadcastsRunning--;
  }

  /** Sends a message to every instance (this one included), for what they deliver to their own streams. */
  broadcast(message: InstanceMessage): Promise<void> {
    return this.shared!.broadcast(message);
  }

  /**
   * Makes this instance the holder of the session's standalone stream (a GET arrived here):
   * `'conflict'` while a live instance holds it and the client is not resuming.
   */
  async holdStandalone(session: ClientSession, resuming: boolean): Promise<StandaloneHold | 'conflict' | 'gone'> {
    const hold = await this.holds.hold(session, resuming);
    if (hold === 'gone') session.end('idle');
    return hold;
  }

  /** A client resumes a POST stream another instance produces (see {@link replayForeignStream}). */
  replayForeign(session: ClientSession, streamId: string, afterSeq: number): Promise<ForeignStreamReplay> {
    return replayForeignStream(this.shared!, this.bounds, session, streamId, afterSeq);
  }

  /** Whether this instance produced the stream (its resume is served as in one process). */
  produces(streamId: string): boolean {
    return streamId === STANDALONE_STREAM_ID ? false : streamProducer(streamId) === this.replicaId;
  }

  /** The standalone connection of hold `generation` closed here: the stream is free for any instance. */
  releaseStandalone(session: ClientSession, generation: number): void {
    this.holds.release(session, generation);
  }

  /**
   * A message for a standalone stream this instance holds; one it does not hold (it let go, and the
   * shared state had not heard yet) goes back to whoever holds it now.
   */
  private deliverStandalone(id: string, data: string): void {
    // One message for one stream (a server request, a send of another instance's) is never refused:
    // the sender was told it is held here. Without room among the slices, it goes now.
    if (this.deliveries.fits(1, data.length)) this.deliveries.fanOut([id], this.deliverNow(data), data.length);
    else this.deliverNow(data)(id);
  }

  private deliverNow(data: string): (id: string) => boolean {
    return (id) => {
      const session = this.cache.get(id);
      if (session && this.holds.holds(id)) return session.streams.sendStandaloneEncoded(data) === 'delivered';
      this.holds.forward(id, data);
      return false;
    };
  }

  private get holds(): StandaloneHolds {
    return this.standaloneHolds!;
  }

  private get cache(): SharedSessionCache {
    return this.cacheOfSessions!;
  }

  private get factory(): SharedSessionFactory {
    return this.sessionFactory!;
  }

  /** The bounds of a session's stored events, as in memory. */
  private get bounds(): StoredEventBounds {
    const { options } = this;
    return {
      maxEvents: options.resumability.maxEvents,
      maxChars: options.resumability.maxEventChars,
      maxAgeMs: options.resumability.maxEventAgeMs,
    };
  }

  /** A session ended here: forget it; past the outbox limit it ends everywhere. */
  ended(session: ClientSession, reason: SessionEndReason): void {
    this.cache.delete(session.id);
    this.holds.drop(session.id);
    if (reason === 'overflow' && !this.endingEverywhere.has(session.id)) {
      this.guard(this.shared!.endSession(session.id));
      this.guard(this.shared!.broadcast({ kind: 'session-ended', sessionId: session.id }));
    }
  }

  private async load(id: string): Promise<ClientSession | undefined> {
    const record = await this.shared!.loadSession(id);
    const cached = this.cache.get(id);
    if (!record) {
      cached?.end('idle');
      return undefined;
    }
    const now = Date.now();
    if (cached) {
      // Calls may run on the cached object: it stays, and learns what changed.
      this.factory.apply(cached, record);
      this.cache.renew(id, record.remainingMs, now);
      return cached;
    }
    const session = this.factory.fromRecord(record, now);
    if (!session) return undefined;
    this.cache.add(session, record.remainingMs, now);
    return session;
  }

  private refresh(id: unknown): void {
    if (typeof id !== 'string' || !this.cache.get(id)) return;
    this.guard(this.loadOnce(id));
  }

  /** Reads a session, once however many ask at the same time. */
  private loadOnce(id: string): Promise<ClientSession | undefined> {
    let loading = this.loading.get(id);
    if (!loading) {
      loading = this.load(id).finally(() => this.loading.delete(id));
      this.loading.set(id, loading);
    }
    return loading;
  }

  /** The session cached here with this id (one lookup: `McpSessionRegistry.get` asks it). */
  cached(id: unknown): ClientSession | undefined {
    return typeof id === 'string' ? this.cache.get(id) : undefined;
  }

  private endHere(id: unknown, session = this.cached(id)): void {
    if (!session) return;
    this.endingEverywhere.add(session.id);
    try {
      session.end('deleted');
    } finally {
      this.endingEverywhere.delete(session.id);
    }
  }

  private availability(up: boolean, cause: unknown): void {
    if (up === !this.down) return;
    this.down = !up;
    if (up) {
      this.logger.log('Shared state is available again');
      this.holds.retry();
      // Messages sent while this instance could not hear them are lost: what it cached may be stale.
      this.cache.dropUnused();
      return;
    }
    const reason = causeText(cause);
    this.logger.warn(
      `Shared state is unavailable (${reason}); requests that need it are answered 503 until it returns`,
    );
  }

  /** A write nobody waits for: its failure must not become an unhandled rejection. */
  private guard(operation: Promise<unknown>): void {
    const tracked = operation.catch((error: unknown) => {
      if (!(error instanceof McpStateUnavailableError)) this.callbacks?.onStoreError(error);
    });
    this.writes.add(tracked);
    void tracked.finally(() => this.writes.delete(tracked));
  }
}

/** Broadcasts to every session (one message per session) that go to the shared state at once, per instance. */
const BROADCASTS_AT_ONCE = 4;
/** Broadcasts to every session that may wait for a place (see {@link SharedSessions.notifyEverySession}). */
const BROADCASTS_WAITING = 1_000;

/**
 * Runs `task` on the ids a bounded number at a time, one after the other: each batch is one
 * operation of the shared state, so a fan-out to thousands of sessions neither takes every place
 * under `maxPendingOperations` from the requests served meanwhile nor sends them all at once.
 */
async function inChunks(ids: readonly string[], task: (batch: readonly string[]) => Promise<unknown>): Promise<void> {
  const BATCH = 200;
  for (let start = 0; start < ids.length; start += BATCH) await task(ids.slice(start, start + BATCH));
}

/** The cause of an outage, for the log: a SharedState of one's own may give anything, an object too. */
function causeText(cause: unknown): string {
  if (cause instanceof Error) return cause.message;
  if (typeof cause === 'string') return cause;
  return cause === undefined || cause === null ? 'unknown cause' : inspect(cause);
}
