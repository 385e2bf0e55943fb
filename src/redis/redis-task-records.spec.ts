import { createHash, randomUUID } from 'node:crypto';
import { once } from 'node:events';
import { connect, type Socket } from 'node:net';
import { Redis } from 'ioredis';
import { RedisServer } from '../../test/utils/redis-server.js';
import { delay, until } from '../../test/utils/wait.js';
import type { SharedState, SharedStateHooks } from '../interfaces/mcp-shared-state.interface.js';
import { SharedTaskStore } from '../tasks/shared-task-store.js';
import type { TaskRecord } from '../tasks/task-record.js';
import { redisState } from './redis-state.js';

const PREFIX = 'tasks:';
const LEASE_MS = 300;
const CAPS = { perOwner: 3, total: 5, maxTtlMs: 60_000 };

const hooks: SharedStateHooks = {
  onMessage: () => undefined,
  onStandalone: () => undefined,
  onAvailability: () => undefined,
};

let server: RedisServer;
const clients: Redis[] = [];
const states: SharedState[] = [];

async function instance(): Promise<{ shared: SharedState; store: SharedTaskStore }> {
  const client = new Redis(server.url, { lazyConnect: true });
  clients.push(client);
  const shared = redisState({ client, keyPrefix: PREFIX, replicaLeaseMs: LEASE_MS }).port;
  await shared.start(hooks);
  states.push(shared);
  return { shared, store: new SharedTaskStore(shared) };
}

function task(owner: string, replica: string, change: Partial<TaskRecord> = {}): TaskRecord {
  const now = Date.now();
  return {
    taskId: randomUUID(),
    owner,
    era: 'modern',
    tool: 'build',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 60_000,
    pollIntervalMs: 1_000,
    expiresAt: now + 60_000,
    replica,
    ...change,
  };
}

beforeAll(async () => {
  server = await RedisServer.start();
});

beforeEach(async () => {
  await server.command('FLUSHALL');
});

afterAll(async () => {
  await Promise.all(states.map((each) => each.stop()));
  for (const client of clients) client.disconnect();
  await server.stop();
});

describe('tasks in Redis (SharedTaskStore on the Redis port)', () => {
  it('creates a task readable at once from another instance, with the TTL of the task', async () => {
    const a = await instance();
    const b = await instance();
    const created = task('principal:alice', a.shared.replicaId);
    expect(await a.store.create(created, CAPS)).toBeUndefined();
    expect(await b.store.get(created.taskId)).toEqual(created);
    const ttl = Number(await server.value('PTTL', `${PREFIX}{g}:t:${created.taskId}`));
    expect(ttl).toBeGreaterThan(50_000);
    expect(ttl).toBeLessThanOrEqual(60_000);
    // Ids mcp42 never makes are no task, and never reach Redis as a key.
    expect(await b.store.get('not-a-uuid}{x')).toBeUndefined();
    expect(await b.store.get(randomUUID())).toBeUndefined();
  });

  it('admits against the caps atomically: unfinished tasks per owner first, then tasks kept in all', async () => {
    const a = await instance();
    const b = await instance();
    // Two instances race for an owner's three places: exactly three win.
    const attempts = Array.from({ length: 8 }, (_, index) =>
      (index % 2 ? a : b).store.create(task('principal:bob', a.shared.replicaId), CAPS),
    );
    const outcomes = await Promise.all(attempts);
    expect(outcomes.filter((outcome) => outcome === undefined)).toHaveLength(3);
    expect(outcomes.filter((outcome) => outcome === 'owner-full')).toHaveLength(5);
    const carol = task('principal:carol', a.shared.replicaId);
    expect(await a.store.create(carol, CAPS)).toBeUndefined();
    expect(await a.store.create(task('principal:carol', a.shared.replicaId), CAPS)).toBeUndefined();
    // Five kept in all: finished ones count too, until their TTL.
    expect(await a.store.create(task('principal:dave', a.shared.replicaId), CAPS)).toBe('full');
    await a.store.update(carol.taskId, (current) => ({ ...current, status: 'completed', result: { content: [] } }));
    expect(await a.store.create(task('principal:dave', a.shared.replicaId), CAPS)).toBe('full');
  });

  it('frees an owner place when a task finishes, and forgets an expired one everywhere', async () => {
    const a = await instance();
    const first = task('principal:erin', a.shared.replicaId);
    await a.store.create(first, CAPS);
    await a.store.create(task('principal:erin', a.shared.replicaId), CAPS);
    await a.store.create(task('principal:erin', a.shared.replicaId), CAPS);
    expect(await a.store.create(task('principal:erin', a.shared.replicaId), CAPS)).toBe('owner-full');
    await a.store.update(first.taskId, (current) => ({ ...current, status: 'cancelled' }));
    expect(
      await a.store.create(task('principal:erin', a.shared.replicaId), { perOwner: 3, total: 100, maxTtlMs: 60_000 }),
    ).toBeUndefined();

    const brief = task('principal:frank', a.shared.replicaId, { ttlMs: 150 });
    await a.store.create(brief, CAPS);
    await until(async () => (await a.store.get(brief.taskId)) === undefined, 'the task expired');
    // Its place among the owner's unfinished tasks is given back with it.
    const places = { perOwner: 1, total: 100, maxTtlMs: 60_000 };
    expect(await a.store.create(task('principal:frank', a.shared.replicaId), places)).toBeUndefined();
    expect((await a.store.list('principal:frank', undefined, 10)).tasks).toHaveLength(1);
  });

  it('forgets a task whose expiry is brought forward: at once for every reader, and in Redis at that time', async () => {
    const a = await instance();
    const b = await instance();
    const created = task('session:s9', a.shared.replicaId);
    await a.store.create(created, CAPS);
    const now = Date.now();
    await a.store.update(created.taskId, (current) => ({ ...current, status: 'cancelled', expiresAt: now + 200 }));
    const ttl = Number(await server.value('PTTL', `${PREFIX}{g}:t:${created.taskId}`));
    expect(ttl).toBeGreaterThan(0);
    expect(ttl).toBeLessThanOrEqual(200);
    await a.store.update(created.taskId, (current) => ({ ...current, expiresAt: now }));
    expect(await b.store.get(created.taskId)).toBeUndefined();
    expect((await b.store.list('session:s9', undefined, 10)).tasks).toEqual([]);
  });

  it('changes by compare-and-set: concurrent writers on two instances lose no write, and an end is final', async () => {
    const a = await instance();
    const b = await instance();
    const created = task('principal:gina', a.shared.replicaId, { statusMessage: '0' });
    await a.store.create(created, CAPS);
    const bump = (current: TaskRecord): TaskRecord => ({
      ...current,
      statusMessage: String(Number(current.statusMessage) + 1),
    });
    await Promise.all(Array.from({ length: 10 }, (_, index) => (index % 2 ? a : b).store.update(created.taskId, bump)));
    expect((await a.store.get(created.taskId))?.statusMessage).toBe('10');

    const ends = await Promise.all([
      a.store.update(created.taskId, (current) =>
        current.status === 'working' ? { ...current, status: 'completed' } : undefined,
      ),
      b.store.update(created.taskId, (current) =>
        current.status === 'working' ? { ...current, status: 'cancelled' } : undefined,
      ),
    ]);
    const final = await b.store.get(created.taskId);
    expect(['completed', 'cancelled']).toContain(final?.status);
    // Both callers see the one end that won.
    expect(ends.map((end) => end?.status)).toEqual([final?.status, final?.status]);
    expect(await a.store.update(randomUUID(), bump)).toBeUndefined();
  });

  it("lists an owner's tasks oldest first, in pages, never another owner's nor expired ones", async () => {
    const a = await instance();
    const caps = { perOwner: 100, total: 100, maxTtlMs: 60_000 };
    const ids: string[] = [];
    for (let index = 0; index < 5; index++) {
      const each = task('session:s1', a.shared.replicaId, { createdAt: 1_000 + index });
      ids.push(each.taskId);
      await a.store.create(each, caps);
    }
    await a.store.create(task('session:s2', a.shared.replicaId), caps);
    const first = await a.store.list('session:s1', undefined, 2);
    expect(first.tasks.map((each) => each.taskId)).toEqual(ids.slice(0, 2));
    expect(first.more).toBe(true);
    const second = await a.store.list('session:s1', ids[1], 2);
    expect(second.tasks.map((each) => each.taskId)).toEqual(ids.slice(2, 4));
    const last = await a.store.list('session:s1', ids[3], 2);
    expect(last).toEqual({ tasks: [expect.objectContaining({ taskId: ids[4] })], more: false });
    // An expired task is skipped and dropped from the list.
    await server.command('DEL', `${PREFIX}{g}:t:${ids[2]}`);
    const all = await a.store.list('session:s1', undefined, 10);
    expect(all.tasks.map((each) => each.taskId)).toEqual([ids[0], ids[1], ids[3], ids[4]]);
    expect(await server.value('ZCARD', `${PREFIX}{g}:to:${ownerDigest('session:s1')}`)).toBe(4);
  });

  it('records which instance runs each unfinished task, for the sweep of instances that stopped', async () => {
    const a = await instance();
    const b = await instance();
    const running = task('principal:hana', a.shared.replicaId);
    const done = task('principal:hana', a.shared.replicaId);
    await a.store.create(running, CAPS);
    await a.store.create(done, CAPS);
    await a.store.update(done.taskId, (current) => ({ ...current, status: 'completed' }));
    expect(await b.shared.taskRunners()).toEqual([a.shared.replicaId]);
    expect(await b.shared.tasksRunBy(a.shared.replicaId)).toEqual([running.taskId]);

    // The instance stops renewing its lease (stopped here): it is no longer alive past the lease.
    await a.shared.stop();
    await delay(LEASE_MS);
    expect((await b.shared.alive([a.shared.replicaId])).size).toBe(0);
    // Once its tasks are gone, the instance is dropped from the runners.
    await server.command('DEL', `${PREFIX}{g}:t:${running.taskId}`);
    expect(await b.shared.tasksRunBy(a.shared.replicaId)).toEqual([]);
    expect(await b.shared.taskRunners()).toEqual([]);
  });

  it('forgets on its own sweep the tasks an instance let expire unfinished, and stays among the runners', async () => {
    const a = await instance();
    const brief = task('principal:ivan', a.shared.replicaId, { ttlMs: 150 });
    const running = task('principal:ivan', a.shared.replicaId);
    await a.store.create(brief, CAPS);
    await a.store.create(running, CAPS);
    await until(async () => (await a.store.get(brief.taskId)) === undefined, 'the task expired');
    expect(await a.shared.tasksRunBy(a.shared.replicaId)).toEqual([running.taskId]);
    expect(await server.value('SMEMBERS', `${PREFIX}{g}:tr:${a.shared.replicaId}`)).toEqual([running.taskId]);
    // Left with none, it is still a runner: it may be recording a task at this moment.
    await server.command('DEL', `${PREFIX}{g}:t:${running.taskId}`);
    expect(await a.shared.tasksRunBy(a.shared.replicaId)).toEqual([]);
    expect(await a.shared.taskRunners()).toEqual([a.shared.replicaId]);
  });

  it("prunes an instance's set in two commands whatever the number of its tasks, not one EXISTS per task", async () => {
    const a = await instance();
    const tasks = Array.from({ length: 4 }, (_, index) => task(`principal:jo${index}`, a.shared.replicaId));
    for (const each of tasks) await a.store.create(each, CAPS);
    await server.command('DEL', `${PREFIX}{g}:t:${tasks[1]!.taskId}`);
    const sent: string[][] = [];
    const monitor = await monitorOf(server.url, (source, args) => {
      // Commands a script runs are the server's own: only what the client sent costs a round trip.
      if (source !== 'lua' && args.some((arg) => arg.includes('{g}:t'))) sent.push(args);
    });
    try {
      const live = await a.shared.tasksRunBy(a.shared.replicaId);
      expect([...live].sort()).toEqual([tasks[0]!, tasks[2]!, tasks[3]!].map((each) => each.taskId).sort());
      // The monitor's own connection has seen a later command once it reports it: the sweep's are in.
      await server.command('SET', `${PREFIX}{g}:t-marker`, '1');
      await until(() => sent.some(([name]) => name!.toLowerCase() === 'set'), 'the monitor saw the sweep');
      const names = sent.map(([name]) => name!.toLowerCase()).filter((name) => name !== 'set');
      // SMEMBERS and scripts (EVALSHA, or EVAL the first time Redis meets it) only, whatever the
      // number of tasks; the instance's own periodic sweep may fall into the window too.
      expect(names).toContain('smembers');
      expect(names.filter((name) => name !== 'smembers' && !/^eval/.test(name))).toEqual([]);
      expect(await server.value('SMEMBERS', `${PREFIX}{g}:tr:${a.shared.replicaId}`)).toHaveLength(3);
    } finally {
      monitor.destroy();
    }
  });
});

/** A raw MONITOR connection: each command Redis runs, with who sent it (`lua` for a script's). */
async function monitorOf(url: string, seen: (source: string, args: string[]) => void): Promise<Socket> {
  const { hostname, port } = new URL(url);
  const socket = connect(Number(port), hostname);
  await once(socket, 'connect');
  let buffered = '';
  socket.setEncoding('utf8');
  socket.on('data', (chunk: string) => {
    buffered += chunk;
    const lines = buffered.split('\r\n');
    buffered = lines.pop()!;
    for (const line of lines) {
      // +1796689560.918873 [0 127.0.0.1:34388] "set" "key" …, or [0 lua] for a script's command.
      const match = /^\+\d+\.\d+ \[\d+ ([^\]]+)\] (.*)$/.exec(line);
      if (match)
        seen(
          match[1]!,
          [...match[2]!.matchAll(/"((?:[^"\\]|\\.)*)"/g)].map((arg) => arg[1]!),
        );
    }
  });
  socket.write('MONITOR\r\n');
  return socket;
}

function ownerDigest(owner: string): string {
  return createHash('sha256').update(owner).digest('base64url');
}
