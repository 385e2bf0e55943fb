import type { McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';

/**
 * What an event store's `replay` answered, kept to the entries that are events: a store is user
 * code, and a malformed entry must not reach a client or end its stream.
 * @param onProblem told what was wrong (not an array, or entries skipped).
 */
export function validStoredEvents(replayed: unknown, onProblem: (problem: Error) => void): readonly McpStoredEvent[] {
  if (!Array.isArray(replayed)) {
    onProblem(new TypeError(`McpEventStore.replay must return an array, got ${typeof replayed}`));
    return [];
  }
  const valid = replayed.filter(isStoredEvent);
  if (valid.length !== replayed.length) {
    onProblem(new TypeError('McpEventStore.replay returned entries that are not events; they were skipped'));
  }
  return valid;
}

function isStoredEvent(value: unknown): value is McpStoredEvent {
  const event = value as Partial<McpStoredEvent> | null;
  return (
    typeof event === 'object' &&
    event !== null &&
    typeof event.streamId === 'string' &&
    Number.isSafeInteger(event.seq) &&
    typeof event.data === 'string' &&
    event.data !== ''
  );
}
