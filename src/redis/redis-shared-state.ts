import type { McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';
import type {
  LoadedSessionRecord,
  SharedState,
  InstanceMessage,
  SessionAdmission,
  SharedSessionRecord,
  SharedTaskAdmission,
  SharedTaskChange,
  SharedTaskRecord,
  SharedStateHooks,
  StandaloneClaim,
  StoredEventBounds,
} from '../interfaces/mcp-shared-state.interface.js';
import {
  closeConnection,
  IncompatibleRedisError,
  isReady,
  openConnections,
  VersionCheck,
  whenReady,
  type RedisConnections,
} from './redis-connections.js';
import { AvailabilityReport } from './redis-availability.js';
import { RedisKeys } from './redis-keys.js';
import { RedisLease } from './redis-lease.js';
import { RedisOps } from './redis-ops.js';
import { RedisRouting } from './redis-routing.js';
import { newReplicaId } from './redis-replica.js';
import { RedisScripts } from './redis-scripts.js';
import { RedisSessionRecords } from './redis-session-records.js';
import type { ResolvedRedisStateOptions } from './redis-state-options.js';
import { RedisSubscriber } from './redis-subscriber.js';
import { RedisTaskRecords } from './redis-task-records.js';

/** What exists once started. */
interface Live {
  readonly connections: RedisConnections;
  readonly lease: RedisLease;
  readonly records: RedisSessionRecords;
  readonly tasks: RedisTaskRecords;
  readonly routing: RedisRouting;
  readonly subscriber: RedisSubscriber;
  readonly version: VersionCheck;
}

/**
 * The port of shared state ({@link SharedState}) on Redis. Two duplicates of the user's client
 * (commands; pub/sub), every operation through one gate ({@link RedisOps}), one lease renewed by
 * one unref'd interval. Availability changes reach `hooks.onAvailability` once per change; the
 * baseline is "up", so a Redis unreachable at start is reported down when `start` gives up waiting.
 * @internal
 */
export class RedisSharedState implements SharedState {
  readonly replicaId = newReplicaId();
  private readonly keys: RedisKeys;
  private readonly ops: RedisOps;
  private live: Live | undefined;
  private started = false;
  private stopped = false;
  private readonly report = new AvailabilityReport(() => this.available);
  private lastError: unknown;
  private leaseTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: ResolvedRedisStateOptions) {
    this.keys = new RedisKeys(options.keyPrefix);
    this.ops = new RedisOps({
      maxPendingOperations: options.maxPendingOperations,
      connected: () => this.connected(),
      lastError: () => this.live?.version.incompatible ?? this.lastError,
      probe: () => this.live?.connections.command.ping() ?? Promise.reject(new Error('not started')),
      onBreaker: (_open, cause) => this.refresh(cause),
    });
  }

  get available(): boolean {
    return this.connected() && !this.ops.open;
  }

  get replicaLeaseMs(): number {
    return this.options.replicaLeaseMs;
  }

  get namespace(): string {
    return this.options.keyPrefix;
  }

  async start(hooks: SharedStateHooks): Promise<void> {
    if (this.started) {
      throw new Error('redisState: this state was started already; call redisState() once per McpModule');
    }
    this.started = true;
    const live = this.open(hooks);
    // Queued on the subscriber until it connects, and sent again by ioredis after every reconnect.
    const listening = live.subscriber.listen();
    listening.catch(() => undefined);
    this.leaseTimer = setInterval(() => this.tick(), Math.floor(this.options.replicaLeaseMs / 3));
    this.leaseTimer.unref();

    const { command, subscriber } = live.connections;
    const ready = await whenReady([command, subscriber], this.options.connectTimeoutMs);
    let failure: unknown = ready
      ? undefined
      : (this.lastError ?? new Error(`Redis did not become ready within ${this.options.connectTimeoutMs} ms`));
    if (ready && !this.stopped) {
      try {
        await live.version.run();
        await listening;
        await this.ops.run(() => live.lease.renew());
      } catch (error) {
        if (error instanceof IncompatibleRedisError) {
          await this.stop();
          throw error;
        }
        // Anything else is an outage like any other: reported below, retried by `prepare`.
        failure = error;
      }
    }
    this.report.arm(hooks);
    this.refresh(failure);
  }

  async stop(): Promise<void> {
    const live = this.live;
    if (!live || this.stopped) return;
    this.report.disarm();
    clearInterval(this.leaseTimer);
    this.ops.dispose();
    if (this.available) {
      await Promise.allSettled(live.subscriber.heldSessions.map((sid) => this.releaseStandalone(sid)));
      await this.ops.run(() => live.lease.drop()).catch(() => undefined);
    }
    this.stopped = true;
    live.subscriber.detach();
    const timeout = this.options.operationTimeoutMs;
    await Promise.all([
      closeConnection(live.connections.command, timeout),
      closeConnection(live.connections.subscriber, timeout),
    ]);
  }

  createSession(
    record: SharedSessionRecord,
    idleMs: number,
    maxSessions: number,
    maxPerOwner: number,
  ): Promise<SessionAdmission> {
    return this.use((live) => live.records.create(record, idleMs, maxSessions, maxPerOwner));
  }

  loadSession(id: string): Promise<LoadedSessionRecord | undefined> {
    return this.use((live) => live.records.load(id));
  }

  setSessionField(id: string, field: 'll' | 'in', value: string): Promise<void> {
    return this.use((live) => live.records.setField(id, field, value));
  }

  addSubscription(id: string, uri: string, maxCount: number, maxChars: number): Promise<'ok' | 'limit' | 'gone'> {
    return this.use((live) => live.records.addSubscription(id, uri, maxCount, maxChars));
  }

  removeSubscription(id: string, uri: string): Promise<void> {
    return this.use((live) => live.records.removeSubscription(id, uri));
  }

  subscribersOf(uri: string): Promise<readonly string[]> {
    return this.use((live) => live.records.subscribersOf(uri));
  }

  sessionIds(): Promise<readonly string[]> {
    return this.use((live) => live.records.sessionIds());
  }

  touch(sessions: ReadonlyMap<string, number>): Promise<readonly string[]> {
    return this.use((live) => live.records.touch(sessions));
  }

  remaining(ids: readonly string[]): Promise<ReadonlyMap<string, number>> {
    return this.use((live) => live.records.remaining(ids));
  }

  endSession(id: string): Promise<void> {
    return this.use((live) => live.records.end(id));
  }

  countSessions(): Promise<number> {
    return this.use((live) => live.records.count());
  }

  appendEvent(id: string, event: McpStoredEvent, bounds: StoredEventBounds, waitedOn = false): Promise<void> {
    return this.use((live) => live.records.appendEvent(id, event, bounds), !waitedOn);
  }

  replayEvents(id: string, streamId: string, afterSeq: number): Promise<readonly McpStoredEvent[]> {
    return this.use((live) => live.records.replayEvents(id, streamId, afterSeq));
  }

  deleteStream(id: string, streamId: string): Promise<void> {
    return this.use((live) => live.records.deleteStream(id, streamId));
  }

  markStream(id: string, streamId: string, requestIds: string | undefined): Promise<void> {
    return this.use((live) => live.records.markStream(id, streamId, requestIds));
  }

  streamRequests(id: string, streamId: string): Promise<string | undefined> {
    return this.use((live) => live.records.streamRequests(id, streamId));
  }

  claimStandalone(id: string, force: boolean): Promise<StandaloneClaim> {
    return this.use((live) => live.routing.claim(id, force));
  }

  releaseStandalone(id: string): Promise<void> {
    return this.use((live) => live.routing.release(id));
  }

  sendStandalone(id: string, data: string, backlogLimit: number): Promise<'held' | 'queued' | 'gone'> {
    return this.use((live) => live.routing.sendStandalone(id, data, backlogLimit));
  }
  sendStandaloneMany(
    ids: readonly string[],
    data: string,
    backlogLimit: number,
  ): Promise<ReadonlyMap<string, 'held' | 'queued' | 'gone'>> {
    return this.use((live) => live.routing.sendStandaloneMany(ids, data, backlogLimit));
  }

  send(replicaId: string, message: InstanceMessage): Promise<void> {
    return this.use((live) => live.routing.send(replicaId, message));
  }

  broadcast(message: InstanceMessage): Promise<void> {
    return this.use((live) => live.routing.broadcast(message));
  }

  alive(replicaIds: readonly string[]): Promise<ReadonlySet<string>> {
    return this.use((live) => live.routing.alive(replicaIds));
  }

  createTask(admission: SharedTaskAdmission, json: string): Promise<'created' | 'owner-full' | 'full'> {
    return this.use((live) => live.tasks.create(admission, json));
  }

  loadTask(taskId: string): Promise<SharedTaskRecord | undefined> {
    return this.use((live) => live.tasks.load(taskId));
  }

  casTask(
    taskId: string,
    version: number,
    json: string,
    change: SharedTaskChange,
  ): Promise<'ok' | 'conflict' | 'gone'> {
    return this.use((live) => live.tasks.cas(taskId, version, json, change));
  }

  listTasks(owner: string, after: string | undefined, limit: number): Promise<{ json: string[]; more: boolean }> {
    return this.use((live) => live.tasks.list(owner, after, limit));
  }

  taskRunners(): Promise<readonly string[]> {
    return this.use((live) => live.tasks.runners());
  }

  tasksRunBy(replicaId: string): Promise<readonly string[]> {
    return this.use((live) => live.tasks.runBy(replicaId, replicaId === this.replicaId));
  }

  /** Runs an operation through the gate; before `start` the gate refuses (not connected). */
  /** @param background a write no request waits on (see {@link RedisOps.run}). */
  private use<T>(operation: (live: Live) => Promise<T>, background = false): Promise<T> {
    return this.ops.run(() => operation(this.live as Live), background);
  }

  /** Opens both connections and what works on them, listening to their state. */
  private open(hooks: SharedStateHooks): Live {
    const connections = openConnections(this.options.client, this.replicaId, this.options.operationTimeoutMs);
    const scripts = new RedisScripts(connections.command);
    const subscriber = new RedisSubscriber(connections.subscriber, this.keys, this.replicaId, {
      onMessage: (message) => hooks.onMessage(message),
      onStandalone: (sid, data) => hooks.onStandalone(sid, data),
    });
    for (const connection of [connections.command, connections.subscriber]) {
      // Without a listener ioredis would print each error; they are reported once per outage instead.
      connection.on('error', (error: unknown) => (this.lastError = error));
      connection.on('close', () => this.refresh(this.lastError ?? new Error('The connection to Redis closed')));
      connection.on('ready', () => this.onReady());
    }
    this.live = {
      connections,
      lease: new RedisLease(connections.command, this.keys.lease(this.replicaId), this.options.replicaLeaseMs),
      subscriber,
      version: new VersionCheck(connections.command),
      records: new RedisSessionRecords(connections.command, scripts, this.keys),
      tasks: new RedisTaskRecords(connections.command, scripts, this.keys),
      routing: new RedisRouting(connections.command, scripts, subscriber, this.keys, this.replicaId),
    };
    return this.live;
  }

  private connected(): boolean {
    const live = this.live;
    return (
      live !== undefined &&
      !this.stopped &&
      live.version.ok &&
      live.subscriber.listening &&
      isReady(live.connections.command) &&
      isReady(live.connections.subscriber)
    );
  }

  /** A connection became ready (first connect, or back after an outage). */
  private onReady(): void {
    if (this.live && isReady(this.live.connections.command)) this.ops.reset();
    this.lastError = undefined;
    this.prepare();
  }

  /** Once per third of the lease: renews it, or finishes what a failed `prepare` left undone. */
  private tick(): void {
    const live = this.live;
    if (!live) return;
    if (live.version.ok && live.subscriber.listening) this.renewLease();
    else if (!live.version.incompatible && isReady(live.connections.command) && isReady(live.connections.subscriber)) {
      this.prepare();
    }
  }

  /** Checks the version (once) and subscribes (until it worked once), then renews the lease and reports. */
  private prepare(): void {
    const live = this.live;
    if (!live) return;
    Promise.all([live.version.run(), live.subscriber.listening ? undefined : live.subscriber.listen()]).then(
      () => {
        this.renewLease();
        this.refresh();
      },
      (error: unknown) => this.refresh(error),
    );
  }

  private renewLease(): void {
    const live = this.live;
    if (live && this.available) this.ops.run(() => live.lease.renew()).catch(() => undefined);
  }

  /** Reports a change of availability, if any; `cause` explains a fall, when known. */
  private refresh(cause?: unknown): void {
    this.report.update(cause ?? this.live?.version.incompatible ?? this.lastError);
  }
}
