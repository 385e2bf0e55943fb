import { useRedisStates } from '../../test/internals/redis-states.js';
import { delay } from '../../test/utils/wait.js';
import type { SharedState, SharedSessionRecord } from '../interfaces/mcp-shared-state.interface.js';

const PREFIX = 'recs:';
const IDLE_MS = 60_000;
const BOUNDS = { maxEvents: 100, maxChars: 100_000, maxAgeMs: 60_000 };
const redis = useRedisStates();
const startState = (keyPrefix = PREFIX): Promise<SharedState> => redis.start(keyPrefix);
let nextId = 0;

const record = (overrides: Partial<SharedSessionRecord> = {}): SharedSessionRecord => ({
  id: `sess-${++nextId}`,
  protocolVersion: '2025-06-18',
  clientInfo: '{"name":"c","version":"1"}',
  clientCapabilities: '{"roots":{}}',
  owner: 'alice',
  logLevel: 'info',
  ...overrides,
});

/** A session created on `state` with the default idle time. */
async function session(state: SharedState, overrides: Partial<SharedSessionRecord> = {}): Promise<string> {
  const created = record(overrides);
  expect(await state.createSession(created, IDLE_MS, 1_000, Infinity)).toBe('created');
  return created.id;
}

const ev = (streamId: string, seq: number, data = `{"n":${seq}}`) => ({ streamId, seq, data });

let state: SharedState;

beforeAll(async () => {
  state = await startState();
});

describe('RedisSharedState: session records', () => {
  it('creates a record and loads it back with its subscriptions and the time it has left', async () => {
    const id = await session(state);
    await state.setSessionField(id, 'll', 'debug');
    await state.setSessionField(id, 'in', '1');
    expect(await state.addSubscription(id, 'file:///a', 10, 1_000)).toBe('ok');
    const loaded = await state.loadSession(id);
    expect(loaded).toMatchObject({
      id,
      protocolVersion: '2025-06-18',
      clientInfo: '{"name":"c","version":"1"}',
      clientCapabilities: '{"roots":{}}',
      owner: 'alice',
      logLevel: 'debug',
      initialized: true,
      subscriptions: ['file:///a'],
    });
    expect(loaded!.remainingMs).toBeGreaterThan(IDLE_MS - 5_000);
    expect(loaded!.remainingMs).toBeLessThanOrEqual(IDLE_MS);

    const anonymous = await session(state, { owner: undefined });
    const plain = await state.loadSession(anonymous);
    expect(plain).not.toHaveProperty('owner');
    expect(plain).toMatchObject({ initialized: false, subscriptions: [] });
    expect(await state.loadSession('never-was')).toBeUndefined();
  });

  it('caps live sessions across instances, and an expired one frees its place', async () => {
    const prefix = 'cap:';
    const [one, two] = [await startState(prefix), await startState(prefix)];
    expect(await one.createSession(record(), IDLE_MS, 2, Infinity)).toBe('created');
    const short = record();
    expect(await two.createSession(short, 300, 2, Infinity)).toBe('created');
    expect(await one.createSession(record(), IDLE_MS, 2, Infinity)).toBe('full');
    expect(await two.createSession(record(), IDLE_MS, 2, Infinity)).toBe('full');
    expect(await one.countSessions()).toBe(2);
    // Refused sessions leave nothing behind.
    expect(await redis.server().keys(`${prefix}s:*`)).toHaveLength(2);

    await delay(400);
    expect(await one.loadSession(short.id)).toBeUndefined();
    expect(await two.countSessions()).toBe(1);
    expect(await one.createSession(record(), IDLE_MS, 2, Infinity)).toBe('created');
    expect(await one.countSessions()).toBe(2);
  });

  it('touches live sessions (their keys and deadline) and reports the ones that are gone', async () => {
    const id = await session(state);
    expect(await state.appendEvent(id, ev('g', 1), BOUNDS)).toBeUndefined();
    expect(await state.addSubscription(id, 'file:///t', 10, 1_000)).toBe('ok');
    const gone = await state.touch(
      new Map([
        [id, 120_000],
        ['gone-one', 1_000],
      ]),
    );
    expect(gone).toEqual(['gone-one']);
    for (const key of [`${PREFIX}s:{${id}}`, `${PREFIX}s:{${id}}:e`, `${PREFIX}s:{${id}}:u`]) {
      expect(await redis.server().value('PTTL', key)).toBeGreaterThan(IDLE_MS);
    }
    const [seconds] = (await redis.server().value('TIME')) as [string];
    const deadline = Number(await redis.server().value('ZSCORE', `${PREFIX}{g}:idx`, id));
    expect(deadline).toBeGreaterThan(Number(seconds) * 1000 + IDLE_MS);
    // A gone session is not put back in the index.
    expect(await redis.server().value('ZSCORE', `${PREFIX}{g}:idx`, 'gone-one')).toBeNull();
    expect(await state.touch(new Map())).toEqual([]);
  });

  it('tells the time left per session, negative for one that is gone', async () => {
    const id = await session(state);
    const left = await state.remaining([id, 'gone-two']);
    expect(left.get(id)).toBeGreaterThan(IDLE_MS - 5_000);
    expect(left.get('gone-two')).toBeLessThan(0);
  });

  it('ends a session everywhere: every key of it goes, and its place in the cap', async () => {
    const id = await session(state);
    await state.addSubscription(id, 'file:///e', 10, 1_000);
    await state.appendEvent(id, ev('g', 1), BOUNDS);
    expect(await state.sendStandalone(id, 'queued', 10)).toBe('queued');
    expect(await redis.server().keys(`${PREFIX}s:{${id}}*`)).toHaveLength(4);
    await state.endSession(id);
    expect(await redis.server().keys(`*${id}*`)).toEqual([]);
    expect(await redis.server().value('ZSCORE', `${PREFIX}{g}:idx`, id)).toBeNull();
    expect(await state.loadSession(id)).toBeUndefined();
  });

  it('writes nothing for a session that is gone', async () => {
    await state.setSessionField('gone-three', 'll', 'debug');
    expect(await state.addSubscription('gone-three', 'file:///x', 10, 1_000)).toBe('gone');
    await state.removeSubscription('gone-three', 'file:///x');
    await state.appendEvent('gone-three', ev('g', 1), BOUNDS);
    await state.markStream('gone-three', 'p1', '[1]');
    expect(await state.sendStandalone('gone-three', 'data', 10)).toBe('gone');
    expect(await state.claimStandalone('gone-three', false)).toEqual({ outcome: 'gone' });
    expect(await state.replayEvents('gone-three', 'g', 0)).toEqual([]);
    expect(await redis.server().keys('*gone-three*')).toEqual([]);
  });

  it('bounds subscriptions by count and characters, freeing them on unsubscribe', async () => {
    const id = await session(state);
    expect(await state.addSubscription(id, 'a://12345', 2, 20)).toBe('ok');
    expect(await state.addSubscription(id, 'a://12345', 2, 20)).toBe('ok');
    expect(await state.addSubscription(id, 'b://123456789012', 2, 20)).toBe('limit');
    expect(await state.addSubscription(id, 'b://1234', 2, 20)).toBe('ok');
    expect(await state.addSubscription(id, 'c://1', 2, 20)).toBe('limit');
    await state.removeSubscription(id, 'a://12345');
    await state.removeSubscription(id, 'a://12345');
    expect(await state.addSubscription(id, 'c://12345678', 2, 20)).toBe('ok');
    expect([...(await state.loadSession(id))!.subscriptions].sort()).toEqual(['b://1234', 'c://12345678']);
    expect(await redis.server().value('HGET', `${PREFIX}s:{${id}}`, 'uc')).toBe('20');
    expect(await redis.server().value('PTTL', `${PREFIX}s:{${id}}:u`)).toBeGreaterThan(IDLE_MS - 5_000);
  });

  it('indexes subscriptions by URI for as long as the sessions live, and unindexes them', async () => {
    const uri = 'res://{braces}/and more';
    const own = await startState('uri:');
    const [one, two] = [await session(own), await session(own)];
    expect(await own.subscribersOf(uri)).toEqual([]);
    expect(await own.addSubscription(one, uri, 10, 1_000)).toBe('ok');
    expect(await own.addSubscription(two, uri, 10, 1_000)).toBe('ok');
    expect([...(await own.subscribersOf(uri))].sort()).toEqual([one, two].sort());
    const [index] = await redis.server().keys('uri:u:*');
    expect(index).not.toContain('{');
    expect(await redis.server().value('PTTL', index!)).toBeGreaterThan(IDLE_MS - 5_000);
    await own.touch(new Map([[one, IDLE_MS * 2]]));
    expect(await redis.server().value('PTTL', index!)).toBeGreaterThan(IDLE_MS * 2 - 5_000);

    await own.removeSubscription(one, uri);
    expect(await own.subscribersOf(uri)).toEqual([two]);
    await own.endSession(two);
    expect(await own.subscribersOf(uri)).toEqual([]);
    // A session that expired is removed from the index even though its record is gone.
    await redis.server().command('SADD', index!, 'expired-one');
    await own.removeSubscription('expired-one', uri);
    expect(await redis.server().keys('uri:u:*')).toEqual([]);
  });

  it('lists the live sessions of every instance', async () => {
    const prefix = 'ids:';
    const [one, two] = [await startState(prefix), await startState(prefix)];
    const [a, b, c] = [record(), record(), record()];
    await one.createSession(a, IDLE_MS, 10, Infinity);
    await two.createSession(b, IDLE_MS, 10, Infinity);
    await two.createSession(c, 200, 10, Infinity);
    expect([...(await one.sessionIds())].sort()).toEqual([a.id, b.id, c.id].sort());
    await one.endSession(a.id);
    await delay(300);
    expect(await two.sessionIds()).toEqual([b.id]);
  });

  it('marks running POST streams and forgets them', async () => {
    const id = await session(state);
    expect(await state.streamRequests(id, 'p1')).toBeUndefined();
    await state.markStream(id, 'p1', '[1,"two"]');
    expect(await state.streamRequests(id, 'p1')).toBe('[1,"two"]');
    await state.markStream(id, 'p1', undefined);
    expect(await state.streamRequests(id, 'p1')).toBeUndefined();
  });
});

describe('RedisSharedState: stored events', () => {
  it('replays the events of one stream after a position, in order', async () => {
    const id = await session(state);
    for (const [stream, seq] of [
      ['g', 1],
      ['p1', 2],
      ['g', 3],
      ['p1', 4],
      ['g', 5],
    ] as const) {
      await state.appendEvent(id, ev(stream, seq), BOUNDS);
    }
    expect(await state.replayEvents(id, 'g', 0)).toStrictEqual([ev('g', 1), ev('g', 3), ev('g', 5)]);
    expect(await state.replayEvents(id, 'g', 3)).toStrictEqual([ev('g', 5)]);
    expect(await state.replayEvents(id, 'p1', 2)).toStrictEqual([ev('p1', 4)]);
    expect(await state.replayEvents(id, 'p2', 0)).toStrictEqual([]);
    expect(await redis.server().value('PTTL', `${PREFIX}s:{${id}}:e`)).toBeGreaterThan(IDLE_MS - 5_000);
  });

  it('keeps at most maxEvents, dropping the oldest', async () => {
    const id = await session(state);
    for (let seq = 1; seq <= 5; seq++) await state.appendEvent(id, ev('g', seq), { ...BOUNDS, maxEvents: 3 });
    expect((await state.replayEvents(id, 'g', 0)).map((event) => event.seq)).toEqual([3, 4, 5]);
    expect(await redis.server().value('XLEN', `${PREFIX}s:{${id}}:e`)).toBe(3);
  });

  it('keeps at most maxChars characters, but never drops the newest event for its size', async () => {
    const id = await session(state);
    const bounds = { ...BOUNDS, maxChars: 10 };
    for (let seq = 1; seq <= 3; seq++) await state.appendEvent(id, ev('g', seq, 'ééé' + seq), bounds);
    // 4 characters each (not 7 bytes): three would be 12 > 10, so the first goes.
    expect((await state.replayEvents(id, 'g', 0)).map((event) => event.seq)).toEqual([2, 3]);
    expect(await redis.server().value('HGET', `${PREFIX}s:{${id}}`, 'ec')).toBe('8');
    await state.appendEvent(id, ev('g', 4, 'x'.repeat(50)), bounds);
    expect(await state.replayEvents(id, 'g', 0)).toStrictEqual([ev('g', 4, 'x'.repeat(50))]);
    expect(await redis.server().value('HGET', `${PREFIX}s:{${id}}`, 'ec')).toBe('50');
  });

  it('drops events older than maxAgeMs, and never replays one', async () => {
    const id = await session(state);
    const bounds = { ...BOUNDS, maxAgeMs: 200 };
    await state.appendEvent(id, ev('g', 1), bounds);
    await delay(300);
    expect(await state.replayEvents(id, 'g', 0)).toEqual([]);
    await state.appendEvent(id, ev('g', 2), bounds);
    expect(await redis.server().value('XLEN', `${PREFIX}s:{${id}}:e`)).toBe(1);
    expect(await state.replayEvents(id, 'g', 0)).toStrictEqual([ev('g', 2)]);
  });

  it('forgets one stream, keeping the others and the character count right', async () => {
    const id = await session(state);
    await state.appendEvent(id, ev('g', 1, 'aaa'), BOUNDS);
    await state.appendEvent(id, ev('p1', 2, 'bbbbb'), BOUNDS);
    await state.appendEvent(id, ev('p1', 3, 'cc'), BOUNDS);
    await state.deleteStream(id, 'p1');
    expect(await state.replayEvents(id, 'p1', 0)).toEqual([]);
    expect(await state.replayEvents(id, 'g', 0)).toStrictEqual([ev('g', 1, 'aaa')]);
    expect(await redis.server().value('HGET', `${PREFIX}s:{${id}}`, 'ec')).toBe('3');
    await state.deleteStream(id, 'g');
    expect(await redis.server().keys(`${PREFIX}s:{${id}}:e`)).toEqual([]);
    expect(await redis.server().value('HGET', `${PREFIX}s:{${id}}`, 'ec')).toBe('0');
  });

  it('does not recreate the events of a session that ended', async () => {
    const id = await session(state);
    await state.appendEvent(id, ev('g', 1), BOUNDS);
    await state.endSession(id);
    await state.appendEvent(id, ev('g', 2), BOUNDS);
    await state.deleteStream(id, 'g');
    expect(await redis.server().keys(`*${id}*`)).toEqual([]);
  });
});
