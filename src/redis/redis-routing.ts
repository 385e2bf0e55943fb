import type { InstanceMessage, StandaloneClaim } from '../interfaces/mcp-shared-state.interface.js';
import type { RedisKeys } from './redis-keys.js';
import type { RedisConnection, RedisScripts } from './redis-scripts.js';
import type { RedisSubscriber } from './redis-subscriber.js';

/**
 * What crosses between instances: standalone streams (claimed, released, sent to), messages, and
 * who is alive. The routing half of the port, without the gate (the caller runs each method
 * through it).
 * @internal
 */
export class RedisRouting {
  constructor(
    private readonly command: RedisConnection,
    private readonly scripts: RedisScripts,
    private readonly subscriber: RedisSubscriber,
    private readonly keys: RedisKeys,
    private readonly replicaId: string,
  ) {}

  async claim(id: string, force: boolean): Promise<StandaloneClaim> {
    // Subscribed before the script records us as the holder: nothing published to it can be missed.
    await this.subscriber.beginClaim(id);
    let claim: Awaited<ReturnType<RedisScripts['claim']>>;
    try {
      const released: InstanceMessage = { kind: 'stream-released', sessionId: id };
      claim = await this.scripts.claim(
        [this.keys.record(id), this.keys.backlog(id)],
        this.replicaId,
        force,
        this.keys.inbox(''),
        JSON.stringify(released),
      );
    } catch (error) {
      this.subscriber.endClaim(id, 'failed');
      throw error;
    }
    const arrived = this.subscriber.endClaim(id, claim.outcome === 'ok' ? 'held' : 'lost');
    if (claim.outcome !== 'ok') return claim;
    const backlog = [...claim.backlog, ...arrived];
    return claim.previous ? { outcome: 'ok', backlog, previousHolder: claim.previous } : { outcome: 'ok', backlog };
  }

  async release(id: string): Promise<void> {
    // Unsubscribed first: while we are still recorded, senders whose PUBLISH reaches nobody queue.
    // The record is released even when that failed: with no holder recorded, senders queue too.
    const unsubscribed = await this.subscriber.release(id).then(
      () => ({ ok: true as const }),
      (error: unknown) => ({ ok: false as const, error }),
    );
    await this.scripts.release(this.keys.record(id), this.replicaId);
    if (!unsubscribed.ok) throw unsubscribed.error;
  }

  sendStandalone(id: string, data: string, backlogLimit: number): Promise<'held' | 'queued' | 'gone'> {
    const keys = [this.keys.record(id), this.keys.backlog(id)] as const;
    return this.scripts.sendStandalone(keys, this.keys.standalone(id), data, backlogLimit);
  }

  async sendStandaloneMany(
    ids: readonly string[],
    data: string,
    backlogLimit: number,
  ): Promise<ReadonlyMap<string, 'held' | 'queued' | 'gone'>> {
    // Auto-pipelining sends the scripts of one fan-out together: one round trip, one place in the gate.
    const found = await Promise.all(
      ids.map((id) => this.scripts.standaloneHolder([this.keys.record(id), this.keys.backlog(id)], data, backlogLimit)),
    );
    const outcomes = new Map<string, 'held' | 'queued' | 'gone'>();
    const byHolder = new Map<string, string[]>();
    found.forEach((result, index) => {
      const id = ids[index]!;
      outcomes.set(id, result.outcome);
      if (result.outcome === 'held') {
        const held = byHolder.get(result.holder);
        if (held) held.push(id);
        else byHolder.set(result.holder, [id]);
      }
    });
    // One message per holding instance, not one per session: the holder's reading and Redis' pushing
    // cost what the instances number, whatever the sessions do.
    await Promise.all(
      [...byHolder].map(async ([holder, held]) => {
        const message: InstanceMessage = { kind: 'standalone-many', ids: held, data };
        const heard = await this.command.publish(this.keys.fanoutInbox(holder), JSON.stringify(message));
        if (heard > 0) return;
        // The holder is gone without releasing (or is of a version without fan-outs): each stream's
        // message goes as a single send would
        // (its channel is heard by nobody either, so it waits in the backlog for the next holder).
        const single = await Promise.all(held.map((id) => this.sendStandalone(id, data, backlogLimit)));
        held.forEach((id, index) => outcomes.set(id, single[index]!));
      }),
    );
    return outcomes;
  }

  send(replicaId: string, message: InstanceMessage): Promise<void> {
    return this.publish(this.keys.inbox(replicaId), message);
  }

  broadcast(message: InstanceMessage): Promise<void> {
    return this.publish(this.keys.broadcast, message);
  }

  async alive(replicaIds: readonly string[]): Promise<ReadonlySet<string>> {
    const others = [...new Set(replicaIds)].filter((id) => id !== this.replicaId);
    // One EXISTS per lease, pipelined: leases live in different Cluster slots, where MGET fails.
    const found = await Promise.all(others.map((id) => this.command.exists(this.keys.lease(id))));
    const alive = new Set(others.filter((_, index) => found[index] === 1));
    if (replicaIds.includes(this.replicaId)) alive.add(this.replicaId);
    return alive;
  }

  private async publish(channel: string, message: InstanceMessage): Promise<void> {
    await this.command.publish(channel, JSON.stringify(message));
  }
}
