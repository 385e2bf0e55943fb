import type { RedisServer } from '../test/utils/redis-server.js';

/** The key prefix of the sample's Redis state (`redisState({ keyPrefix })` in sample-app/app.module.ts). */
export const SAMPLE_KEY_PREFIX = 'mcp42-sample:';

/** The record key of a session of the sample (RedisKeys.record): a hash. */
export const sessionRecordKey = (sessionId: string): string => `${SAMPLE_KEY_PREFIX}s:{${sessionId}}`;

/** The key of a session's stored events (RedisKeys.events): a stream. */
export const sessionEventsKey = (sessionId: string): string => `${sessionRecordKey(sessionId)}:e`;

/** The `SCAN MATCH` pattern of every session record of the sample (not their `:e`, `:b`, `:u` keys). */
export const SESSION_RECORD_PATTERN = `${SAMPLE_KEY_PREFIX}s:{*}`;

/** The numeric fields of INFO sections (`name:value` lines). */
async function info(redis: RedisServer, ...sections: string[]): Promise<(field: string) => number> {
  const fields = new Map<string, string>();
  for (const line of String(await redis.value('INFO', ...sections)).split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon > 0 && !line.startsWith('#')) fields.set(line.slice(0, colon), line.slice(colon + 1));
  }
  return (field) => {
    const value = Number(fields.get(field));
    if (!fields.has(field) || !Number.isFinite(value))
      throw new Error(`INFO ${sections.join(' ')} has no numeric ${field}`);
    return value;
  };
}

/** The redis-server's process id. */
export async function redisPid(redis: RedisServer): Promise<number> {
  return (await info(redis, 'server'))('process_id');
}

/** What redis-server did so far: CPU (user + system, every thread) in µs, and commands processed. */
export async function redisWork(redis: RedisServer): Promise<{ cpuMicros: number; commands: number }> {
  const field = await info(redis, 'cpu', 'stats');
  return {
    cpuMicros: Math.round((field('used_cpu_user') + field('used_cpu_sys')) * 1e6),
    commands: field('total_commands_processed'),
  };
}

/** What Redis has allocated now (INFO memory). */
export interface RedisMemory {
  /** `used_memory`. */
  readonly used: number;
  /** `used_memory` less `mem_clients_normal`: without the clients' buffers, which move with the traffic of the moment. */
  readonly stored: number;
}

export async function redisMemory(redis: RedisServer): Promise<RedisMemory> {
  const field = await info(redis, 'memory');
  return { used: field('used_memory'), stored: field('used_memory') - field('mem_clients_normal') };
}

/** `(after - before) / count` of both figures. */
export function memoryPer(before: RedisMemory, after: RedisMemory, count: number): RedisMemory {
  return { used: (after.used - before.used) / count, stored: (after.stored - before.stored) / count };
}

/** `MEMORY USAGE` of a key, every element counted (`SAMPLES 0`); 0 when the key does not exist. */
export async function memoryUsage(redis: RedisServer, key: string): Promise<number> {
  return Number((await redis.value('MEMORY', 'USAGE', key, 'SAMPLES', '0')) ?? 0);
}

/** `redis_version` of the server. */
export async function redisVersion(redis: RedisServer): Promise<string> {
  return /^redis_version:(.+)$/m.exec(String(await redis.value('INFO', 'server')))?.[1]?.trim() ?? '?';
}
