import type { ServerResponse } from 'node:http';
import type { Observable } from 'rxjs';
import { formatEventId } from '../../session/event-id.js';
import { isPrimingEvent, type StreamEvent } from '../../session/session-stream.js';
import type { SseWriter } from './sse.writer.js';

/** What happens around one connection of a stream. */
export interface PumpHooks {
  /**
   * The stream finished and this connection wrote all of it: its kept events are no longer needed.
   * Not called when the connection completed because it was closed on purpose or replaced by a
   * resuming one: the stream goes on, and what it kept is still owed.
   */
  readonly onDelivered?: () => void;
  /** Whether the stream itself finished (rather than only this connection), asked when the connection completes. */
  readonly streamFinished?: () => boolean;
  /** The connection closed, for whatever reason. */
  readonly onClose?: () => void;
}

/**
 * Writes a session stream's events to one SSE connection until the stream completes (the writer
 * then ends the response) or the connection closes (the subscription ends; the stream goes on
 * and keeps its events for a resume).
 */
export function pumpToConnection(
  events: Observable<StreamEvent>,
  writer: SseWriter,
  res: ServerResponse,
  hooks: PumpHooks = {},
): void {
  // Whether the connection completed because its stream finished, judged when it completes: a
  // connection released earlier (closed on purpose, replaced) completes before the stream finishes.
  let delivered = false;
  const subscription = events.subscribe({
    next: (event) => {
      if (event.retry !== undefined) return writer.retry(event.retry);
      const id = formatEventId(event.streamId, event.seq);
      if (isPrimingEvent(event)) writer.prime(id);
      else writer.sendEncoded(event.data, id, !event.replayed);
    },
    // The stream could not catch up (its store failed): end the connection; the client may resume.
    error: () => writer.end(),
    complete: () => {
      delivered = hooks.streamFinished?.() ?? true;
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
    if (delivered && res.writableFinished) hooks.onDelivered?.();
    hooks.onClose?.();
  });
}
