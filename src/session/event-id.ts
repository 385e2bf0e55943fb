/** The id of a session's standalone (GET) stream. */
export const STANDALONE_STREAM_ID = 'g';

/** The id of the `n`th POST stream of a session. */
export const postStreamId = (n: number): string => `p${n}`;

const EVENT_ID = /^(g|p[1-9][0-9]{0,15})-(0|[1-9][0-9]{0,15})$/;

/**
 * An SSE event id: the stream it belongs to and its position in the session, so `Last-Event-ID`
 * alone says which stream to resume and from where.
 */
export const formatEventId = (streamId: string, seq: number): string => `${streamId}-${seq}`;

/** Reads an event id this library wrote; anything else is `undefined`. */
export function parseEventId(value: string): { readonly streamId: string; readonly seq: number } | undefined {
  const match = EVENT_ID.exec(value);
  if (!match) return undefined;
  const seq = Number(match[2]);
  return Number.isSafeInteger(seq) ? { streamId: match[1]!, seq } : undefined;
}
