import type { McpEventStore, McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';
import type { SharedState, StoredEventBounds } from '../interfaces/mcp-shared-state.interface.js';

/**
 * The event store of sessions kept in shared state: every instance reads what any instance stored,
 * so a client resumes wherever its next request lands. A session's events are deleted with its
 * record when it ends everywhere, never when one instance lets go of it.
 */
export class SharedEventStore implements McpEventStore {
  constructor(
    private readonly shared: SharedState,
    private readonly bounds: StoredEventBounds,
  ) {}

  append(sessionId: string, event: McpStoredEvent): Promise<void> {
    return this.shared.appendEvent(sessionId, event, this.bounds);
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
