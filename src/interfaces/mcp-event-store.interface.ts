/**
 * One SSE event a session sent (or meant to send) on one of its streams: what a client that lost
 * its connection gets again when it comes back with `Last-Event-ID`.
 * @category Sessions
 */
export interface McpStoredEvent {
  /** The stream it belongs to: `g` is the session's standalone (GET) stream, `p<n>` a POST's stream. */
  readonly streamId: string;
  /** Position in the session: increases with every event of every stream of the session. */
  readonly seq: number;
  /** The serialised JSON-RPC message: the event's `data`. */
  readonly data: string;
}

/**
 * Keeps the events of every session's SSE streams so that a client reconnecting with
 * `Last-Event-ID` misses nothing. The default (an in-memory store, bounded by `resumability`) keeps a bounded number
 * of recent events per session in memory; implement this to keep them elsewhere or longer.
 *
 * Methods may return promises. `append` is not awaited before the event is written (the hot path
 * stays synchronous); a store that answers `replay` before an append it was given has landed may
 * miss that event, so an asynchronous store should make appends visible in order.
 * @category Sessions
 */
export interface McpEventStore {
  /** Keeps an event. Called in `seq` order. */
  append(sessionId: string, event: McpStoredEvent): void | Promise<void>;
  /** The kept events of one stream of one session with `seq` greater than `afterSeq`, in `seq` order. */
  replay(
    sessionId: string,
    streamId: string,
    afterSeq: number,
  ): readonly McpStoredEvent[] | Promise<readonly McpStoredEvent[]>;
  /** Forgets one stream: every event of it reached the client and the stream ended. */
  deleteStream(sessionId: string, streamId: string): void | Promise<void>;
  /** Forgets a session that ended. */
  deleteSession(sessionId: string): void | Promise<void>;
}
