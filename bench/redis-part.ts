import { availableParallelism } from 'node:os';
import { RedisServer } from '../test/utils/redis-server.js';
import { redisServerPath } from '../test/utils/system-binaries.js';
import { CLIENT_CPU, pinned, pinProcess, SERVER_CPU, spareCpus } from './affinity.js';
import { ServerChild } from './child.js';
import type { LoadFigures, LoadSettings } from './load.js';
import { measureRedisEvents } from './redis-events.js';
import { runRedisLoads, type RedisPlacement } from './redis-loads.js';
import type { RedisResults } from './redis-report.js';
import { measureRedisSessions } from './redis-sessions.js';
import { redisPid, redisVersion } from './redis-stats.js';
import type { SessionFigures } from './report.js';
import { measureSessionMemory } from './session-memory.js';
import { measureSessionRate } from './session-rate.js';
import type { LoadName, TargetName } from './targets.js';

/** The state secret every Redis-backed server gets (the sample wants one with Redis: at least 32 bytes). */
const STATE_SECRET = 'mcp42-bench-state-secret-0123456789abcdef';
/**
 * Sessions per measurement at most: the sessions measurement makes twice as many on top of those the
 * loads left, and every instance together may hold `maxSessions` (10,000 by default).
 */
const MAX_REDIS_SESSIONS = 4_000;

export interface RedisPartInput {
  readonly settings: LoadSettings;
  readonly sessionCount: number;
  /** What the load and sessions parts measured in this run: their in-memory figures are not measured again. */
  readonly load: ReadonlyMap<LoadName, LoadFigures>;
  readonly sessions: ReadonlyMap<TargetName, SessionFigures>;
  readonly log: (line: string) => void;
}

/**
 * The redis part: one redis-server for the whole part; the echo loads with sessions in Redis (one
 * instance on each platform, then two behind a round-robin proxy), sessions (rate, memory in Redis and
 * in the instance) and stored events. Undefined, with a line saying so, without `redis-server` on the PATH.
 */
export async function runRedisPart(input: RedisPartInput): Promise<RedisResults | undefined> {
  if (!(await redisServerPath())) {
    input.log('redis: skipped, redis-server not found');
    return undefined;
  }
  const { settings, log } = input;
  const redis = await RedisServer.start();
  try {
    const spare = spareCpus();
    const redisCpu = spare[0] ?? CLIENT_CPU;
    pinProcess(await redisPid(redis), redisCpu);
    const placement: RedisPlacement = { secondInstanceCpu: spare[1] ?? SERVER_CPU, proxyCpu: spare[2] ?? SERVER_CPU };
    const env = { MCP_REDIS_URL: redis.url, MCP_STATE_SECRET: STATE_SECRET };

    const loads = await runRedisLoads(settings, redis, env, placement, input.load, log);

    const count = Math.min(input.sessionCount, MAX_REDIS_SESSIONS);
    const started = performance.now();
    const inMemorySessions = await inMemorySessionFigures(input, count);
    const child = await ServerChild.start('mcp42-redis', { env });
    try {
      const sessions = await measureRedisSessions(child, redis, count);
      const events = await measureRedisEvents(child, redis);
      log(`redis sessions and stored events (${((performance.now() - started) / 1000).toFixed(1)} s)`);
      return {
        settings,
        version: await redisVersion(redis),
        placement: placementText(redisCpu, placement),
        instancesShareCore: pinned() ? placement.secondInstanceCpu === SERVER_CPU : availableParallelism() < 4,
        loads,
        sessions,
        inMemorySessions,
        events,
      };
    } finally {
      await child.stop();
    }
  } finally {
    await redis.stop();
  }
}

/** The in-memory mcp42 (Express) session figures: the sessions part's, or measured here as it does. */
async function inMemorySessionFigures(
  { sessions, sessionCount }: RedisPartInput,
  count: number,
): Promise<RedisResults['inMemorySessions']> {
  const measured = sessions.get('mcp42');
  if (measured) return { ...measured, count: sessionCount, source: 'the sessions part of this run' };
  const child = await ServerChild.start('mcp42');
  try {
    const { bytesPerSession } = await measureSessionMemory(child, count);
    const perSecond = await measureSessionRate(child, count);
    return { bytesPerSession, perSecond, count, source: 'measured here as the sessions part does' };
  } finally {
    await child.stop();
  }
}

function placementText(redisCpu: number, { secondInstanceCpu, proxyCpu }: RedisPlacement): string {
  if (!pinned()) return 'nothing pinned: the servers, the proxy, redis-server and the load generator share the cores';
  const beside = (cpu: number): string =>
    cpu === CLIENT_CPU ? ' (with the load generator)' : cpu === SERVER_CPU ? ' (with the servers)' : '';
  return (
    `servers (the first instance of two) on CPU ${SERVER_CPU}, load generator on CPU ${CLIENT_CPU}; ` +
    `redis-server on CPU ${redisCpu}` +
    `${beside(redisCpu)}, second instance on CPU ${secondInstanceCpu}${beside(secondInstanceCpu)}, ` +
    `round-robin proxy (a process of its own) on CPU ${proxyCpu}${beside(proxyCpu)} (taskset)`
  );
}
