import type { ServerResponse } from 'node:http';
import type { Observable } from 'rxjs';
import { formatEventId } from '../session/event-id.js';
import type { McpStoredEvent } from '../session/event-store.interface.js';
import { isPrimingEvent } from '../session/session-stream.js';
import type { SseWriter } from './sse.writer.js';

/** What happens around one connection of a stream. */
export interface PumpHooks {
  /** The stream completed and the connection wrote all of it: its kept events are no longer needed. */
  readonly onDelivered?: () => void;
  /** The connection closed, for whatever reason. */
  readonly onClose?: () => void;
}

/**
 * Writes a session stream's events to one SSE connection until the stream completes (the writer
 * then ends the response) or the connection closes (the subscription ends; the stream goes on
 * and keeps its events for a resume).
 */
export function pumpToConnection(
  events: Observable<McpStoredEvent>,
  writer: SseWriter,
  res: ServerResponse,
  hooks: PumpHooks = {},
): void {
  let completed = false;
  const subscription = events.subscribe({
    next: (event) => {
      const id = formatEventId(event.streamId, event.seq);
      if (isPrimingEvent(event)) writer.prime(id);
      else writer.sendEncoded(event.data, id);
    },
    complete: () => {
      completed = true;
      writer.end();
    },
  });
  if (res.destroyed) {
    // Closed before we got here: its 'close' event is gone, so nobody else would end the subscription.
    subscription.unsubscribe();
    hooks.onClose?.();
    return;
  }
  res.once('close', () => {
    subscription.unsubscribe();
    // 'finish' precedes 'close' when everything was written: only then did the client get it all.
    if (completed && res.writableFinished) hooks.onDelivered?.();
    hooks.onClose?.();
  });
}
