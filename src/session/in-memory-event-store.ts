import type { McpEventStore, McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';

/**
 * Limits of an {@link InMemoryEventStore}.
 * @category Sessions
 */
export interface InMemoryEventStoreOptions {
  /** Events kept per session at most; the oldest go first. */
  readonly maxEventsPerSession: number;
  /** Events older than this (milliseconds) are dropped. */
  readonly maxEventAgeMs: number;
  /**
   * Characters of event data kept per session at most (results can be large); the oldest go first.
   * @default unlimited
   */
  readonly maxCharsPerSession?: number;
  /** The clock, for tests. */
  readonly now?: () => number;
}

interface Entry extends McpStoredEvent {
  readonly at: number;
}

/** One session's events: `events[head]` is the oldest kept (dropping moves `head`, not the array). */
interface Kept {
  /** Dropped slots before `head` are emptied at once, so their data can be collected before compaction. */
  events: (Entry | undefined)[];
  head: number;
  chars: number;
}

/**
 * The default {@link McpEventStore}: per session, the most recent events in memory, bounded by
 * count, by size and by age. Old events are dropped as new ones arrive and when replayed, so it needs no
 * timer; a session's events go when the session ends.
 * @category Sessions
 */
export class InMemoryEventStore implements McpEventStore {
  private readonly sessions = new Map<string, Kept>();
  private readonly now: () => number;
  private readonly meters = new Set<(sessionId: string, deltaChars: number) => void>();

  constructor(private readonly options: InMemoryEventStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Events kept, over all sessions. */
  get size(): number {
    let count = 0;
    for (const kept of this.sessions.values()) count += kept.events.length - kept.head;
    return count;
  }

  /** Sessions with events kept. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  /**
   * Tells `listener` how many characters of data each session's kept events gain or lose: the
   * server's buffer budget counts them (its own sessions', should the store serve several servers).
   * @returns stops telling it.
   * @internal
   */
  meter(listener: (sessionId: string, deltaChars: number) => void): () => void {
    this.meters.add(listener);
    return () => this.meters.delete(listener);
  }

  private metered(sessionId: string, deltaChars: number): void {
    if (deltaChars !== 0) for (const listener of this.meters) listener(sessionId, deltaChars);
  }

  append(sessionId: string, event: McpStoredEvent): void {
    const now = this.now();
    let kept = this.sessions.get(sessionId);
    if (!kept) {
      kept = { events: [], head: 0, chars: 0 };
      this.sessions.set(sessionId, kept);
    }
    kept.events.push({ streamId: event.streamId, seq: event.seq, data: event.data, at: now });
    kept.chars += event.data.length;
    const dropped = this.prune(kept, now);
    this.metered(sessionId, event.data.length - dropped);
  }

  replay(sessionId: string, streamId: string, afterSeq: number): readonly McpStoredEvent[] {
    const kept = this.sessions.get(sessionId);
    if (!kept) return [];
    const dropped = this.prune(kept, this.now());
    if (dropped > 0) this.metered(sessionId, -dropped);
    const replayed: McpStoredEvent[] = [];
    for (let index = kept.head; index < kept.events.length; index++) {
      const { streamId: stream, seq, data } = kept.events[index]!;
      if (stream === streamId && seq > afterSeq) replayed.push({ streamId: stream, seq, data });
    }
    return replayed;
  }

  deleteStream(sessionId: string, streamId: string): void {
    const kept = this.sessions.get(sessionId);
    if (!kept) return;
    const events = kept.events.slice(kept.head).filter((event): event is Entry => event!.streamId !== streamId);
    if (events.length === 0) return this.deleteSession(sessionId);
    const chars = events.reduce((sum, event) => sum + event.data.length, 0);
    this.metered(sessionId, chars - kept.chars);
    this.sessions.set(sessionId, { events, head: 0, chars });
  }

  deleteSession(sessionId: string): void {
    const kept = this.sessions.get(sessionId);
    if (!kept) return;
    this.sessions.delete(sessionId);
    this.metered(sessionId, -kept.chars);
  }

  /** Drops what the bounds no longer allow, oldest first. @returns the characters dropped. */
  private prune(kept: Kept, now: number): number {
    const oldest = now - this.options.maxEventAgeMs;
    const maxChars = this.options.maxCharsPerSession ?? Infinity;
    const { events } = kept;
    const before = kept.chars;
    // The size bound never drops the newest event, however large: it may be a result nothing else holds.
    while (
      kept.head < events.length &&
      (events.length - kept.head > this.options.maxEventsPerSession ||
        events[kept.head]!.at < oldest ||
        (kept.chars > maxChars && kept.head < events.length - 1))
    ) {
      kept.chars -= events[kept.head]!.data.length;
      // Released now: the array keeps its slot until it is compacted.
      events[kept.head] = undefined;
      kept.head++;
    }
    // Compacting once the dropped half the array costs one copy per as many drops: amortised O(1).
    if (kept.head > 32 && kept.head * 2 >= events.length) {
      kept.events = events.slice(kept.head);
      kept.head = 0;
    }
    return before - kept.chars;
  }
}
