import { Redis } from 'ioredis';
import type { SharedState } from '../../src/interfaces/mcp-shared-state.interface.js';
import { redisState } from '../../src/redis/redis-state.js';
import { RedisServer } from '../utils/redis-server.js';

const quiet = { onMessage: () => undefined, onStandalone: () => undefined, onAvailability: () => undefined };

/** The Redis server of a spec file, and shared states on it that hear nothing (for record-level specs). */
export interface RedisStates {
  readonly server: () => RedisServer;
  /** A state of its own on the server, started (each with its own client), stopped after the file. */
  start(keyPrefix: string): Promise<SharedState>;
}

/**
 * Starts a `redis-server` for the enclosing spec file (in `beforeAll`) and stops it, with every state
 * and client made through {@link RedisStates.start}, after the file.
 */
export function useRedisStates(): RedisStates {
  let server: RedisServer | undefined;
  const clients: Redis[] = [];
  const states: SharedState[] = [];
  beforeAll(async () => {
    server = await RedisServer.start();
  });
  afterAll(async () => {
    await Promise.all(states.map((each) => each.stop()));
    for (const client of clients) client.disconnect();
    await server?.stop();
  });
  return {
    server: () => server!,
    async start(keyPrefix) {
      const client = new Redis(server!.url, { lazyConnect: true });
      clients.push(client);
      const { port } = redisState({ client, keyPrefix, operationTimeoutMs: 500, connectTimeoutMs: 2_000 });
      await port.start(quiet);
      states.push(port);
      return port;
    },
  };
}
