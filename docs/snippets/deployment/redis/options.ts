import { redisState } from 'mcp42/redis';
import type { RedisClient } from './redis-client.js';

// #region options
/** Every option of redisState(), at its default but the client and the prefix. */
export const state = (client: RedisClient) =>
  redisState({
    client,
    keyPrefix: 'weather-mcp:',
    operationTimeoutMs: 1_000, // a slower Redis operation fails, and its request gets 503
    replicaLeaseMs: 5_000, // an instance silent this long is dead: several times your worst event-loop pause
    connectTimeoutMs: 5_000, // bootstrap waits this long, then starts and answers 503 until Redis is there
    maxPendingOperations: 10_000, // operations in flight at most; past it, 503 at once
  });
// #endregion options
