import { Observable, Subject } from 'rxjs';
import { encodeMessage } from '../protocol/json-rpc.codec.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.types.js';
import type { McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';

/**
 * What a stream needs from its session.
 * @internal
 */
export interface StreamHost {
  readonly id: string;
  /** The next event position in the session. */
  nextSeq(): number;
  /** Keeps a sent event for a later resume. */
  keep(event: McpStoredEvent): void;
  /** The stored events of a stream after a position, for a resume. */
  stored(streamId: string, afterSeq: number): Promise<readonly McpStoredEvent[]>;
  /** Messages waiting in a backlog changed by `delta`, their characters by `deltaChars`. */
  backlogChanged(delta: number, deltaChars: number): void;
  /** The most messages a backlog keeps; past it the oldest are dropped. */
  readonly backlogLimit: number;
  /** The most characters a backlog keeps; past it the oldest are dropped (never the newest). */
  readonly backlogCharLimit: number;
}

/** How a message fared: written to a connection, kept for a resume only, queued for the next connection, or dropped. */
export type SendOutcome = 'delivered' | 'stored' | 'queued' | 'unserializable' | 'closed';

/**
 * An event as a connection receives it: `replayed` when it comes from the event store; with `retry`,
 * not an event but the order to tell the client when to reconnect, before the connection ends.
 */
export interface StreamEvent extends McpStoredEvent {
  readonly replayed?: boolean;
  readonly retry?: number;
}

/** An event with empty data: it only gives the client an id to resume from (SSE polling). */
export const isPrimingEvent = (event: McpStoredEvent): boolean => event.data === '';

/**
 * One logical SSE stream of a session: the standalone stream (`g`, fed by GET connections) or the
 * stream of one POST. Its RxJS Subject carries events to the connection attached at the moment;
 * connections come and go (a client reconnects with `Last-Event-ID`) while the stream goes on.
 *
 * An event gets its position when it is handed to a connection, or to the store alone while a
 * POST stream has none, and is kept in the event store before it is written: positions follow
 * the order the client sees, so resuming after one replays exactly what came after it. The
 * standalone stream queues what is sent while no connection is attached (a backlog bounded by
 * dropping its oldest messages) and hands it to the next connection.
 */
export class SessionStream {
  private readonly live = new Subject<McpStoredEvent>();
  private backlog: string[] | undefined;
  private backlogChars = 0;
  private releaseConnection: ((retryMs?: number) => void) | undefined;
  private isFinished = false;

  constructor(
    readonly id: string,
    private readonly host: StreamHost,
    private readonly keepsBacklog: boolean,
  ) {}

  /** Whether a connection is attached. */
  get attached(): boolean {
    return this.releaseConnection !== undefined;
  }

  /** Whether the stream said everything it had to say. */
  get finished(): boolean {
    return this.isFinished;
  }

  /** Messages queued for the next connection. */
  get queued(): number {
    return this.backlog?.length ?? 0;
  }

  /** Sends a message on this stream. */
  send(message: JsonRpcMessage): SendOutcome {
    if (this.isFinished) return 'closed';
    let data: string;
    try {
      data = encodeMessage(message);
    } catch {
      return 'unserializable';
    }
    if (typeof data !== 'string') return 'unserializable';
    return this.sendEncoded(data);
  }

  /** Sends an already serialised message on this stream. */
  sendEncoded(data: string): SendOutcome {
    if (this.isFinished) return 'closed';
    if (this.attached) {
      this.live.next(this.stamp(data));
      return 'delivered';
    }
    if (!this.keepsBacklog) {
      this.stamp(data);
      return 'stored';
    }
    const backlog = (this.backlog ??= []);
    // A client is free never to open a GET stream: what waits for one is kept within bounds by
    // dropping the oldest, not by ending the session (which is for readers that stall).
    backlog.push(data);
    let count = 1;
    let chars = data.length;
    this.backlogChars += data.length;
    while (
      backlog.length > 1 &&
      (backlog.length > this.host.backlogLimit || this.backlogChars > this.host.backlogCharLimit)
    ) {
      const dropped = backlog.shift()!;
      this.backlogChars -= dropped.length;
      count--;
      chars -= dropped.length;
    }
    this.host.backlogChanged(count, chars);
    return 'queued';
  }

  /**
   * Attaches a connection: it receives what it has not seen, then every later event, and
   * completes when the stream finishes or another connection takes its place.
   * @param afterSeq the position of the last event the client saw (from `Last-Event-ID`): the
   *   store's later events are replayed first.
   * @param prime whether a new connection (no `afterSeq`) opens with a priming event, which gives
   *   the client an id to resume from before any message (2025-11-25). A resumed connection needs
   *   none: the client holds its `Last-Event-ID` already.
   */
  attach(afterSeq?: number, prime = false): Observable<StreamEvent> {
    return new Observable<StreamEvent>((subscriber) => {
      // A stream has one connection: a client that reconnects has left the old one behind.
      this.releaseConnection?.();
      let last = afterSeq ?? -1;
      let catchingUp = afterSeq !== undefined;
      let completedWhileCatchingUp = false;
      const arrivedMeanwhile: McpStoredEvent[] = [];
      const emit = (event: StreamEvent): void => {
        if (event.seq <= last) return;
        last = event.seq;
        subscriber.next(event);
      };
      const release = (retryMs?: number): void => {
        if (retryMs !== undefined) subscriber.next({ streamId: this.id, seq: last, data: '', retry: retryMs });
        subscriber.complete();
      };
      this.releaseConnection = release;
      if (prime && afterSeq === undefined) emit({ streamId: this.id, seq: this.host.nextSeq(), data: '' });
      const subscription = this.live.subscribe({
        next: (event) => {
          if (!catchingUp) return emit(event);
          arrivedMeanwhile.push(event);
          // A store slow to replay must not let this buffer grow without end: the connection gives up,
          // and the client resumes again (everything is in the store).
          if (arrivedMeanwhile.length > this.host.backlogLimit) subscriber.error(new Error('catch-up overflow'));
        },
        complete: () => (catchingUp ? (completedWhileCatchingUp = true) : subscriber.complete()),
      });
      // Queued messages get their positions now, as they go to this connection.
      const backlog = this.takeBacklog().map((data) => this.stamp(data));

      if (!catchingUp) {
        for (const event of backlog) emit(event);
        if (this.isFinished) subscriber.complete();
      } else {
        void this.host.stored(this.id, afterSeq!).then(
          (replayed) => {
            if (subscriber.closed) return;
            try {
              // The store may already hold some of what arrived meanwhile: positions drop the repeats.
              for (const event of replayed) emit({ ...event, replayed: true });
              for (const event of backlog) emit(event);
              for (const event of arrivedMeanwhile) emit(event);
              catchingUp = false;
              arrivedMeanwhile.length = 0;
              if (completedWhileCatchingUp || this.isFinished) subscriber.complete();
            } catch (error) {
              subscriber.error(error);
            }
          },
          (error: unknown) => subscriber.error(error),
        );
      }

      return () => {
        subscription.unsubscribe();
        if (this.releaseConnection === release) this.releaseConnection = undefined;
      };
    });
  }

  /**
   * Detaches the current connection (it completes); later events wait for the next one.
   * @param retryMs tells the client, before the connection ends, how long to wait before resuming.
   */
  detach(retryMs?: number): void {
    this.releaseConnection?.(retryMs);
  }

  /** Drops what waits for the next connection (the server's buffer budget is spent). */
  dropBacklog(): void {
    this.takeBacklog();
  }

  /** No more events: the attached connection completes once it has written what it holds. */
  finish(): void {
    if (this.isFinished) return;
    this.isFinished = true;
    this.takeBacklog();
    this.live.complete();
  }

  private stamp(data: string): McpStoredEvent {
    const event: McpStoredEvent = { streamId: this.id, seq: this.host.nextSeq(), data };
    this.host.keep(event);
    return event;
  }

  private takeBacklog(): string[] {
    const backlog = this.backlog ?? [];
    this.backlog = undefined;
    if (backlog.length > 0) this.host.backlogChanged(-backlog.length, -this.backlogChars);
    this.backlogChars = 0;
    return backlog;
  }
}
