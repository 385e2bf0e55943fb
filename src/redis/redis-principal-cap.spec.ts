import { createHash } from 'node:crypto';
import { useRedisStates } from '../../test/internals/redis-states.js';
import { delay } from '../../test/utils/wait.js';
import type { SharedState, SharedSessionRecord } from '../interfaces/mcp-shared-state.interface.js';

const IDLE_MS = 60_000;
const redis = useRedisStates();
const startState = (keyPrefix: string): Promise<SharedState> => redis.start(keyPrefix);
let nextId = 0;

const record = (owner: string | undefined): SharedSessionRecord => ({
  id: `sess-${++nextId}`,
  protocolVersion: '2025-06-18',
  clientInfo: '{"name":"c","version":"1"}',
  clientCapabilities: '{}',
  logLevel: 'info',
  ...(owner === undefined ? {} : { owner }),
});

/** The key of a principal's set of sessions, as the adapter names it. */
const ownerKey = (prefix: string, principal: string): string =>
  `${prefix}{g}:o:${createHash('sha256').update(principal).digest('base64url')}`;

describe('RedisSharedState: sessions per principal', () => {
  it("caps a principal's sessions across instances, and no one else's", async () => {
    const prefix = 'own-cap:';
    const [one, two] = [await startState(prefix), await startState(prefix)];
    const first = record('alice');
    expect(await one.createSession(first, IDLE_MS, 100, 2)).toBe('created');
    expect(await two.createSession(record('alice'), IDLE_MS, 100, 2)).toBe('created');
    expect(await one.createSession(record('alice'), IDLE_MS, 100, 2)).toBe('principal-full');
    expect(await two.createSession(record('alice'), IDLE_MS, 100, 2)).toBe('principal-full');
    expect(await two.createSession(record('bob'), IDLE_MS, 100, 2)).toBe('created');
    // Anonymous sessions are bounded by maxSessions alone.
    for (let index = 0; index < 3; index++) {
      expect(await one.createSession(record(undefined), IDLE_MS, 100, 2)).toBe('created');
    }
    // Refused sessions leave nothing behind: no record, no place in either set.
    expect(await redis.server().keys(`${prefix}s:*`)).toHaveLength(6);
    expect(await redis.server().value('ZCARD', ownerKey(prefix, 'alice'))).toBe(2);
    expect(await redis.server().value('ZCARD', `${prefix}{g}:idx`)).toBe(6);
    // The owner's set holds the same deadline as the index.
    expect(await redis.server().value('ZSCORE', ownerKey(prefix, 'alice'), first.id)).toBe(
      await redis.server().value('ZSCORE', `${prefix}{g}:idx`, first.id),
    );
    // With no limit (Infinity), owned sessions are still counted, so a lower limit elsewhere holds.
    expect(await one.createSession(record('alice'), IDLE_MS, 100, Infinity)).toBe('created');
    expect(await two.createSession(record('alice'), IDLE_MS, 100, 3)).toBe('principal-full');
  });

  it('answers principal-full before full', async () => {
    const prefix = 'own-order:';
    const state = await startState(prefix);
    expect(await state.createSession(record('alice'), IDLE_MS, 2, 2)).toBe('created');
    expect(await state.createSession(record('alice'), IDLE_MS, 2, 2)).toBe('created');
    expect(await state.createSession(record('alice'), IDLE_MS, 2, 2)).toBe('principal-full');
    expect(await state.createSession(record('bob'), IDLE_MS, 2, 2)).toBe('full');
    expect(await redis.server().keys(`${prefix}{g}:o:*`)).toEqual([ownerKey(prefix, 'alice')]);
  });

  it('gives the place back when a session ends anywhere, and drops an emptied set', async () => {
    const prefix = 'own-end:';
    const [one, two] = [await startState(prefix), await startState(prefix)];
    const ended = record('alice');
    expect(await one.createSession(ended, IDLE_MS, 100, 1)).toBe('created');
    expect(await two.createSession(record('alice'), IDLE_MS, 100, 1)).toBe('principal-full');
    await two.endSession(ended.id);
    expect(await redis.server().keys(`${prefix}{g}:o:*`)).toEqual([]);
    expect(await two.createSession(record('alice'), IDLE_MS, 100, 1)).toBe('created');
  });

  it('frees the place of an expired session, as the index does', async () => {
    const prefix = 'own-expiry:';
    const state = await startState(prefix);
    const short = record('alice');
    expect(await state.createSession(short, 300, 100, 1)).toBe('created');
    expect(await state.createSession(record('alice'), IDLE_MS, 100, 1)).toBe('principal-full');
    await delay(1_700);
    expect(await state.loadSession(short.id)).toBeUndefined();
    expect(await state.createSession(record('alice'), IDLE_MS, 100, 1)).toBe('created');
    // The expired member was pruned, not merely outnumbered.
    expect(await redis.server().value('ZSCORE', ownerKey(prefix, 'alice'), short.id)).toBeNull();
    expect(await redis.server().value('ZCARD', ownerKey(prefix, 'alice'))).toBe(1);
  });

  it("moves a touched session's deadline in its owner's set with the index, and keeps the set alive as long", async () => {
    const prefix = 'own-touch:';
    const state = await startState(prefix);
    // A principal may hold braces or be long (`<iss>#<sub>`): its key is a digest.
    const principal = `https://issuer.example/{tenant}#${'x'.repeat(300)}`;
    const [kept, other] = [record(principal), record(principal)];
    // Long enough for the touch below to come first on a loaded machine; `other` lapses meanwhile.
    expect(await state.createSession(kept, 1_500, 100, 2)).toBe('created');
    expect(await state.createSession(other, 1_500, 100, 2)).toBe('created');
    expect(await state.touch(new Map([[kept.id, IDLE_MS]]))).toEqual([]);
    const key = ownerKey(prefix, principal);
    expect(await redis.server().value('ZSCORE', key, kept.id)).toBe(
      await redis.server().value('ZSCORE', `${prefix}{g}:idx`, kept.id),
    );
    expect(await redis.server().value('PTTL', key)).toBeGreaterThan(IDLE_MS - 5_000);

    // The untouched one lapses; the touched one still counts.
    await delay(1_700);
    expect(await state.createSession(record(principal), IDLE_MS, 100, 2)).toBe('created');
    expect(await state.createSession(record(principal), IDLE_MS, 100, 2)).toBe('principal-full');
    expect(await redis.server().value('ZSCORE', key, other.id)).toBeNull();
  });

  it("touches many owners' sets in one batch, beside anonymous and gone sessions", async () => {
    const prefix = 'own-batch:';
    const state = await startState(prefix);
    const sessions = [record('a'), record('b'), record(undefined), record('a'), record('c')];
    for (const each of sessions) expect(await state.createSession(each, 1_000, 100, 5)).toBe('created');
    const touches = new Map<string, number>(sessions.map((each, index) => [each.id, IDLE_MS + index]));
    touches.set('gone', IDLE_MS);
    expect(await state.touch(touches)).toEqual(['gone']);
    for (const each of sessions) {
      const deadline = await redis.server().value('ZSCORE', `${prefix}{g}:idx`, each.id);
      if (each.owner !== undefined)
        expect(await redis.server().value('ZSCORE', ownerKey(prefix, each.owner), each.id)).toBe(deadline);
    }
    for (const owner of ['a', 'b', 'c'])
      expect(await redis.server().value('PTTL', ownerKey(prefix, owner))).toBeGreaterThan(1_000);
  });
});
