/** The id of a session's standalone (GET) stream. */
export const STANDALONE_STREAM_ID = 'g';

/**
 * The id of the `n`th POST stream of a session; with shared state, of the `n`th POST stream this
 * instance opened, tagged with the instance's id (`p7.k3j9x0q2m1ab`): the stream has one producer, and
 * an instance that did not produce it knows from the id whom to ask.
 */
export const postStreamId = (n: number, replicaId?: string): string =>
  replicaId === undefined ? `p${n}` : `p${n}.${replicaId}`;

const EVENT_ID = /^(g|p[1-9][0-9]{0,15}(?:\.[0-9a-z]{12})?)-(0|[1-9][0-9]{0,15})$/;

/** The instance that produced a POST stream, when its id is tagged with one. */
export const streamProducer = (streamId: string): string | undefined => {
  const dot = streamId.indexOf('.');
  return dot === -1 ? undefined : streamId.slice(dot + 1);
};

/** The number of a POST stream (`p7` or `p7.<replica>` → 7). */
export const postStreamNumber = (streamId: string): number => {
  const dot = streamId.indexOf('.');
  return Number(streamId.slice(1, dot === -1 ? undefined : dot));
};

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
