import { hostname } from 'node:os';
import type { RedisConnection } from './redis-scripts.js';

/**
 * An instance's lease: a key that says it is alive for `ttlMs` after each renewal, and who it is
 * (pid, host, start time) for whoever looks at Redis.
 * @internal
 */
export class RedisLease {
  private readonly value = JSON.stringify({ pid: process.pid, host: hostname(), started: Date.now() });

  constructor(
    private readonly command: RedisConnection,
    private readonly key: string,
    private readonly ttlMs: number,
  ) {}

  /** Sets (or renews) it. */
  async renew(): Promise<void> {
    await this.command.set(this.key, this.value, 'PX', this.ttlMs);
  }

  /** Gives it up: the instance stops. */
  async drop(): Promise<void> {
    await this.command.del(this.key);
  }
}
