// The public API of mcp42/redis: shared state on Redis for several instances of one application.
// Everything else in this folder is internal (never write that tag in a comment here: the export
// below it would go too).

export { redisState } from './redis-state.js';
export type { RedisStateOptions } from './redis-state-options.js';
