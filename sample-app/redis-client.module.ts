import { Inject, Module, type DynamicModule, type OnApplicationShutdown } from '@nestjs/common';
import { Redis } from 'ioredis';

/** Injection token of the sample's Redis client (one per application). */
export const SAMPLE_REDIS = Symbol('sample-redis');

/**
 * The application's own Redis client, as a Nest app that uses Redis already has one: mcp42 is given
 * it (`redisState({ client })`), makes its own connections from it, and never closes it; the app
 * closes it at shutdown.
 */
@Module({})
export class RedisClientModule implements OnApplicationShutdown {
  constructor(@Inject(SAMPLE_REDIS) private readonly client: Redis) {}

  static forUrl(url: string): DynamicModule {
    return {
      module: RedisClientModule,
      providers: [{ provide: SAMPLE_REDIS, useFactory: () => new Redis(url) }],
      exports: [SAMPLE_REDIS],
    };
  }

  async onApplicationShutdown(): Promise<void> {
    await this.client.quit().catch(() => this.client.disconnect());
  }
}
