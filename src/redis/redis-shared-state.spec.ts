import { Redis, type RedisOptions } from 'ioredis';
import { RedisServer } from '../../test/utils/redis-server.js';
import { delay, until } from '../../test/utils/wait.js';
import type { SharedState, McpState, SharedStateHooks } from '../interfaces/mcp-shared-state.interface.js';
import type { RedisStateOptions } from './redis-state-options.js';
import { redisState } from './redis-state.js';

const PREFIX = 'shared:';
const IDLE_MS = 60_000;
const LEASE_MS = 300;

/** Hooks that keep what they heard. */
class Heard implements SharedStateHooks {
  readonly messages: object[] = [];
  readonly standalone: [string, string][] = [];
  readonly availability: [boolean, unknown][] = [];
  onMessage(message: object): void {
    this.messages.push(message);
  }
  onStandalone(sessionId: string, data: string): void {
    this.standalone.push([sessionId, data]);
  }
  onAvailability(up: boolean, cause?: unknown): void {
    this.availability.push([up, cause]);
  }
}

let server: RedisServer;
const clients: Redis[] = [];
const states: SharedState[] = [];
let nextId = 0;

function userClient(options: RedisOptions = {}): Redis {
  const client = new Redis(server.url, { lazyConnect: true, ...options });
  clients.push(client);
  return client;
}

/** A state on the test server, started, with the hooks it reports to. */
async function startState(
  options: Partial<RedisStateOptions> = {},
): Promise<{ state: McpState; shared: SharedState; heard: Heard }> {
  const state = redisState({
    client: userClient(),
    keyPrefix: PREFIX,
    operationTimeoutMs: 500,
    connectTimeoutMs: 2_000,
    replicaLeaseMs: LEASE_MS,
    ...options,
  });
  const heard = new Heard();
  await state.port.start(heard);
  states.push(state.port);
  return { state, shared: state.port, heard };
}

async function session(shared: SharedState): Promise<string> {
  const id = `sess-${++nextId}`;
  const record = { id, protocolVersion: '2025-06-18', clientInfo: '{}', clientCapabilities: '{}', logLevel: 'info' };
  expect(await shared.createSession(record, IDLE_MS, 1_000, Infinity)).toBe('created');
  return id;
}

/** The CLIENT LIST lines, by connection name. */
async function clientList(): Promise<Map<string, string>> {
  const list = (await server.value('CLIENT', 'LIST')) as string;
  const lines = list.split('\n').filter(Boolean);
  return new Map(lines.map((line) => [/ name=(\S*)/.exec(line)![1]!, line]));
}

beforeAll(async () => {
  server = await RedisServer.start();
});

afterAll(async () => {
  await Promise.all(states.map((each) => each.stop()));
  for (const client of clients) client.disconnect();
  await server.stop();
});

describe('redisState', () => {
  it('refuses options that cannot work, naming them', () => {
    const client = userClient();
    expect(() => redisState(undefined as unknown as RedisStateOptions)).toThrow(TypeError);
    expect(() => redisState({} as RedisStateOptions)).toThrow(/options\.client must be an ioredis/);
    expect(() => redisState({ client, keyPrefix: 'a{b}:' })).toThrow(/keyPrefix must be a string without/);
    expect(() => redisState({ client, operationTimeoutMs: 0 })).toThrow(/operationTimeoutMs must be a whole number/);
    expect(() => redisState({ client, connectTimeoutMs: 1.5 })).toThrow(/connectTimeoutMs/);
    expect(() => redisState({ client, replicaLeaseMs: 10 })).toThrow(/replicaLeaseMs .* from 30/);
    expect(() => redisState({ client, maxPendingOperations: -1 })).toThrow(/maxPendingOperations/);
    expect(() => redisState({ client, keyprefix: 'x' } as RedisStateOptions)).toThrow(/unknown option\(s\) keyprefix/);
    expect(redisState({ client, keyPrefix: undefined }).kind).toBe('mcp42.state');
    // A Cluster client (ioredis sets isCluster on it) is refused rather than half served.
    const cluster = Object.assign(Object.create(client) as object, { isCluster: true }) as RedisStateOptions['client'];
    expect(() => redisState({ client: cluster })).toThrow(/Cluster is not supported yet/);
  });

  it('is a state object whose availability follows its connection, and starts only once', async () => {
    const { state, shared, heard } = await startState();
    expect(state.kind).toBe('mcp42.state');
    expect(state.available).toBe(true);
    expect(shared.replicaId).toMatch(/^[0-9a-z]{12}$/);
    await expect(shared.start(new Heard())).rejects.toThrow(/call redisState\(\) once per McpModule/);
    await shared.stop();
    expect(state.available).toBe(false);
    // Stopping is not an outage.
    expect(heard.availability).toEqual([]);
    await expect(shared.countSessions()).rejects.toThrow(/not connected/);
  });

  it('works on connections of its own, named in CLIENT LIST, and never on the client it was given', async () => {
    const lazy = userClient({ keyPrefix: 'user-prefix:' });
    const named = userClient({ connectionName: 'the-user', lazyConnect: false });
    await named.ping();
    const before = (await clientList()).get('the-user')!;
    expect(before).toMatch(/ cmd=ping /);

    const { shared } = await startState({ client: lazy });
    const id = await session(shared);
    await shared.claimStandalone(id, false);
    await shared.broadcast({ kind: 'session-ended', sessionId: 'hello' });
    const { shared: other } = await startState({ client: named });
    await other.sendStandalone(id, 'x', 10);

    const list = await clientList();
    expect(list.get(`mcp42:${shared.replicaId}:cmd`)).toMatch(/ flags=N /);
    expect(list.get(`mcp42:${shared.replicaId}:sub`)).toMatch(/ sub=4 /);
    expect(list.get(`mcp42:${other.replicaId}:cmd`)).toBeDefined();
    expect(list.get('the-user')).toMatch(/ cmd=ping /);
    expect(lazy.status).toBe('wait');
    // The client's own options that would change our keys or replies are not inherited.
    expect(await server.keys('user-prefix:*')).toEqual([]);
    expect(await server.keys(`${PREFIX}s:{${id}}`)).toHaveLength(1);
    expect(named.status).toBe('ready');

    await other.stop();
    const after = await clientList();
    expect(after.has(`mcp42:${other.replicaId}:cmd`)).toBe(false);
    expect(after.has(`mcp42:${other.replicaId}:sub`)).toBe(false);
    expect(named.status).toBe('ready');
    expect(await named.ping()).toBe('PONG');
  });

  it('keeps a lease while it runs; alive() sees it go when the instance stops', async () => {
    const [one, two] = [await startState(), await startState()];
    const lease = `${PREFIX}r:${two.shared.replicaId}`;
    expect(JSON.parse((await server.value('GET', lease)) as string)).toMatchObject({ pid: process.pid });
    expect(await server.value('PTTL', lease)).toBeLessThanOrEqual(LEASE_MS);
    await delay(LEASE_MS * 2);
    const ids = [one.shared.replicaId, two.shared.replicaId, 'zzzzzzzzzzzz'];
    expect(await one.shared.alive(ids)).toEqual(new Set(ids.slice(0, 2)));

    await two.shared.stop();
    expect(await server.value('EXISTS', lease)).toBe(0);
    expect(await one.shared.alive(ids)).toEqual(new Set([one.shared.replicaId]));
  });
});

describe('RedisSharedState: messages between instances', () => {
  it('sends to one instance, broadcasts to all (the sender too), and ignores what is not a JSON object', async () => {
    const [one, two] = [await startState(), await startState()];
    await one.shared.send(two.shared.replicaId, { kind: 'session-ended', sessionId: 'direct' });
    await until(() => two.heard.messages.length === 1, 'the direct message');
    expect(two.heard.messages).toEqual([{ kind: 'session-ended', sessionId: 'direct' }]);

    // The adapter carries JSON objects only; what they say is the core's to check (instanceMessageOf).
    for (const junk of ['not json', '[1]', '"text"', 'null']) {
      await server.command('PUBLISH', `${PREFIX}c:all`, junk);
    }
    await one.shared.broadcast({ kind: 'session-ended', sessionId: 'all' });
    await until(() => one.heard.messages.length === 1 && two.heard.messages.length === 2, 'the broadcast');
    expect(one.heard.messages).toEqual([{ kind: 'session-ended', sessionId: 'all' }]);
    expect(two.heard.messages[1]).toEqual({ kind: 'session-ended', sessionId: 'all' });
  });

  it('survives a hook that throws', async () => {
    const state = redisState({ client: userClient(), keyPrefix: PREFIX, operationTimeoutMs: 500 });
    const heard = new Heard();
    let calls = 0;
    await state.port.start({
      ...heard,
      onStandalone: () => undefined,
      onAvailability: () => undefined,
      onMessage: (message) => {
        calls++;
        if ((message as { sessionId?: string }).sessionId === 'boom') throw new Error('hook failed');
      },
    });
    states.push(state.port);
    await state.port.broadcast({ kind: 'session-ended', sessionId: 'boom' });
    await state.port.broadcast({ kind: 'session-ended', sessionId: 'fine' });
    await until(() => calls === 2, 'both messages');
    expect(state.available).toBe(true);
  });
});

describe('RedisSharedState: standalone streams', () => {
  it('queues while nobody holds, hands the backlog to the claimer, then delivers to it', async () => {
    const { shared, heard } = await startState();
    const id = await session(shared);
    expect(await shared.sendStandalone(id, 'm1', 10)).toBe('queued');
    expect(await shared.sendStandalone(id, 'm2', 10)).toBe('queued');
    expect(await server.value('PTTL', `${PREFIX}s:{${id}}:b`)).toBeGreaterThan(IDLE_MS - 5_000);
    expect(await shared.claimStandalone(id, false)).toEqual({ outcome: 'ok', backlog: ['m1', 'm2'] });
    expect(await server.value('EXISTS', `${PREFIX}s:{${id}}:b`)).toBe(0);
    expect(await shared.sendStandalone(id, 'm3', 10)).toBe('held');
    await until(() => heard.standalone.length === 1, 'the held message');
    expect(heard.standalone).toEqual([[id, 'm3']]);
    // Claiming again from the holder is fine, and hands over nothing twice.
    expect(await shared.claimStandalone(id, false)).toEqual({ outcome: 'ok', backlog: [] });
  });

  it('loses nothing and reorders nothing sent while the stream is being claimed', async () => {
    const [holder, sender] = [await startState(), await startState()];
    const id = await session(sender.shared);
    const all = Array.from({ length: 400 }, (_, index) => `m${index}`);
    const outcomes: string[] = [];
    const heard = holder.heard.standalone;
    const claims: Promise<{ backlog: readonly string[]; heardBefore: number }>[] = [];
    const claim = (): void => {
      const claimed = holder.shared.claimStandalone(id, false).then((result) => {
        if (result.outcome !== 'ok') throw new Error(`claim: ${result.outcome}`);
        // Runs before any later message is heard: the split between the backlog and live ones.
        return { backlog: result.backlog, heardBefore: heard.length };
      });
      claims.push(claimed);
    };
    // Bursts of sends, pipelined in order on the sender's connection, around a claim and a
    // second claim by the same holder (a new GET connection there).
    for (let start = 0; start < all.length; start += 20) {
      const burst = all.slice(start, start + 20).map((data) => sender.shared.sendStandalone(id, data, 1_000));
      if (start === 40 || start === 200) claim();
      outcomes.push(...(await Promise.all(burst)));
    }
    const [first, second] = await Promise.all(claims);
    await until(() => first!.backlog.length + second!.backlog.length + heard.length >= all.length, 'every message');
    const live = heard.map(([, data]) => data);
    expect([
      ...first!.backlog,
      ...live.slice(0, second!.heardBefore),
      ...second!.backlog,
      ...live.slice(second!.heardBefore),
    ]).toEqual(all);
    expect(outcomes.slice(0, 40).every((outcome) => outcome === 'queued')).toBe(true);
    expect(outcomes.slice(200).every((outcome) => outcome === 'held')).toBe(true);
  });

  it('keeps at most backlogLimit queued messages, dropping the oldest', async () => {
    const { shared } = await startState();
    const id = await session(shared);
    for (const data of ['a', 'b', 'c', 'd']) expect(await shared.sendStandalone(id, data, 2)).toBe('queued');
    expect(await server.value('LRANGE', `${PREFIX}s:{${id}}:b`, '0', '-1')).toEqual(['c', 'd']);
    expect(await shared.claimStandalone(id, false)).toEqual({ outcome: 'ok', backlog: ['c', 'd'] });
  });

  it('is busy for another instance unless forced; forcing names the previous holder', async () => {
    const [one, two] = [await startState(), await startState()];
    const id = await session(one.shared);
    expect(await one.shared.claimStandalone(id, false)).toMatchObject({ outcome: 'ok' });
    expect(await two.shared.claimStandalone(id, false)).toEqual({ outcome: 'busy', holder: one.shared.replicaId });
    expect(await two.shared.sendStandalone(id, 'to-one', 10)).toBe('held');
    await until(() => one.heard.standalone.length === 1, 'the message for the holder');
    await delay(50);
    expect(two.heard.standalone).toEqual([]);

    expect(await two.shared.claimStandalone(id, true)).toEqual({
      outcome: 'ok',
      backlog: [],
      previousHolder: one.shared.replicaId,
    });
    expect(await one.shared.sendStandalone(id, 'to-two', 10)).toBe('held');
    await until(() => two.heard.standalone.length === 1, 'the message for the new holder');
    expect(two.heard.standalone).toEqual([[id, 'to-two']]);
    expect(await server.value('HGET', `${PREFIX}s:{${id}}`, 'gr')).toBe(two.shared.replicaId);
  });

  it('after a release, messages wait in the backlog for the next claim', async () => {
    const [one, two] = [await startState(), await startState()];
    const id = await session(one.shared);
    await one.shared.claimStandalone(id, false);
    await one.shared.releaseStandalone(id);
    expect(await server.value('HGET', `${PREFIX}s:{${id}}`, 'gr')).toBeNull();
    expect(await two.shared.sendStandalone(id, 'later', 10)).toBe('queued');
    await delay(50);
    expect(one.heard.standalone).toEqual([]);
    expect(await two.shared.claimStandalone(id, false)).toEqual({ outcome: 'ok', backlog: ['later'] });

    // Releasing what another instance holds leaves it alone.
    await one.shared.releaseStandalone(id);
    expect(await server.value('HGET', `${PREFIX}s:{${id}}`, 'gr')).toBe(two.shared.replicaId);
  });

  it('claims nothing for a session that is gone, and does not keep listening for it', async () => {
    const { shared } = await startState();
    expect(await shared.claimStandalone('gone-here', false)).toEqual({ outcome: 'gone' });
    expect(await shared.sendStandalone('gone-here', 'x', 10)).toBe('gone');
    await until(
      async () => ((await server.value('PUBSUB', 'CHANNELS', `${PREFIX}g:gone-here`)) as string[]).length === 0,
      'the channel unsubscribed',
    );
    expect(await server.keys('*gone-here*')).toEqual([]);
  });

  it('releases what it holds when it stops', async () => {
    const { shared } = await startState();
    const id = await session(shared);
    await shared.claimStandalone(id, false);
    await shared.stop();
    expect(await server.value('HGET', `${PREFIX}s:{${id}}`, 'gr')).toBeNull();
  });
});
