import type { McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';
import type {
  LoadedSessionRecord,
  SessionAdmission,
  SharedSessionRecord,
  StoredEventBounds,
} from '../interfaces/mcp-shared-state.interface.js';
import type { RedisKeys } from './redis-keys.js';
import type { RedisConnection, RedisScripts } from './redis-scripts.js';

/** Sessions per `touchIndex` script: one script blocks Redis while it runs, so keep each short. */
const INDEX_BATCH = 500;

/**
 * Session records, subscriptions and stored events in Redis: the session half of the port, without
 * the gate (the caller runs each method through it).
 * @internal
 */
export class RedisSessionRecords {
  constructor(
    private readonly command: RedisConnection,
    private readonly scripts: RedisScripts,
    private readonly keys: RedisKeys,
  ) {}

  /**
   * Admits the session (into the index, and an owned one into its owner's set, whatever the limit:
   * instances configured apart, or one reconfigured, still count every session), then writes it.
   */
  async create(
    record: SharedSessionRecord,
    idleMs: number,
    maxSessions: number,
    maxPerOwner: number,
  ): Promise<SessionAdmission> {
    const { index } = this.keys;
    const owner = record.owner === undefined ? undefined : this.keys.owner(record.owner);
    const admission = await this.scripts.admit(index, owner, record.id, idleMs, maxSessions, maxPerOwner);
    if (admission !== 'created') return admission;
    const fields: [string, string][] = [
      ['v', record.protocolVersion],
      ['ci', record.clientInfo],
      ['cc', record.clientCapabilities],
      ['ll', record.logLevel],
    ];
    if (record.owner !== undefined) fields.push(['o', record.owner]);
    try {
      await this.scripts.create(this.keys.record(record.id), idleMs, fields);
    } catch (error) {
      // Admitted without a record: give the places back rather than hold them until the deadline.
      for (const key of owner === undefined ? [index] : [index, owner]) {
        this.command.zrem(key, record.id).catch(() => undefined);
      }
      throw error;
    }
    return 'created';
  }

  async load(id: string): Promise<LoadedSessionRecord | undefined> {
    const loaded = await this.scripts.load(this.keys.record(id), this.keys.subscriptions(id));
    if (!loaded) return undefined;
    const { fields } = loaded;
    return {
      id,
      protocolVersion: fields.v ?? '',
      clientInfo: fields.ci ?? '',
      clientCapabilities: fields.cc ?? '',
      ...(fields.o === undefined ? {} : { owner: fields.o }),
      logLevel: fields.ll ?? '',
      initialized: fields.in === '1',
      subscriptions: loaded.uris,
      remainingMs: remainingOf(loaded.ttl),
    };
  }

  async setField(id: string, field: 'll' | 'in', value: string): Promise<void> {
    await this.scripts.setField(this.keys.record(id), field, value);
  }

  async addSubscription(id: string, uri: string, maxCount: number, maxChars: number): Promise<'ok' | 'limit' | 'gone'> {
    const keys = [this.keys.record(id), this.keys.subscriptions(id)] as const;
    const added = await this.scripts.subscribe(keys, uri, maxCount, maxChars);
    // The index by URI lives in another slot: written second, and again for a URI already there
    // (a retry after this step failed repairs it).
    if (added.outcome === 'ok') await this.scripts.indexSubscriber(this.keys.subscribers(uri), id, added.ttl);
    return added.outcome;
  }

  async removeSubscription(id: string, uri: string): Promise<void> {
    await Promise.all([
      this.scripts.unsubscribe([this.keys.record(id), this.keys.subscriptions(id)], uri),
      this.command.srem(this.keys.subscribers(uri), id),
    ]);
  }

  /** Raw members: a session that expired stays listed until its id is removed or the index expires. */
  subscribersOf(uri: string): Promise<string[]> {
    return this.command.smembers(this.keys.subscribers(uri));
  }

  sessionIds(): Promise<string[]> {
    return this.scripts.live(this.keys.index);
  }

  async touch(sessions: ReadonlyMap<string, number>): Promise<readonly string[]> {
    if (sessions.size === 0) return [];
    const entries = [...sessions];
    // Auto-pipelining sends these together. The indexes live in other slots, so they come second,
    // and only for the sessions still there (`XX` would not re-add a removed one anyway).
    const found = await Promise.all(
      entries.map(([sid, idleMs]) => this.scripts.touch(this.keys.sessionKeys(sid), idleMs)),
    );
    // The owner's set of a gone session is unknown (its record is): its member there lapses with its deadline.
    const deadlines = entries.map(([sid, idleMs], index): [string, number, string | undefined] => {
      const owner = found[index]?.owner;
      return [sid, found[index] ? idleMs : -1, owner === undefined ? undefined : this.keys.owner(owner)];
    });
    const batches: [string, number, string | undefined][][] = [];
    for (let start = 0; start < deadlines.length; start += INDEX_BATCH) {
      batches.push(deadlines.slice(start, start + INDEX_BATCH));
    }
    // Each URI's index lives as long as the longest-lived session subscribed to it.
    const uriLife = new Map<string, number>();
    entries.forEach(([, idleMs], index) => {
      for (const uri of found[index]?.uris ?? []) uriLife.set(uri, Math.max(uriLife.get(uri) ?? 0, idleMs));
    });
    await Promise.all([
      ...batches.map((batch) => this.scripts.touchIndex(this.keys.index, batch)),
      ...[...uriLife].map(([uri, ttl]) => this.scripts.stretch(this.keys.subscribers(uri), ttl)),
    ]);
    return entries.filter((_, index) => !found[index]).map(([sid]) => sid);
  }

  async remaining(ids: readonly string[]): Promise<ReadonlyMap<string, number>> {
    const ttls = await Promise.all(ids.map((id) => this.command.pttl(this.keys.record(id))));
    return new Map(ids.map((id, index) => [id, remainingOf(ttls[index]!)]));
  }

  async end(id: string): Promise<void> {
    const [{ uris, owner }] = await Promise.all([
      this.scripts.end(this.keys.sessionKeys(id)),
      this.command.zrem(this.keys.index, id),
    ]);
    // Known once the record is read: its owner's set gives the place back now, not at the deadline.
    await Promise.all([
      ...uris.map((uri) => this.command.srem(this.keys.subscribers(uri), id)),
      ...(owner === undefined ? [] : [this.command.zrem(this.keys.owner(owner), id)]),
    ]);
  }

  count(): Promise<number> {
    return this.scripts.count(this.keys.index);
  }

  appendEvent(id: string, event: McpStoredEvent, bounds: StoredEventBounds): Promise<void> {
    return this.scripts.append([this.keys.record(id), this.keys.events(id)], event, bounds);
  }

  async replayEvents(id: string, streamId: string, afterSeq: number): Promise<readonly McpStoredEvent[]> {
    const events = await this.scripts.replay([this.keys.record(id), this.keys.events(id)], streamId, afterSeq);
    return events.map(([seq, data]) => ({ streamId, seq, data }));
  }

  deleteStream(id: string, streamId: string): Promise<void> {
    return this.scripts.deleteStream([this.keys.record(id), this.keys.events(id)], streamId);
  }

  async markStream(id: string, streamId: string, requestIds: string | undefined): Promise<void> {
    await this.scripts.setField(this.keys.record(id), `ps:${streamId}`, requestIds);
  }

  async streamRequests(id: string, streamId: string): Promise<string | undefined> {
    return (await this.command.hget(this.keys.record(id), `ps:${streamId}`)) ?? undefined;
  }
}

/** `PTTL` as time left: negative when the key is gone; a key without TTL (never ours) never expires. */
function remainingOf(ttl: number): number {
  if (ttl === -1) return Number.MAX_SAFE_INTEGER;
  return ttl < 0 ? -1 : ttl;
}
