import { McpStateUnavailableError } from '../errors/mcp-state-unavailable.error.js';
import type { SharedState } from '../interfaces/mcp-shared-state.interface.js';
import type { ClientSession } from './client-session.js';

/** A session cached by this instance. */
interface CacheEntry {
  readonly session: ClientSession;
  /** Until when the session is surely alive without asking (a lower bound of its true deadline). */
  deadline: number;
  /** The `lastActivity` last written to the shared state. */
  flushed: number;
}

/**
 * The sessions one instance has cached from the shared state, and their upkeep: a cached session
 * is served without asking the shared state while its known deadline has not passed (other
 * instances' activity only moves the true one later, and an end anywhere is broadcast).
 */
export class SharedSessionCache {
  private readonly entries = new Map<string, CacheEntry>();

  constructor(
    private readonly shared: SharedState,
    private readonly idleMs: number,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  sessions(): ClientSession[] {
    return [...this.entries.values()].map((entry) => entry.session);
  }

  get(id: string): ClientSession | undefined {
    return this.entries.get(id)?.session;
  }

  /** The session, if its known deadline has not passed. */
  fresh(id: string, now = Date.now()): ClientSession | undefined {
    const entry = this.entries.get(id);
    return entry && now < entry.deadline ? entry.session : undefined;
  }

  /** Caches a session with `remainingMs` left, as of its last activity here. */
  add(session: ClientSession, remainingMs: number, now = Date.now()): void {
    this.entries.set(session.id, { session, deadline: now + remainingMs, flushed: session.lastActivity });
  }

  /** The shared state said how long a cached session has left. */
  renew(id: string, remainingMs: number, now = Date.now()): void {
    const entry = this.entries.get(id);
    if (entry) entry.deadline = now + remainingMs;
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  /** Drops what nothing here uses (after messages may have been missed: it may be stale). */
  dropUnused(): void {
    for (const [id, entry] of this.entries) if (!entry.session.holdsLive) this.entries.delete(id);
  }

  /**
   * Once a second: writes activity in one batch, keeps streams held here alive, asks after cached
   * sessions past their known deadline that still hold something here (ended elsewhere, they end
   * here too), and drops cached sessions nobody uses.
   */
  async tick(final = false): Promise<void> {
    const now = Date.now();
    const idle = this.idleMs;
    // An open standalone stream keeps its session alive, as in one process: refreshed a few times per idle period.
    const streamTouch = Math.min(Math.max(idle / 4, 1_000), 60_000);
    const touches = new Map<string, number>();
    const overdue: string[] = [];
    for (const [id, entry] of this.entries) {
      const { session } = entry;
      if (session.hasStream) {
        if (now - entry.flushed >= streamTouch || final) {
          touches.set(id, idle);
          entry.flushed = now;
          entry.deadline = now + idle;
        }
      } else if (session.lastActivity > entry.flushed) {
        const left = session.lastActivity + idle - now;
        if (left > 0) touches.set(id, left);
        entry.flushed = session.lastActivity;
        entry.deadline = Math.max(entry.deadline, session.lastActivity + idle);
      } else if (now >= entry.deadline && !final) {
        if (session.holdsLive) overdue.push(id);
        else this.entries.delete(id);
      }
    }
    if (touches.size === 0 && overdue.length === 0) return;
    try {
      const [gone, left] = await Promise.all([
        touches.size > 0 ? this.shared.touch(touches) : [],
        overdue.length > 0 ? this.shared.remaining(overdue) : new Map<string, number>(),
      ]);
      for (const id of gone) this.entries.get(id)?.session.end('idle');
      for (const [id, ms] of left) {
        const entry = this.entries.get(id);
        if (!entry) continue;
        if (ms <= 0) entry.session.end('idle');
        else entry.deadline = Date.now() + ms;
      }
    } catch (error) {
      // Unavailable: the activity is written at the next tick that can.
      for (const id of touches.keys()) {
        const entry = this.entries.get(id);
        if (entry) entry.flushed = 0;
      }
      if (!(error instanceof McpStateUnavailableError)) throw error;
    }
  }
}
