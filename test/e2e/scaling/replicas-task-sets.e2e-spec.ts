/**
 * The sets that index tasks in Redis stay bounded by the tasks alive: an owner who never lists its
 * tasks (`tasks/list` prunes as it reads) does not grow its list, and the instance's set of tasks it
 * runs forgets those that expired unfinished (a handler still running past its TTL).
 */
import { Redis } from 'ioredis';
import { redisState } from '../../../src/redis/index.js';
import { bearer } from '../../fixtures/modern.fixture.js';
import { TaskGates, tasksApp, TASKS_STATE_SECRET } from '../../fixtures/tasks.fixture.js';
import { ALL_CAPABILITIES, ModernClient } from '../../utils/modern-client.js';
import { RedisServer } from '../../utils/redis-server.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { capabilities: { ...ALL_CAPABILITIES, extensions: { [TASKS]: {} } } };
const TTL_MS = 300;

describe('task sets in Redis stay bounded (e2e)', () => {
  let redis: RedisServer;
  let client: Redis;
  let app: RunningApp;
  const prefix = `task-sets-${process.pid}:`;
  const clients: ModernClient[] = [];

  const alice = (): ModernClient => {
    const made = new ModernClient(() => app.mcpUrl).with(bearer('alice'));
    clients.push(made);
    return made;
  };
  const start = async (gate: string): Promise<string> =>
    (await alice().result('tools/call', { name: 'build_report', arguments: { gate } }, WITH_TASKS)).taskId as string;
  const gone = async (taskId: string): Promise<boolean> =>
    (await alice().send('tasks/get', { taskId }, WITH_TASKS)).response?.error?.code === -32602;
  /** The one key matching `pattern` (one owner, one instance here). */
  const key = async (pattern: string): Promise<string> => {
    const keys = (await redis.value('KEYS', `${prefix}${pattern}`)) as string[];
    expect(keys).toHaveLength(1);
    return keys[0]!;
  };
  const size = async (command: 'ZCARD' | 'SCARD', name: string): Promise<number> =>
    Number(await redis.value(command, name));

  beforeAll(async () => {
    redis = await RedisServer.start();
    client = new Redis(redis.url);
    app = await startApp(
      tasksApp({
        state: {
          shared: redisState({ client, keyPrefix: prefix, replicaLeaseMs: 600 }),
          secret: TASKS_STATE_SECRET,
        },
        tasks: { pollIntervalMs: 50, defaultTtlMs: TTL_MS, maxTtlMs: TTL_MS },
      }),
    );
  }, 30_000);

  afterEach(() => {
    for (const each of clients.splice(0)) each.closeAll();
  });

  afterAll(async () => {
    await app?.close();
    client?.disconnect();
    await redis?.stop();
  });

  it("forgets expired tasks in the owner's list and in the instance's running set, without a tasks/list", async () => {
    const gates = app.app.get(TaskGates);
    // One task finishes, two are still running when their TTL ends.
    const finished = await start('done');
    gates.open('done');
    const expired = [finished, await start('never-1'), await start('never-2')];
    const owners = await key('{g}:to:*');
    const running = await key('{g}:tr:*');
    expect(await size('ZCARD', owners)).toBe(3);
    expect(await size('SCARD', running)).toBe(2);
    // An owner and an instance that keep creating tasks keep both keys alive (each creation stretches
    // them to its TTL): held here, so that only pruning can empty them.
    await redis.command('PEXPIRE', owners, '60000');
    await redis.command('PEXPIRE', running, '60000');
    for (const taskId of expired) await until(() => gone(taskId), `task ${taskId} expired`);

    const fresh = await start('later');
    // The owner's list keeps the new task alone: the expired ones left it at its creation.
    expect(await redis.value('ZRANGE', owners, '0', '-1')).toEqual([fresh]);
    // The running set keeps the new task alone once the instance's sweep (a third of the lease) ran.
    await until(async () => (await size('SCARD', running)) === 1, 'the expired unfinished tasks forgotten');
    expect(await redis.value('SMEMBERS', running)).toEqual([fresh]);
    gates.open('later');
  });
});
