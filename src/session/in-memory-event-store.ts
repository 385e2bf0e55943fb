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

/**
 * The default {@link McpEventStore}: per session, the most recent events in memory, bounded by
 * count, by size and by age. Old events are dropped as new ones arrive and when replayed, so it needs no
 * timer; a session's events go when the session ends.
 * @category Sessions
 */
export class InMemoryEventStore implements McpEventStore {
  private readonly sessions = new Map<string, Entry[]>();
  /** Characters of data kept, per session. */
  private readonly chars = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: InMemoryEventStoreOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Events kept, over all sessions. */
  get size(): number {
    let count = 0;
    for (const events of this.sessions.values()) count += events.length;
    return count;
  }

  /** Sessions with events kept. */
  get sessionCount(): number {
    return this.sessions.size;
  }

  append(sessionId: string, event: McpStoredEvent): void {
    const now = this.now();
    let events = this.sessions.get(sessionId);
    if (!events) {
      events = [];
      this.sessions.set(sessionId, events);
    }
    events.push({ streamId: event.streamId, seq: event.seq, data: event.data, at: now });
    this.chars.set(sessionId, (this.chars.get(sessionId) ?? 0) + event.data.length);
    this.prune(sessionId, events, now);
  }

  replay(sessionId: string, streamId: string, afterSeq: number): readonly McpStoredEvent[] {
    const events = this.sessions.get(sessionId);
    if (!events) return [];
    this.prune(sessionId, events, this.now());
    return events
      .filter((event) => event.streamId === streamId && event.seq > afterSeq)
      .map(({ streamId: stream, seq, data }) => ({ streamId: stream, seq, data }));
  }

  deleteStream(sessionId: string, streamId: string): void {
    const events = this.sessions.get(sessionId);
    if (!events) return;
    const kept = events.filter((event) => event.streamId !== streamId);
    if (kept.length === 0) this.deleteSession(sessionId);
    else if (kept.length !== events.length) {
      this.sessions.set(sessionId, kept);
      this.chars.set(
        sessionId,
        kept.reduce((sum, event) => sum + event.data.length, 0),
      );
    }
  }

  deleteSession(sessionId: string): void {
    this.sessions.delete(sessionId);
    this.chars.delete(sessionId);
  }

  private prune(sessionId: string, events: Entry[], now: number): void {
    const oldest = now - this.options.maxEventAgeMs;
    const maxChars = this.options.maxCharsPerSession ?? Infinity;
    let chars = this.chars.get(sessionId) ?? 0;
    let drop = 0;
    // The size bound never drops the newest event, however large: it may be a result nothing else holds.
    while (
      drop < events.length &&
      (events.length - drop > this.options.maxEventsPerSession ||
        events[drop]!.at < oldest ||
        (chars > maxChars && drop < events.length - 1))
    ) {
      chars -= events[drop]!.data.length;
      drop++;
    }
    if (drop === 0) return;
    events.splice(0, drop);
    this.chars.set(sessionId, chars);
  }
}
