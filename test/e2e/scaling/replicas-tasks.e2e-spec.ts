/**
 * Tasks across instances sharing state through a real redis-server: a task created on one instance
 * is read, answered (an elicitation) and cancelled through another, which reaches the handler
 * running on the first (its asks settled, its signal aborted); a 2025 session's tasks, its requests
 * spread over both instances, complete and cancel; each task stays its principal's; an instance
 * killed outright (SIGKILL) leaves its tasks `failed` once its lease expired, seen by the next
 * `tasks/get` and, for a task nobody reads, by the sweep; a result outlives the instance that made it.
 */
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { Redis } from 'ioredis';
import { McpCallAbortedError } from '../../../src/index.js';
import { redisState } from '../../../src/redis/index.js';
import { bearer } from '../../fixtures/modern.fixture.js';
import { TaskGates, tasksApp, TASKS_STATE_SECRET } from '../../fixtures/tasks.fixture.js';
import { ALL_CAPABILITIES, ModernClient } from '../../utils/modern-client.js';
import { RedisServer } from '../../utils/redis-server.js';
import { ReplicaProcess } from '../../utils/replica-process.js';
import { RoundRobinProxy } from '../../utils/round-robin-proxy.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';

const TASKS = 'io.modelcontextprotocol/tasks';
const WITH_TASKS = { capabilities: { ...ALL_CAPABILITIES, extensions: { [TASKS]: {} } } };
const LEASE_MS = 1_000;
const LOST = { code: -32603, message: 'the instance running the task stopped' };

describe('tasks across instances sharing Redis (e2e)', () => {
  let redis: RedisServer;
  let client: Redis;
  let a: RunningApp;
  let aClosed = false;
  let b: RunningApp;
  let doomed: ReplicaProcess;
  const prefix = `tasks-${process.pid}:`;
  const sdk = useSdkClients();
  const clients: ModernClient[] = [];

  const instance = (): Promise<RunningApp> =>
    startApp(
      tasksApp({
        state: {
          shared: redisState({ client, keyPrefix: prefix, replicaLeaseMs: LEASE_MS }),
          secret: TASKS_STATE_SECRET,
        },
        tasks: { pollIntervalMs: 50, defaultTtlMs: 60_000 },
      }),
    );
  const modern = (url: () => string, user: string): ModernClient => {
    const made = new ModernClient(url).with(bearer(user));
    clients.push(made);
    return made;
  };
  const on = {
    a: (user = 'alice') => modern(() => a.mcpUrl, user),
    b: (user = 'alice') => modern(() => b.mcpUrl, user),
  };

  const start = async (via: ModernClient, name: string, args: object): Promise<string> =>
    (await via.result('tools/call', { name, arguments: args }, WITH_TASKS)).taskId as string;
  const get = (via: ModernClient, taskId: string): Promise<Record<string, unknown>> =>
    via.result('tasks/get', { taskId }, WITH_TASKS);
  const untilStatus = async (via: ModernClient, taskId: string, status: string): Promise<Record<string, unknown>> => {
    let task: Record<string, unknown> = {};
    await until(async () => (task = await get(via, taskId)).status === status, `task ${taskId} ${status}`);
    return task;
  };
  /** The record in Redis, as every instance reads it. */
  const stored = async (taskId: string): Promise<Record<string, unknown>> =>
    JSON.parse((await redis.value('HGET', `${prefix}{g}:t:${taskId}`, 'j')) as string) as Record<string, unknown>;

  beforeAll(async () => {
    redis = await RedisServer.start();
    client = new Redis(redis.url);
    a = await instance();
    b = await instance();
    doomed = await ReplicaProcess.start({ redisUrl: redis.url, keyPrefix: prefix, leaseMs: LEASE_MS, app: 'tasks' });
  }, 30_000);

  afterEach(() => {
    for (const each of clients.splice(0)) each.closeAll();
  });

  afterAll(async () => {
    await doomed?.kill();
    if (!aClosed) await a?.close();
    await b?.close();
    client?.disconnect();
    await redis?.stop();
  });

  it('creates a task on one instance that the other reads at once, with the progress and result of the first', async () => {
    const taskId = await start(on.a(), 'build_report', { gate: 'r1' });
    // Durably created before the answer: the other instance resolves it right away.
    expect(await get(on.b(), taskId)).toMatchObject({ taskId, status: 'working' });
    await until(async () => (await get(on.b(), taskId)).statusMessage === 'Gathering figures', 'the progress');
    a.app.get(TaskGates).open('r1');
    expect(await untilStatus(on.b(), taskId, 'completed')).toMatchObject({
      result: { content: [{ type: 'text', text: 'Report r1 ready' }] },
    });
  });

  it('answers the elicitations of a task running on one instance through the other (tasks/update)', async () => {
    const taskId = await start(on.a(), 'delete_files', { pattern: '*.log' });
    // The handler asks twice: each ask is one write, so a reader may see the first alone for a moment.
    await until(async () => {
      const task = await get(on.b(), taskId);
      return (
        Object.keys((task.inputRequests ?? {}) as object)
          .sort()
          .join() === 'confirm,who'
      );
    }, 'both requests listed');
    expect(await get(on.b(), taskId)).toMatchObject({ status: 'input_required' });
    await on
      .b()
      .result(
        'tasks/update',
        { taskId, inputResponses: { who: { action: 'accept', content: { name: 'Ann' } } } },
        WITH_TASKS,
      );
    // The handler on the first instance took the answer: only the other request is left.
    await until(async () => {
      const task = await get(on.b(), taskId);
      return Object.keys((task.inputRequests ?? {}) as object).join() === 'confirm';
    }, 'the partial answer taken');
    await on
      .b()
      .result(
        'tasks/update',
        { taskId, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } },
        WITH_TASKS,
      );
    expect(await untilStatus(on.a(), taskId, 'completed')).toMatchObject({
      result: { content: [{ type: 'text', text: 'Ann deleted *.log' }] },
    });
  });

  it('cancels through the other instance: cancelled at once everywhere, the handler’s signal aborted where it runs', async () => {
    const taskId = await start(on.a(), 'nightly_batch', { gate: 'c1' });
    await on.b().result('tasks/cancel', { taskId }, WITH_TASKS);
    expect(await get(on.b(), taskId)).toMatchObject({ status: 'cancelled' });
    expect(await get(on.a(), taskId)).toMatchObject({ status: 'cancelled' });
    const gates = a.app.get(TaskGates);
    await until(() => gates.aborted.has('c1'), 'the handler’s signal aborted on the instance running it');
    expect(gates.aborted.get('c1')).toBeInstanceOf(McpCallAbortedError);
    expect((gates.aborted.get('c1') as McpCallAbortedError).kind).toBe('cancelled');
  });

  it('keeps each task to its principal on every instance', async () => {
    const taskId = await start(on.a(), 'build_report', { gate: 'p1' });
    for (const other of [on.b('mallory'), on.a('mallory')]) {
      for (const [method, params] of [
        ['tasks/get', { taskId }],
        ['tasks/update', { taskId, inputResponses: {} }],
        ['tasks/cancel', { taskId }],
      ] as const) {
        expect(await other.error(200, method, params, WITH_TASKS)).toMatchObject({ code: -32602 });
      }
    }
    expect(await get(on.b(), taskId)).toMatchObject({ status: 'working' });
    a.app.get(TaskGates).open('p1');
  });

  it('serves a 2025 session’s tasks with its requests spread over both instances (SDK v1 client)', async () => {
    const proxy = await RoundRobinProxy.start([a.baseUrl, b.baseUrl]);
    try {
      const { client: session } = await sdk.connect(`${proxy.url}/mcp`, { headers: bearer('dora') });
      const call = (gate: string) =>
        session.request(
          { method: 'tools/call', params: { name: 'nightly_batch', arguments: { gate }, task: { ttl: 60_000 } } },
          CreateTaskResultSchema,
        );
      const done = (await call('s1')).task.taskId;
      const cancelled = (await call('s2')).task.taskId;
      const { tasks } = await session.experimental.tasks.listTasks();
      expect(tasks.map((task) => task.taskId)).toEqual([done, cancelled]);
      for (const app of [a, b]) app.app.get(TaskGates).open('s1');
      const result = await session.experimental.tasks.getTaskResult(done, CallToolResultSchema);
      expect(result).toMatchObject({ content: [{ type: 'text', text: 'Batch s1 done' }] });
      expect(await session.experimental.tasks.cancelTask(cancelled)).toMatchObject({ status: 'cancelled' });
      await until(
        () => [a, b].some((app) => app.app.get(TaskGates).aborted.has('s2')),
        'the cancelled handler’s signal aborted',
      );
      expect(await session.experimental.tasks.getTask(cancelled)).toMatchObject({ status: 'cancelled' });
    } finally {
      await proxy.close();
    }
  });

  it('fails the tasks of an instance killed outright once its lease expired: on tasks/get, and by the sweep', async () => {
    const victim = (user: string) => modern(() => doomed.mcpUrl, user);
    const polled = await start(victim('alice'), 'nightly_batch', { gate: 'k1' });
    const unread = await start(victim('bob'), 'nightly_batch', { gate: 'k2' });
    const replica = (await stored(polled)).replica as string;
    expect(replica).toMatch(/^[0-9a-z]{12}$/);
    expect(await get(on.b(), polled)).toMatchObject({ status: 'working' });

    await doomed.kill();
    // The lease outlives the instance by at most LEASE_MS; then the very next tasks/get ends the task.
    await until(async () => (await redis.value('EXISTS', `${prefix}r:${replica}`)) === 0, 'the lease expired');
    expect(await get(on.b(), polled)).toMatchObject({ status: 'failed', error: LOST });
    // Nobody reads the other one: the sweep (every third of the lease) ends it all the same.
    await until(async () => (await stored(unread)).status === 'failed', 'the sweep ended the unread task');
    expect(await stored(unread)).toMatchObject({ error: LOST });
    expect(await get(on.a('bob'), unread)).toMatchObject({ status: 'failed', error: LOST });
  });

  it('keeps a result readable from another instance after the one that produced it closed, and ends what it ran', async () => {
    const taskId = await start(on.a(), 'build_report', { gate: 'o1' });
    a.app.get(TaskGates).open('o1');
    await untilStatus(on.a(), taskId, 'completed');
    const running = await start(on.a(), 'nightly_batch', { gate: 'never' });
    await a.close();
    aClosed = true;
    expect(await get(on.b(), taskId)).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Report o1 ready' }] },
    });
    // Stopped gracefully: its running task ended (the tool's answer to a shutdown, or a lost instance's error).
    let ended: Record<string, unknown> = {};
    await until(async () => (ended = await get(on.b(), running)).status !== 'working', 'the running task ended');
    expect(ended).toMatchObject({ status: expect.stringMatching(/^(completed|failed)$/) });
    expect(JSON.stringify(ended.result ?? ended.error)).toMatch(/shutting down|the instance running the task stopped/);
  });
});
