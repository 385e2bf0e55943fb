import type { RedisStateOptions } from 'mcp42/redis';

/** The injection token under which your application provides its ioredis client. */
export const REDIS_CLIENT = Symbol('REDIS_CLIENT');

/** An ioredis `Redis` (standalone, or through Sentinel): what `redisState()` takes. */
export type RedisClient = RedisStateOptions['client'];
