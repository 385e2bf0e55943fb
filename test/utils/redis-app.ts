import type { LoggerService } from '@nestjs/common';
import { Redis } from 'ioredis';
import { redisState, type RedisStateOptions } from '../../src/redis/index.js';
import type { McpModuleOptions } from '../../src/index.js';
import { ReplicasModule } from '../fixtures/replicas.module.js';
import { RedisServer } from './redis-server.js';
import { startApp, type RunningApp } from './start-app.js';

/** A redis-server of the describe's own, and one instance of the replicas fixture sharing state through it. */
export interface RedisApp {
  readonly redis: RedisServer;
  readonly client: Redis;
  readonly app: RunningApp;
}

export interface RedisAppOptions {
  /** Before every key and channel of the state. */
  readonly prefix: string;
  /** Options of `redisState` beyond its client and prefix. */
  readonly state?: Omit<RedisStateOptions, 'client' | 'keyPrefix'>;
  readonly sessionIdleTimeoutMs?: number;
  /** Module options beyond the state's. */
  readonly module?: Pick<McpModuleOptions, 'limits' | 'resumability'>;
  readonly logger?: LoggerService;
}

/**
 * Starts, for the tests of the enclosing `describe`, a real redis-server and one app on it (stopped
 * after them, Redis resumed first should a test have paused it). Read the fields inside tests.
 */
export function useRedisApp(options: RedisAppOptions): RedisApp {
  const running: { redis?: RedisServer; client?: Redis; app?: RunningApp } = {};
  beforeAll(async () => {
    running.redis = await RedisServer.start();
    running.client = new Redis(running.redis.url);
    const state = redisState({ client: running.client, keyPrefix: options.prefix, ...options.state });
    const extra = {
      ...options.module,
      ...(options.sessionIdleTimeoutMs === undefined
        ? {}
        : { sessions: { idleTimeoutMs: options.sessionIdleTimeoutMs } }),
    };
    running.app = await startApp(
      ReplicasModule.register(state, extra),
      options.logger ? { logger: options.logger } : {},
    );
  }, 30_000);
  afterAll(async () => {
    running.redis?.resume();
    await running.app?.close();
    running.client?.disconnect();
    await running.redis?.stop();
  });
  return {
    get redis() {
      return running.redis!;
    },
    get client() {
      return running.client!;
    },
    get app() {
      return running.app!;
    },
  };
}
