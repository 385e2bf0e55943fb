import type { SharedStateHooks } from '../interfaces/mcp-shared-state.interface.js';
import type { RedisKeys } from './redis-keys.js';
import type { RedisConnection } from './redis-scripts.js';

/**
 * The pub/sub side of one instance: its inbox, the broadcast channel, and the standalone channels
 * of the sessions whose GET stream it holds. What arrives goes to the hooks; a hook that throws
 * never reaches ioredis.
 * @internal
 */
export class RedisSubscriber {
  /** Sessions whose standalone channel this instance hears for their holder here. */
  private readonly held = new Set<string>();
  /**
   * Sessions being claimed: subscribed, the claim script not answered yet. What arrives meanwhile
   * was published while a holder was recorded (us once the script ran, or the holder we replace),
   * so after the backlog the script takes: it waits here, and joins the end of that backlog.
   */
  private readonly claiming = new Map<string, string[]>();
  private readonly inbox: string;
  private readonly fanoutInbox: string;
  private listened = false;
  private readonly listener = (channel: string, message: string): void => this.deliver(channel, message);

  constructor(
    private readonly connection: RedisConnection,
    private readonly keys: RedisKeys,
    replicaId: string,
    private readonly hooks: Pick<SharedStateHooks, 'onMessage' | 'onStandalone'>,
  ) {
    this.inbox = keys.inbox(replicaId);
    this.fanoutInbox = keys.fanoutInbox(replicaId);
    connection.on('message', this.listener);
  }

  /** Subscribes to the broadcast channel and this instance's inbox (queued until connected). */
  async listen(): Promise<void> {
    await this.connection.subscribe(this.keys.broadcast, this.inbox, this.fanoutInbox);
    this.listened = true;
  }

  /** Whether {@link listen} succeeded once: from then on ioredis resubscribes after each reconnect. */
  get listening(): boolean {
    return this.listened;
  }

  /** The sessions held here now. */
  get heldSessions(): readonly string[] {
    return [...this.held];
  }

  /** First step of a claim: hear the session's channel before the script makes this instance its holder. */
  async beginClaim(sid: string): Promise<void> {
    this.claiming.set(sid, []);
    try {
      await this.connection.subscribe(this.keys.standalone(sid));
    } catch (error) {
      this.endClaim(sid, 'failed');
      throw error;
    }
  }

  /**
   * Last step of a claim. `held`: returns what arrived since {@link beginClaim}, to deliver after
   * the claimed backlog. `lost` (busy, gone): stops hearing the channel. `failed` (no answer): back
   * to how it was before the claim.
   */
  endClaim(sid: string, outcome: 'held' | 'lost' | 'failed'): string[] {
    const arrived = this.claiming.get(sid) ?? [];
    this.claiming.delete(sid);
    if (outcome === 'held') {
      this.held.add(sid);
      return arrived;
    }
    if (outcome === 'failed' && this.held.has(sid)) {
      for (const data of arrived) guard(() => this.hooks.onStandalone(sid, data));
      return [];
    }
    this.held.delete(sid);
    this.connection.unsubscribe(this.keys.standalone(sid)).catch(() => undefined);
    return [];
  }

  /**
   * Stops hearing a session's channel. Until Redis confirms, what arrives is still delivered: the
   * holder is recorded until after this, so senders still publish rather than queue.
   */
  async release(sid: string): Promise<void> {
    try {
      await this.connection.unsubscribe(this.keys.standalone(sid));
    } finally {
      this.held.delete(sid);
    }
  }

  /** Stops delivering anything (the connection is closing). */
  detach(): void {
    this.connection.off('message', this.listener);
    this.held.clear();
    this.claiming.clear();
  }

  private deliver(channel: string, data: string): void {
    if (channel === this.inbox || channel === this.fanoutInbox || channel === this.keys.broadcast) {
      const message = parseMessage(data);
      if (message) guard(() => this.hooks.onMessage(message));
      return;
    }
    const sid = this.keys.standaloneSession(channel);
    if (sid === undefined) return;
    const waiting = this.claiming.get(sid);
    if (waiting) waiting.push(data);
    else if (this.held.has(sid)) guard(() => this.hooks.onStandalone(sid, data));
  }
}

/** A message between instances: a JSON object (the core checks its kind). Anything else is ignored. */
function parseMessage(data: string): object | undefined {
  let value: unknown;
  try {
    value = JSON.parse(data);
  } catch {
    return undefined;
  }
  return typeof value === 'object' && value !== null && !Array.isArray(value) ? value : undefined;
}

/** Runs a hook; what it throws is the core's business, never ioredis'. */
function guard(call: () => void): void {
  try {
    call();
  } catch {
    // Ignored on purpose: a throwing hook must not break the connection's event handling.
  }
}
