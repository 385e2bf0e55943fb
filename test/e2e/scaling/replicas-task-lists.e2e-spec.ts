/**
 * An owner's task list in Redis (what a 2025-11-25 `tasks/list` pages through) keeps each task until
 * its own expiry, whichever instance prunes it: instances configured with different `tasks.maxTtlMs`
 * never drop one another's live tasks. Entries an earlier version wrote (scored by creation only)
 * stay while their task lives, and leave once it has expired.
 */
import { createHash } from 'node:crypto';
import { Redis } from 'ioredis';
import { redisState } from '../../../src/redis/index.js';
import { bearer } from '../../fixtures/modern.fixture.js';
import { TaskGates, tasksApp, TASKS_STATE_SECRET } from '../../fixtures/tasks.fixture.js';
import { httpExchange } from '../../utils/http-exchange.js';
import { openSession, type OpenedSession } from '../../utils/open-session.js';
import { RedisServer } from '../../utils/redis-server.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { delay } from '../../utils/wait.js';

const LONG_MS = 60_000;
const SHORT_MS = 200;

describe("an owner's task list across instances with different tasks.maxTtlMs (e2e)", () => {
  let redis: RedisServer;
  let client: Redis;
  let long: RunningApp;
  let short: RunningApp;
  const prefix = `task-lists-${process.pid}:`;
  let nextId = 1;

  const instance = (maxTtlMs: number): Promise<RunningApp> =>
    startApp(
      tasksApp({
        state: {
          shared: redisState({ client, keyPrefix: prefix, replicaLeaseMs: 2_000 }),
          secret: TASKS_STATE_SECRET,
        },
        tasks: { pollIntervalMs: 50, defaultTtlMs: Math.min(maxTtlMs, 30_000), maxTtlMs },
      }),
    );
  const session = (on: RunningApp, user: string): Promise<OpenedSession> =>
    openSession(on.mcpUrl, { protocolVersion: '2025-11-25', headers: bearer(user) });
  const post = async <R>(on: RunningApp, opened: OpenedSession, method: string, params: object): Promise<R> => {
    const reply = await httpExchange(
      on.mcpUrl,
      'POST',
      opened.headers,
      JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    );
    return (JSON.parse(reply.text) as { result: R }).result;
  };
  /** Starts a task that waits at its gate, with the TTL asked (cut to the instance's tasks.maxTtlMs). */
  const start = async (on: RunningApp, opened: OpenedSession, gate: string, ttl: number): Promise<string> =>
    (
      await post<{ task: { taskId: string } }>(on, opened, 'tools/call', {
        name: 'build_report',
        arguments: { gate },
        task: { ttl },
      })
    ).task.taskId;
  const listed = async (on: RunningApp, opened: OpenedSession): Promise<string[]> =>
    (await post<{ tasks: { taskId: string }[] }>(on, opened, 'tasks/list', {})).tasks.map((task) => task.taskId);
  const ownerList = (user: string): string =>
    `${prefix}{g}:to:${createHash('sha256').update(`principal:${user}`).digest('base64url')}`;

  beforeAll(async () => {
    redis = await RedisServer.start();
    client = new Redis(redis.url);
    long = await instance(LONG_MS);
    short = await instance(SHORT_MS);
  }, 30_000);

  afterAll(async () => {
    for (const each of [long, short]) each?.app.get(TaskGates).open('held');
    await long?.close();
    await short?.close();
    client?.disconnect();
    await redis?.stop();
  });

  it('keeps a live task listed when an instance with a shorter tasks.maxTtlMs creates the next one', async () => {
    const onLong = await session(long, 'alice');
    const onShort = await session(short, 'alice');
    const lasting = await start(long, onLong, 'held', LONG_MS);
    // Older than the short instance's tasks.maxTtlMs, and 59 s from its own expiry.
    await delay(SHORT_MS + 100);
    const brief = await start(short, onShort, 'held', LONG_MS);
    expect(await listed(long, onLong)).toEqual([lasting, brief]);
    expect(await listed(short, onShort)).toEqual([lasting, brief]);
    // Each leaves the list at its own expiry: the brief one (cut to 200 ms) at the next creation after it.
    await delay(SHORT_MS + 100);
    const next = await start(long, onLong, 'held', LONG_MS);
    expect(await redis.value('ZRANGE', ownerList('alice'), '0', '-1')).toEqual([lasting, next]);
  });

  it("keeps an earlier version's entries while their task lives, and drops them once it has expired", async () => {
    const onLong = await session(long, 'bruno');
    const onShort = await session(short, 'bruno');
    const kept = await start(long, onLong, 'held', LONG_MS);
    const lapsed = await start(long, onLong, 'held', LONG_MS);
    // As the previous version wrote them: in the owner's list by creation, with no expiry beside them.
    const expiries = ownerList('bruno').replace('{g}:to:', '{g}:toe:');
    await redis.command('ZREM', expiries, kept, lapsed);
    await redis.command('DEL', `${prefix}{g}:t:${lapsed}`);
    await delay(SHORT_MS + 100);
    const fresh = await start(short, onShort, 'held', LONG_MS);
    expect(await redis.value('ZRANGE', ownerList('bruno'), '0', '-1')).toEqual([kept, fresh]);
    expect(await listed(short, onShort)).toEqual([kept, fresh]);
  });
});
