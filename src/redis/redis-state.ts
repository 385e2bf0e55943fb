import type { McpState } from '../interfaces/mcp-shared-state.interface.js';
import { RedisSharedState } from './redis-shared-state.js';
import { resolveRedisStateOptions, type RedisStateOptions } from './redis-state-options.js';

/**
 * Shared state on Redis, for several instances of one application behind a load balancer: pass
 * the result as the `state` option of `McpModule.forRoot()`. Every instance then serves every 2025
 * session, resumes every stream and routes requests to the client, whichever instance a request
 * reaches.
 *
 * mcp42 opens two connections of its own from `options.client` (`duplicate()`), and leaves the
 * client itself alone. Needs Redis 6.2 or later (or a compatible server), and `ioredis` 5.4+ or 6
 * installed by the application.
 *
 * @example
 * ```ts
 * import Redis from 'ioredis';
 * import { redisState } from 'mcp42/redis';
 *
 * McpModule.forRoot({
 *   name: 'weather',
 *   version: '1.0.0',
 *   state: {
 *     shared: redisState({ client: new Redis(process.env.REDIS_URL), keyPrefix: 'weather-mcp:' }),
 *     secret: process.env.MCP_STATE_SECRET,
 *   },
 * });
 * ```
 * @param options the client and limits; see {@link RedisStateOptions}.
 * @returns a state for one `McpModule`: starting it twice throws, so call `redisState()` once per module.
 * @throws TypeError naming an option that cannot work.
 * @category Scaling
 */
export function redisState(options: RedisStateOptions): McpState {
  const shared = new RedisSharedState(resolveRedisStateOptions(options));
  return {
    kind: 'mcp42.state',
    get available() {
      return shared.available;
    },
    port: shared,
  };
}
