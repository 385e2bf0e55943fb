import type { McpEventStore, McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';
import type { SharedState, StoredEventBounds } from '../interfaces/mcp-shared-state.interface.js';
import type { BufferBudget } from './buffer-budget.js';

/**
 * The event store of sessions kept in shared state: every instance reads what any instance stored,
 * so a client resumes wherever its next request lands. A session's events are deleted with its
 * record when it ends everywhere, never when one instance lets go of it.
 *
 * An event on its way to the shared state is held in this process until the state answers: it is
 * reserved in the application's budget meanwhile, so that a slow Redis and a tool sending megabytes
 * cannot hold more than the budget between them. One that finds no room, once the slowest readers
 * are relieved, is not stored (its client still receives it live, but cannot resume to it).
 */
export class SharedEventStore implements McpEventStore {
  /** Events not stored since the last one that was: said once per run of them. */
  private unstored = 0;

  constructor(
    private readonly shared: SharedState,
    private readonly bounds: StoredEventBounds,
    private readonly budget?: BufferBudget,
    private readonly onUnstored?: (count: number) => void,
  ) {}

  append(sessionId: string, event: McpStoredEvent): Promise<void> {
    if (!this.budget) return this.shared.appendEvent(sessionId, event, this.bounds);
    const release = this.budget.reserve(event.data.length);
    if (!release) {
      if (this.unstored++ === 0) this.onUnstored?.(this.unstored);
      return Promise.resolve();
    }
    this.unstored = 0;
    const written = this.shared.appendEvent(sessionId, event, this.bounds);
    void written.then(release, release);
    return written;
  }

  replay(sessionId: string, streamId: string, afterSeq: number): Promise<readonly McpStoredEvent[]> {
    return this.shared.replayEvents(sessionId, streamId, afterSeq);
  }

  deleteStream(sessionId: string, streamId: string): Promise<void> {
    return this.shared.deleteStream(sessionId, streamId);
  }

  deleteSession(): void {
    // One instance ending its side of a session (shutdown, idle here) must not take the events
    // another instance may still serve; ending it everywhere deletes them with the record.
  }
}
