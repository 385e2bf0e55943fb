import type { SharedState } from '../interfaces/mcp-shared-state.interface.js';
import type { ClientSession } from './client-session.js';

/** A hold this instance took on a session's standalone stream: its backlog, and the token that releases it. */
export interface StandaloneHold {
  readonly backlog: readonly string[];
  readonly generation: number;
}

/**
 * The standalone (GET) streams this instance holds in the shared state. Claims and releases of one
 * session run one after the other, never interleaved (a release of an old connection cannot undo
 * the claim of the connection that replaced it: each release names the hold it ends). A release
 * the shared state refused (it was unreachable) is retried until it lands, so no instance goes on
 * being named the holder of a stream it no longer serves.
 */
export class StandaloneHolds {
  private readonly chains = new Map<string, Promise<void>>();
  /** The sessions held here, each with the generation of its current hold. */
  private readonly held = new Map<string, number>();
  private readonly unreleased = new Set<string>();
  private generation = 0;

  constructor(
    private readonly shared: SharedState,
    private readonly backlogLimit: number,
    /** Runs an operation nobody waits for: its failure is reported, never unhandled. */
    private readonly guard: (operation: Promise<unknown>) => void,
  ) {}

  /** Whether this instance holds the session's standalone stream. */
  holds(id: string): boolean {
    return this.held.has(id);
  }

  /**
   * Claims the session's standalone stream for a GET that arrived here: `'conflict'` while a live
   * instance holds it and the client is not resuming.
   */
  hold(session: ClientSession, resuming: boolean): Promise<StandaloneHold | 'conflict' | 'gone'> {
    return this.serial(session.id, async () => {
      const { shared } = this;
      const id = session.id;
      let claim = await shared.claimStandalone(id, resuming);
      if (claim.outcome === 'busy') {
        const holder = claim.holder;
        // A holder that died cannot release: once its lease is gone, the stream is free to take.
        if (holder !== shared.replicaId && (await shared.alive([holder])).has(holder)) return 'conflict';
        claim = await shared.claimStandalone(id, true);
      }
      if (claim.outcome === 'gone') return 'gone';
      if (claim.outcome === 'busy') return 'conflict';
      this.unreleased.delete(id);
      const generation = ++this.generation;
      this.held.set(id, generation);
      // A previous holder was told by the claim itself (see the `claim` script).
      return { backlog: claim.backlog, generation };
    });
  }

  /** The connection of hold `generation` closed: the stream is free, unless a newer hold took it. */
  release(session: ClientSession, generation: number): void {
    if (this.held.get(session.id) !== generation || session.hasStream) return;
    this.drop(session.id);
  }

  /**
   * Another instance took the stream (the shared state said so): this one no longer holds it, at
   * once. Its record names the other one already; only this instance's channel subscription goes.
   */
  let(id: string): void {
    this.drop(id);
  }

  /** Lets go of whatever hold this instance has on the session (it ended here). */
  drop(id: string): void {
    if (!this.held.delete(id)) return;
    this.guard(this.serial(id, () => this.releaseNow(id)));
  }

  /**
   * A message for a stream this instance does not hold (any more): back through the shared state,
   * once this instance's release has landed, to whoever holds it now, or to its backlog.
   */
  forward(id: string, data: string): void {
    this.guard(
      this.serial(id, async () => {
        if (this.unreleased.has(id)) await this.releaseNow(id);
        await this.shared.sendStandalone(id, data, this.backlogLimit);
      }),
    );
  }

  /** Retries the releases the shared state refused (each tick, and when it is back). */
  retry(): void {
    for (const id of this.unreleased) this.guard(this.serial(id, () => this.releaseNow(id)));
  }

  private async releaseNow(id: string): Promise<void> {
    // Claimed again meanwhile: the stream is this instance's once more.
    if (this.held.has(id)) return;
    try {
      await this.shared.releaseStandalone(id);
      this.unreleased.delete(id);
    } catch (error) {
      this.unreleased.add(id);
      throw error;
    }
  }

  /** Runs a task on one session's stream after the ones queued before it. */
  private serial<T>(id: string, task: () => Promise<T>): Promise<T> {
    const previous = this.chains.get(id) ?? Promise.resolve();
    const next = previous.then(task);
    const settled = next.then(
      () => undefined,
      () => undefined,
    );
    this.chains.set(id, settled);
    void settled.then(() => {
      if (this.chains.get(id) === settled) this.chains.delete(id);
    });
    return next;
  }
}
