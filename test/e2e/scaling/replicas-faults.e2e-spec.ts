/**
 * Faults of a deployment sharing state through Redis, against a real redis-server: an instance killed
 * in the middle of a call (the client resumes on another one and its call ends with an error within
 * a bounded time, nothing it had been sent lost or repeated), Redis unreachable (clean 503s with
 * JSON-RPC bodies, the cause logged once, fast paths still served, service back by itself), and Redis
 * too slow (bounded by the operation timeout).
 */
import { Redis } from 'ioredis';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { redisState } from '../../../src/redis/index.js';
import { ReplicasModule } from '../../fixtures/replicas.module.js';
import { ModernClient } from '../../utils/modern-client.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { RedisServer } from '../../utils/redis-server.js';
import { ReplicaProcess } from '../../utils/replica-process.js';
import { RoundRobinProxy } from '../../utils/round-robin-proxy.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { useRedisApp } from '../../utils/redis-app.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';
import { openSession } from '../../utils/open-session.js';

const LEASE_MS = 1_500;

async function post(
  url: string,
  body: unknown,
  headers: Record<string, string> = {},
): Promise<{ status: number; retryAfter: string | null; body: unknown }> {
  const answer = await fetch(url, {
    method: 'POST',
    headers: { ...MCP_POST_HEADERS, ...headers },
    body: JSON.stringify(body),
  });
  const text = await answer.text();
  return {
    status: answer.status,
    retryAfter: answer.headers.get('retry-after'),
    body: text ? JSON.parse(text) : undefined,
  };
}

/** A 2025-11-25 session's id, not acknowledged with `notifications/initialized`. */
const initialize = async (url: string): Promise<string> =>
  (await openSession(url, { protocolVersion: '2025-11-25', id: 1, initialized: false })).id;

describe('an instance killed in the middle of a call (e2e)', () => {
  let redis: RedisServer;
  let client: Redis;
  let doomed: ReplicaProcess;
  let survivor: RunningApp;
  let proxy: RoundRobinProxy;
  const prefix = `faults-${process.pid}:`;
  const sdk = useSdkClients();

  beforeAll(async () => {
    redis = await RedisServer.start();
    client = new Redis(redis.url);
    doomed = await ReplicaProcess.start({ redisUrl: redis.url, keyPrefix: prefix, leaseMs: LEASE_MS });
    survivor = await startApp(
      ReplicasModule.register(redisState({ client, keyPrefix: prefix, replicaLeaseMs: LEASE_MS })),
    );
    proxy = await RoundRobinProxy.start([doomed.baseUrl]);
  }, 30_000);

  afterAll(async () => {
    await proxy?.close();
    await doomed?.kill();
    await survivor?.close();
    client?.disconnect();
    await redis?.stop();
  });

  it('resumes on another instance and ends the lost call with an error within the lease, nothing lost or repeated', async () => {
    const { client: sdkClient } = await sdk.connect(`${proxy.url}/mcp`);
    const progress: number[] = [];
    const call = (sdkClient as Client).callTool(
      { name: 'progress', arguments: { steps: 50, delayMs: 100 } },
      undefined,
      {
        onprogress: (p) => progress.push(p.progress),
        timeout: 30_000,
      },
    );
    const outcome = call.then(
      () => 'answered',
      (error: { code?: number; message?: string }) => error,
    );
    await until(() => progress.length >= 3, 'three progress notifications', 10_000);

    await doomed.kill();
    const killedAt = Date.now();
    proxy.remove(doomed.baseUrl);
    proxy.add(survivor.baseUrl);

    const ended = (await outcome) as { code?: number; message?: string };
    const elapsed = Date.now() - killedAt;
    expect(ended).toMatchObject({ code: -32000 });
    expect(ended.message).toContain('stopped before answering');
    // The lease must lapse (LEASE_MS), then the client's next poll (sseRetryMs, 1 s) finds it lapsed.
    expect(elapsed).toBeLessThan(LEASE_MS + 1_000 + 2_500);
    // What the client had heard, and what was stored before the death: in order, none twice.
    expect(progress.length).toBeGreaterThanOrEqual(3);
    expect(progress).toEqual(progress.map((_, index) => index + 1));
  }, 20_000);
});

describe('Redis unreachable, then back (e2e)', () => {
  const logger = new RecordingLogger();
  const unhandled: unknown[] = [];
  const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
  beforeAll(() => process.on('unhandledRejection', onUnhandled));
  afterAll(() => process.off('unhandledRejection', onUnhandled));
  const running = useRedisApp({ prefix: 'down:', state: { operationTimeoutMs: 300 }, logger });

  it('answers 503 with a JSON-RPC body where Redis is needed, serves what it is not needed for, and recovers by itself', async () => {
    const { app, redis } = running;
    const cached = await initialize(app.mcpUrl);
    const session = (id: string): Record<string, string> => ({
      'mcp-session-id': id,
      'mcp-protocol-version': '2025-11-25',
    });
    await redis.stop();

    const refused = await post(app.mcpUrl, initializeRequest('2025-11-25', 7));
    expect(refused).toMatchObject({
      status: 503,
      retryAfter: '1',
      body: { jsonrpc: '2.0', id: 7, error: { code: -32000, message: expect.stringContaining('unavailable') } },
    });
    // A session this instance has cached is served from its cache.
    const echo = await post(
      app.mcpUrl,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'echo', arguments: { text: 'still here' } } },
      session(cached),
    );
    expect(echo).toMatchObject({ status: 200, body: { result: { content: [{ type: 'text', text: 'still here' }] } } });
    // One it would have to read: 503; a ping on it needs nothing and is answered.
    const unknown = '6f1c1b2e-58a3-4b43-9c43-0d3a1d0e6a11';
    expect(await post(app.mcpUrl, { jsonrpc: '2.0', id: 3, method: 'tools/list' }, session(unknown))).toMatchObject({
      status: 503,
      body: { jsonrpc: '2.0', id: null, error: { code: -32000 } },
    });
    expect(await post(app.mcpUrl, { jsonrpc: '2.0', id: 4, method: 'ping' }, session(unknown))).toMatchObject({
      status: 200,
      body: { id: 4, result: {} },
    });
    // The stateless revision needs no shared state.
    const modern = new ModernClient(() => app.mcpUrl);
    expect(await modern.result('tools/call', { name: 'echo', arguments: { text: 'modern' } })).toMatchObject({
      content: [{ type: 'text', text: 'modern' }],
    });
    // Many at once, all answered while Redis is still down: nothing is queued for its return (a
    // queued request would wait for the restart below, and the test would time out). No time bound:
    // a loaded CI machine once took 15 s for the 200.
    const burst = await Promise.all(
      Array.from({ length: 200 }, (_, index) => post(app.mcpUrl, initializeRequest('2025-11-25', index))),
    );
    expect(burst.every((answer) => answer.status === 503)).toBe(true);

    await until(
      () =>
        logger.entries.some((entry) => entry.level === 'warn' && entry.text.includes('Shared state is unavailable')),
      'the outage logged',
      5_000,
    );
    expect(logger.entries.filter((entry) => entry.text.includes('Shared state is unavailable'))).toHaveLength(1);

    await redis.restart();
    await until(
      async () => (await post(app.mcpUrl, initializeRequest('2025-11-25', 9))).status === 200,
      'a session opened again without restarting the app',
      10_000,
    );
    expect(unhandled).toEqual([]);
  }, 60_000);

  it('bounds a request by the operation timeout while Redis does not answer', async () => {
    const { app, redis } = running;
    await redis.pause();
    try {
      const started = Date.now();
      const answer = await post(app.mcpUrl, initializeRequest('2025-11-25', 11));
      expect(answer.status).toBe(503);
      expect(Date.now() - started).toBeLessThan(300 + 1_500);
    } finally {
      await redis.resume();
    }
    await until(
      async () => (await post(app.mcpUrl, initializeRequest('2025-11-25', 12))).status === 200,
      'served again once Redis answers',
      10_000,
    );
    expect(unhandled).toEqual([]);
  }, 20_000);
});
