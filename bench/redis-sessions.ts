import { setTimeout as sleep } from 'node:timers/promises';
import type { RedisServer } from '../test/utils/redis-server.js';
import type { ServerChild } from './child.js';
import {
  memoryPer,
  memoryUsage,
  redisMemory,
  redisWork,
  SESSION_RECORD_PATTERN,
  type RedisMemory,
} from './redis-stats.js';
import { measureSessionMemory } from './session-memory.js';
import { measureSessionRate } from './session-rate.js';

export interface RedisSessionFigures {
  readonly count: number;
  /** The instance's heap per session it has cached (its counterpart in memory: heap per idle session). */
  readonly heapPerSession: number;
  /** What Redis allocated per idle session (record, index entry). */
  readonly memoryPerSession: RedisMemory;
  /** Session records SCAN found after the idle sessions were made (those of the loads included). */
  readonly records: number;
  /** `MEMORY USAGE` and fields of one of them. */
  readonly record: { readonly key: string; readonly bytes: number; readonly fields: number };
  /** Sessions created per second (measureSessionRate). */
  readonly perSecond: number;
  /** What redis-server spent (user + system) per session created meanwhile, µs, and the commands it processed. */
  readonly redisMicrosPerSession: number;
  readonly redisCommandsPerSession: number;
}

/**
 * On a fresh Redis-backed server: `count` idle sessions (initialize + notifications/initialized),
 * with the instance's heap per session (measureSessionMemory), what Redis allocated for them, and one
 * record as SCAN finds it; then the creation rate of `count` more (measureSessionRate), with Redis's
 * CPU per session.
 */
export async function measureRedisSessions(
  child: ServerChild,
  redis: RedisServer,
  count: number,
): Promise<RedisSessionFigures> {
  const before = await redisMemory(redis);
  // Its warm-up sessions are deleted (DELETE) before it counts: they leave nothing in Redis.
  const { bytesPerSession: heapPerSession } = await measureSessionMemory(child, count);
  await sleep(200); // lets the instance's batched activity writes land
  const after = await redisMemory(redis);

  const records = await redis.keys(SESSION_RECORD_PATTERN);
  const key = records[0];
  if (!key) throw new Error(`SCAN MATCH ${SESSION_RECORD_PATTERN} found no session record`);
  const record = { key, bytes: await memoryUsage(redis, key), fields: Number(await redis.value('HLEN', key)) };

  const workBefore = await redisWork(redis);
  const perSecond = await measureSessionRate(child, count);
  const workAfter = await redisWork(redis);
  return {
    count,
    heapPerSession,
    memoryPerSession: memoryPer(before, after, count),
    records: records.length,
    record,
    perSecond,
    redisMicrosPerSession: (workAfter.cpuMicros - workBefore.cpuMicros) / count,
    // Less the INFO that read the figures before (counted once it ran).
    redisCommandsPerSession: (workAfter.commands - workBefore.commands - 1) / count,
  };
}
