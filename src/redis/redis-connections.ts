import type { Cluster, Redis, RedisOptions } from 'ioredis';
import type { RedisConnection } from './redis-scripts.js';

/**
 * Our two connections, both duplicates of the user's client (which we never use nor close).
 * @internal
 */
export interface RedisConnections {
  /** Scripts and commands: fails fast, never queues. */
  readonly command: RedisConnection;
  /** Pub/sub only: resubscribes by itself after a reconnect. */
  readonly subscriber: RedisConnection;
}

/** What both duplicates override of the user's options, whatever those say. */
const COMMON: Partial<RedisOptions> = {
  keyPrefix: '',
  lazyConnect: false,
  // Replies in the shapes the scripts' parsers expect (flat arrays, numbers as numbers).
  replyMapping: 'legacy',
  stringNumbers: false,
  monitor: false,
};

/**
 * Opens both duplicates of `client`. The command connection has no offline queue, no retries and
 * ioredis' `commandTimeout`, so nothing queues locally while Redis is away; the subscriber keeps
 * its queue (only (un)subscribes go through it) and resubscribes on reconnect.
 * @internal
 */
export function openConnections(
  client: Redis | Cluster,
  replicaId: string,
  operationTimeoutMs: number,
): RedisConnections {
  const command: Partial<RedisOptions> = {
    ...COMMON,
    connectionName: `mcp42:${replicaId}:cmd`,
    enableOfflineQueue: false,
    maxRetriesPerRequest: 0,
    autoResendUnfulfilledCommands: false,
    commandTimeout: operationTimeoutMs,
    enableAutoPipelining: true,
  };
  const subscriber: Partial<RedisOptions> = {
    ...COMMON,
    connectionName: `mcp42:${replicaId}:sub`,
    enableOfflineQueue: true,
    autoResubscribe: true,
    commandTimeout: operationTimeoutMs,
  };
  return { command: duplicate(client, command), subscriber: duplicate(client, subscriber) };
}

function duplicate(client: Redis | Cluster, overrides: Partial<RedisOptions>): RedisConnection {
  if (!isCluster(client)) return client.duplicate(overrides);
  // A cluster takes the queue, pipelining, prefix and connect options itself, the rest per node.
  const { enableOfflineQueue, enableAutoPipelining, keyPrefix, lazyConnect, ...perNode } = overrides;
  return client.duplicate(undefined, {
    enableOfflineQueue,
    enableAutoPipelining,
    keyPrefix,
    lazyConnect,
    // ioredis merges these into the cluster's own `redisOptions`.
    redisOptions: perNode,
  });
}

function isCluster(client: Redis | Cluster): client is Cluster {
  return client.isCluster;
}

/**
 * Whether a connection can take commands now.
 * @internal
 */
export function isReady(connection: RedisConnection): boolean {
  return connection.status === 'ready';
}

/**
 * Resolves `true` once every connection is ready, or `false` once `timeoutMs` passed first.
 * @internal
 */
export function whenReady(connections: readonly RedisConnection[], timeoutMs: number): Promise<boolean> {
  return new Promise((resolve) => {
    const check = (): void => {
      if (!connections.every(isReady)) return;
      done(true);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    const done = (ready: boolean): void => {
      clearTimeout(timer);
      for (const connection of connections) connection.off('ready', check);
      resolve(ready);
    };
    for (const connection of connections) connection.on('ready', check);
    check();
  });
}

/**
 * Closes a connection: `QUIT` when it is ready (answers in flight arrive first), else, or when
 * `QUIT` does not answer within `timeoutMs`, at once.
 * @internal
 */
export async function closeConnection(connection: RedisConnection, timeoutMs: number): Promise<void> {
  if (connection.status === 'end') return;
  if (connection.status === 'ready') {
    let timer: NodeJS.Timeout | undefined;
    const timeout = new Promise<never>((_, reject) => {
      timer = setTimeout(() => reject(new Error('QUIT did not answer')), timeoutMs);
    });
    try {
      await Promise.race([connection.quit(), timeout]);
      return;
    } catch {
      // Fall through: drop it.
    } finally {
      clearTimeout(timer);
    }
  }
  connection.disconnect();
}

/** The oldest Redis supported (the documented floor; Valkey 7.2+ reports a compatible version). */
const MIN_VERSION: readonly [number, number] = [6, 2];

/**
 * Redis answered, but is too old: unlike a timeout, trying again will not help.
 * @internal
 */
export class IncompatibleRedisError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'IncompatibleRedisError';
  }
}

/**
 * Reads the server's version (`INFO server`).
 * @throws IncompatibleRedisError when it is older than 6.2, or does not say.
 * @internal
 */
export async function checkServerVersion(connection: RedisConnection): Promise<void> {
  const info = await connection.info('server');
  const match = /^redis_version:(\d+)\.(\d+)/m.exec(info);
  const [major, minor] = match ? [Number(match[1]), Number(match[2])] : [0, 0];
  if (major > MIN_VERSION[0] || (major === MIN_VERSION[0] && minor >= MIN_VERSION[1])) return;
  const found = match ? `${major}.${minor}` : 'an unknown version';
  throw new IncompatibleRedisError(
    `redisState: Redis ${MIN_VERSION.join('.')} or later is required (the server runs ${found}); ` +
      'upgrade it, or use a compatible server such as Valkey 7.2+',
  );
}

/**
 * The version check of one connection: asked once, asked again only after a failure that was not
 * the version's (a timeout, a lost connection).
 * @internal
 */
export class VersionCheck {
  private pending: Promise<void> | undefined;
  private passed = false;
  private refusal: IncompatibleRedisError | undefined;

  constructor(private readonly connection: RedisConnection) {}

  /** Whether the server was found recent enough. */
  get ok(): boolean {
    return this.passed;
  }

  /** Why the server was refused, once it was. */
  get incompatible(): IncompatibleRedisError | undefined {
    return this.refusal;
  }

  run(): Promise<void> {
    this.pending ??= checkServerVersion(this.connection).then(
      () => {
        this.passed = true;
      },
      (error: unknown) => {
        if (error instanceof IncompatibleRedisError) this.refusal = error;
        else this.pending = undefined;
        throw error;
      },
    );
    return this.pending;
  }
}
