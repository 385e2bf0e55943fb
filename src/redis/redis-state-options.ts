import type { Cluster, Redis } from 'ioredis';
import { MAX_TIMER_MS } from '../mcp.constants.js';

/**
 * Options of {@link redisState}.
 * @category Scaling
 */
export interface RedisStateOptions {
  /**
   * The application's ioredis client: a `Redis`, standalone or through Sentinel (a `Cluster` is
   * refused: not supported yet). mcp42 makes
   * its own connections from it with `duplicate()` (same address, credentials, TLS, database and
   * `retryStrategy`), and never sends a command on it nor closes it.
   */
  readonly client: Redis | Cluster;
  /**
   * Put before every key and channel name, so several applications can share one Redis. It may not
   * contain `{` or `}`: the keys of one session carry a Cluster hash tag of their own.
   * @default 'mcp42:'
   */
  readonly keyPrefix?: string;
  /**
   * How long one Redis operation may take (milliseconds). A slower one fails, and the request that
   * needed it is answered 503; three in a row stop sending for a second.
   * @default 1000
   */
  readonly operationTimeoutMs?: number;
  /**
   * How long an instance counts as alive after it last renewed its lease (milliseconds); it renews
   * three times per lease. An event-loop pause longer than this makes a live instance look dead.
   * It bounds how long the tasks of an instance that died stay unfinished: they are `failed` on the
   * next `tasks/get` once its lease expired, and by a sweep within 4/3 of the lease.
   * @default 5000
   */
  readonly replicaLeaseMs?: number;
  /**
   * How long bootstrap waits for Redis (milliseconds). After that the application starts anyway
   * and answers 503 to what needs Redis until it connects.
   * @default 5000
   */
  readonly connectTimeoutMs?: number;
  /**
   * Redis operations in flight at most; past it, operations fail at once (503) instead of queueing.
   * @default 10000
   */
  readonly maxPendingOperations?: number;
}

/**
 * The one place the defaults of {@link RedisStateOptions} live.
 * @internal
 */
export const REDIS_STATE_DEFAULTS = {
  keyPrefix: 'mcp42:',
  operationTimeoutMs: 1_000,
  replicaLeaseMs: 5_000,
  connectTimeoutMs: 5_000,
  maxPendingOperations: 10_000,
} as const satisfies Omit<Required<RedisStateOptions>, 'client'>;

/**
 * Options with every default filled in.
 * @internal
 */
export type ResolvedRedisStateOptions = Required<RedisStateOptions>;

const KNOWN_OPTIONS: ReadonlySet<string> = new Set<keyof RedisStateOptions>([
  'client',
  'keyPrefix',
  'operationTimeoutMs',
  'replicaLeaseMs',
  'connectTimeoutMs',
  'maxPendingOperations',
]);

/** The lease is renewed every third of it, so a shorter one would renew more often than a timer can tell. */
const MIN_LEASE_MS = 30;

/**
 * Applies the defaults and rejects what cannot work, so a mistake fails at bootstrap with a message
 * that names it.
 * @throws TypeError naming the option.
 * @internal
 */
export function resolveRedisStateOptions(options: RedisStateOptions): ResolvedRedisStateOptions {
  if (typeof options !== 'object' || options === null) {
    throw new TypeError('redisState: options must be an object with at least a client');
  }
  const unknown = Object.keys(options).filter((key) => !KNOWN_OPTIONS.has(key));
  if (unknown.length > 0) {
    throw new TypeError(`redisState: unknown option(s) ${unknown.join(', ')}; see RedisStateOptions`);
  }
  const client = options.client as unknown as { duplicate?: unknown } | null | undefined;
  if (typeof client !== 'object' || client === null || typeof client.duplicate !== 'function') {
    throw new TypeError('redisState: options.client must be an ioredis Redis or Cluster instance');
  }
  if ((client as { isCluster?: unknown }).isCluster === true) {
    // PUBLISH counts only the receivers on the node it reached in a Cluster: the routing of standalone
    // streams relies on that count, and would need sharded pub/sub (Redis 7) there.
    throw new TypeError(
      'redisState: Redis Cluster is not supported yet; use a standalone Redis, with Sentinel for failover',
    );
  }
  const resolved: ResolvedRedisStateOptions = { ...REDIS_STATE_DEFAULTS, ...withoutUndefined(options) };
  if (typeof resolved.keyPrefix !== 'string' || /[{}]/.test(resolved.keyPrefix)) {
    throw new TypeError(
      `redisState: options.keyPrefix must be a string without '{' or '}' (each session's keys carry a hash tag), ` +
        `got ${JSON.stringify(resolved.keyPrefix)}`,
    );
  }
  for (const key of ['operationTimeoutMs', 'connectTimeoutMs', 'replicaLeaseMs'] as const) {
    const value = resolved[key];
    const min = key === 'replicaLeaseMs' ? MIN_LEASE_MS : 1;
    if (!Number.isInteger(value) || value < min || value > MAX_TIMER_MS) {
      throw new TypeError(
        `redisState: options.${key} must be a whole number of milliseconds from ${min} to ${MAX_TIMER_MS}, got ${String(value)}`,
      );
    }
  }
  if (!Number.isSafeInteger(resolved.maxPendingOperations) || resolved.maxPendingOperations < 1) {
    throw new TypeError(
      `redisState: options.maxPendingOperations must be a positive whole number, got ${String(resolved.maxPendingOperations)}`,
    );
  }
  return resolved;
}

/** An option given as `undefined` takes its default, as if it were left out. */
function withoutUndefined(options: RedisStateOptions): RedisStateOptions {
  return Object.fromEntries(
    Object.entries(options).filter(([, value]) => value !== undefined),
  ) as unknown as RedisStateOptions;
}
