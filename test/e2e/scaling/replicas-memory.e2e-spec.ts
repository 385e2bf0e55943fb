/**
 * What 10,000 sessions leave once they expired, with Redis state: no key in Redis (counted with SCAN),
 * nothing in the instance's cache, and no timer per session on the instance while they lived.
 */
import { Agent } from 'node:http';
import { request } from 'node:http';
import { SharedSessions } from '../../internals/index.js';
import { useRedisApp } from '../../utils/redis-app.js';
import { initializeRequest, MCP_POST_HEADERS, TEST_ADAPTER } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';

const SESSIONS = 10_000;
const AT_ONCE = 200;
const IDLE_MS = 3_000;

/** The timers alive in this process now. */
const timers = (): number => process.getActiveResourcesInfo().filter((kind) => kind === 'Timeout').length;

// What Redis keeps does not depend on the HTTP platform: run once (Express), not twice at the same
// time on a 2-core CI machine, where two sets of 10,000 sessions made it take minutes.
const describeOnce = TEST_ADAPTER === 'express' ? describe : describe.skip;

describeOnce('10,000 expired sessions with Redis state (e2e)', () => {
  const running = useRedisApp({ prefix: 'mem:', sessionIdleTimeoutMs: IDLE_MS });
  const agent = new Agent({ keepAlive: true, maxSockets: AT_ONCE });
  afterAll(() => agent.destroy());

  const initialize = (): Promise<number> =>
    new Promise((resolve, reject) => {
      const { port } = new URL(running.app.baseUrl);
      const body = JSON.stringify(initializeRequest('2025-11-25', 1));
      const req = request(
        { host: '127.0.0.1', port, path: '/mcp', method: 'POST', agent, headers: MCP_POST_HEADERS },
        (res) => {
          res.resume();
          res.once('end', () => resolve(res.statusCode ?? 0));
        },
      );
      req.once('error', reject);
      req.end(body);
    });

  it('leaves no key, no cached session and no timer per session', async () => {
    const baseline = timers();
    let created = 0;
    let mostTimers = 0;
    for (let done = 0; done < SESSIONS; done += AT_ONCE) {
      const statuses = await Promise.all(Array.from({ length: AT_ONCE }, initialize));
      created += statuses.filter((status) => status === 200).length;
      mostTimers = Math.max(mostTimers, timers());
    }
    expect(created).toBe(SESSIONS);
    // Thousands of sessions, a bounded number of timers: none of them is per session.
    expect(mostTimers - baseline).toBeLessThan(50);
    expect((await running.redis.keys('mem:s:*')).length).toBeGreaterThan(0);

    await until(
      async () => (await running.redis.keys('mem:s:*')).length === 0,
      'every session key expired',
      IDLE_MS + 60_000,
    );
    expect(await running.redis.value('ZCOUNT', 'mem:{g}:idx', '-inf', '+inf')).toBe(0);
    await until(() => running.app.app.get(SharedSessions).cacheSize === 0, 'the cache emptied', 5_000);
  }, 300_000);
});
