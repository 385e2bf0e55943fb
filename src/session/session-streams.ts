import type { Observable } from 'rxjs';
import type { McpEventStore, McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.types.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import { McpStateUnavailableError } from '../errors/mcp-state-unavailable.error.js';
import { postStreamId, STANDALONE_STREAM_ID } from './event-id.js';
import { SessionStream, type SendOutcome, type StreamEvent, type StreamHost } from './session-stream.js';
import { validStoredEvents } from './stored-events.js';
import type { BufferBudget } from './buffer-budget.js';

/** What the streams need of their session. */
export interface StreamsOwner {
  readonly id: string;
  readonly ended: boolean;
  /** Whether streams open with a priming event (2025-11-25 and later). */
  readonly pollingStreams: boolean;
  /** The session's connections hold back more than the outbox limit. */
  end(reason: 'overflow'): void;
}

/** What a session's outbox may hold, in messages and in characters, and the server's budget it draws on. */
export interface OutboxBounds {
  readonly messages: number;
  readonly chars: number;
  readonly budget?: BufferBudget;
}

/**
 * How streams are named, numbered and recorded when several instances serve the session (shared
 * state): POST streams are numbered per instance and tagged with it, positions follow the clock so
 * that an instance taking the standalone stream over continues after what another one issued.
 */
export interface StreamSharing {
  /** The id of a new POST stream. */
  nextPostStreamId(): string;
  /** Whether some instance could have issued this position of this stream. */
  hasIssued(streamId: string, seq: number): boolean;
  /** A POST stream began for these requests: an instance that finds its producer dead answers them. */
  postStreamOpened(streamId: string, requestIds: readonly RequestId[]): void;
  /** A POST stream said everything it had to say. */
  postStreamClosed(streamId: string): void;
}

/**
 * The SSE streams of one session: the standalone stream (GET), the streams of POSTs that switched
 * to SSE, their event positions and what the event store keeps of them for resumes.
 *
 * Messages sent while no GET connection is attached wait in a backlog of at most `limits.outboxMessages`
 * messages and `limits.outboxChars` characters (the oldest are dropped: a client need not open a GET
 * stream at all). What the connections hold back because of TCP backpressure is bounded by the same
 * two limits, and going past either ends the session: a client that stops reading costs bounded
 * memory rather than all of it. Both count against the server's buffer budget too.
 */
export class SessionStreams implements StreamHost {
  /** Created on first use: most sessions never get a GET stream or a message outside a call. */
  private standaloneStream: SessionStream | undefined;
  private postStreams: Map<string, SessionStream> | undefined;
  private postStreamCount = 0;
  private replaying: Set<string> | undefined;
  private seq = 0;
  /** Messages waiting for a GET stream, and their characters. */
  private queued = 0;
  private queuedChars = 0;
  /** Events written to connections that their sockets hold back, and their characters. */
  private heldBack = 0;
  private heldBackChars = 0;
  /** How to cut the connections that hold events back now. */
  private readonly holding = new Set<() => void>();
  /** Whether the budget took the stored events once already: the next time, the session ends. */
  private storeDropped = false;

  constructor(
    private readonly owner: StreamsOwner,
    private readonly store: McpEventStore,
    private readonly outbox: OutboxBounds,
    private readonly onStoreError: (error: unknown) => void,
    private readonly sharing?: StreamSharing,
  ) {}

  get id(): string {
    return this.owner.id;
  }

  /** The most messages the GET stream's backlog keeps (the outbox limit). */
  get backlogLimit(): number {
    return this.outbox.messages;
  }

  /** The most characters the GET stream's backlog keeps (the outbox limit). */
  get backlogCharLimit(): number {
    return this.outbox.chars;
  }

  /** Whether a standalone (GET) connection is attached. */
  get hasStream(): boolean {
    return this.standaloneStream?.attached ?? false;
  }

  /** Messages sent but not yet handed to a connection's socket. */
  get undelivered(): number {
    return this.queued + this.heldBack;
  }

  /** Sends a message that belongs to no call on the standalone stream. */
  sendStandalone(message: JsonRpcMessage): SendOutcome {
    return this.standalone.send(message);
  }

  /** Sends an already serialised message on the standalone stream (shared state: it came from another instance). */
  sendStandaloneEncoded(data: string): SendOutcome {
    return this.standalone.sendEncoded(data);
  }

  /** Completes the standalone connection attached here (shared state: the client resumed on another instance). */
  detachStandalone(): void {
    this.standaloneStream?.detach();
  }

  /**
   * Attaches a new connection to the standalone stream: it gets a priming event (2025-11-25
   * sessions), what waited in the backlog, then every later message, and completes when the
   * session ends or a resuming connection takes its place.
   */
  attach(): Observable<StreamEvent> {
    return this.standalone.attach(undefined, this.owner.pollingStreams);
  }

  /**
   * A connection resuming stream `streamId` after position `afterSeq` (`Last-Event-ID`): the
   * standalone stream or a POST stream still running, live; `undefined` for a POST stream that
   * finished (its kept events are all there is: see {@link stored}).
   */
  resume(streamId: string, afterSeq: number): Observable<StreamEvent> | undefined {
    // Another instance may have issued positions this one never saw: later ones must come after them.
    if (this.sharing && afterSeq > this.seq) this.seq = afterSeq;
    if (streamId === STANDALONE_STREAM_ID) return this.standalone.attach(afterSeq);
    return this.postStreams?.get(streamId)?.attach(afterSeq);
  }

  /**
   * Whether the session could have sent the event `streamId`/`seq`: a `Last-Event-ID` naming a
   * position or stream it never reached (another session's, or forged) must not skip what it sends next.
   */
  hasIssued(streamId: string, seq: number): boolean {
    if (this.sharing) return this.sharing.hasIssued(streamId, seq);
    if (seq > this.seq) return false;
    // A stream tagged with an instance is never issued without shared state.
    return (
      streamId === STANDALONE_STREAM_ID ||
      (!streamId.includes('.') && Number(streamId.slice(1)) <= this.postStreamCount)
    );
  }

  /**
   * Claims the replay of a finished POST stream for one connection.
   * @returns false when another connection replays it now.
   */
  beginReplay(streamId: string): boolean {
    if (this.replaying?.has(streamId)) return false;
    (this.replaying ??= new Set()).add(streamId);
    return true;
  }

  /** The connection replaying `streamId` closed. */
  endReplay(streamId: string): void {
    this.replaying?.delete(streamId);
  }

  /** Whether a POST stream is still running (it can be resumed live). */
  hasLivePostStream(streamId: string): boolean {
    return this.postStreams?.has(streamId) ?? false;
  }

  /**
   * Opens the stream of a POST that switched to SSE.
   * @param requestIds the requests the POST carried (what it owes answers to).
   */
  openPostStream(requestIds: readonly RequestId[] = []): SessionStream {
    const id = this.sharing ? this.sharing.nextPostStreamId() : postStreamId(++this.postStreamCount);
    const stream = new SessionStream(id, this, false);
    if (!this.owner.ended) {
      (this.postStreams ??= new Map()).set(stream.id, stream);
      this.sharing?.postStreamOpened(id, requestIds);
    } else stream.finish();
    return stream;
  }

  /** A POST stream said everything it had to say: from now on it can only be replayed, not resumed live. */
  closePostStream(stream: SessionStream): void {
    // Forgotten first: a connection completing with it asks whether the stream still runs.
    if (this.postStreams?.delete(stream.id)) this.sharing?.postStreamClosed(stream.id);
    stream.finish();
  }

  /** Whether POST streams of this session are still running here. */
  get hasLivePostStreams(): boolean {
    return (this.postStreams?.size ?? 0) > 0;
  }

  /** A finished POST stream reached its client in full: its kept events are no longer needed. */
  forgetPostStream(streamId: string): void {
    this.guardStore(() => this.store.deleteStream(this.owner.id, streamId));
  }

  /** Characters sent but not yet handed to a connection's socket. */
  get undeliveredChars(): number {
    return this.queuedChars + this.heldBackChars;
  }

  /**
   * A counter for one connection to report how many events (and characters) its socket holds
   * back; they count against the outbox limits and the server's budget. Past a limit the session
   * ends ('overflow').
   * @param cut drops what the connection holds back and closes it: while it holds some back, the
   *   session may cut it (an overflow, or the server's budget spent).
   */
  pendingCounter(cut?: () => void): (count: number, chars: number) => void {
    let reported = 0;
    let reportedChars = 0;
    return (count, chars) => {
      if (this.owner.ended) return;
      const delta = chars - reportedChars;
      this.heldBack += count - reported;
      this.heldBackChars += delta;
      reported = count;
      reportedChars = chars;
      if (cut) {
        if (count > 0) this.holding.add(cut);
        else this.holding.delete(cut);
      }
      if (this.heldBack > this.outbox.messages || this.heldBackChars > this.outbox.chars) {
        // What the stalled connections hold goes now, not once they time out.
        this.cutConnections();
        this.owner.end('overflow');
        return;
      }
      this.outbox.budget?.charge(this.owner.id, delta, this.relieveBudget);
    };
  }

  /** The session ended: every stream completes, and the store forgets its events. */
  close(): void {
    this.standaloneStream?.finish();
    if (this.postStreams) {
      for (const stream of this.postStreams.values()) stream.finish();
      this.postStreams.clear();
    }
    this.outbox.budget?.charge(this.owner.id, -(this.queuedChars + this.heldBackChars), this.relieveBudget);
    this.queued = 0;
    this.queuedChars = 0;
    this.heldBack = 0;
    this.heldBackChars = 0;
    this.holding.clear();
    this.guardStore(() => this.store.deleteSession(this.owner.id));
  }

  // StreamHost

  nextSeq(): number {
    // Shared: microseconds of the clock (16 digits), so positions issued by any instance keep rising.
    this.seq = this.sharing ? Math.max(this.seq + 1, Date.now() * 1000) : this.seq + 1;
    return this.seq;
  }

  keep(event: McpStoredEvent): void {
    this.guardStore(() => this.store.append(this.owner.id, event));
  }

  async stored(streamId: string, afterSeq: number): Promise<readonly McpStoredEvent[]> {
    try {
      return validStoredEvents(await this.store.replay(this.owner.id, streamId, afterSeq), this.onStoreError);
    } catch (error) {
      // Shared state out of reach: the events are there, just not now. Saying "none" would move the
      // client past them (or end its stream with 204); the resume fails instead, and is tried again.
      if (error instanceof McpStateUnavailableError) throw error;
      this.onStoreError(error);
      return [];
    }
  }

  backlogChanged(delta: number, deltaChars: number): void {
    if (this.owner.ended) return;
    this.queued += delta;
    this.queuedChars += deltaChars;
    this.outbox.budget?.charge(this.owner.id, deltaChars, this.relieveBudget);
  }

  /**
   * The server's buffer budget is spent, and this session holds the most: it gives up one thing,
   * the least harmful first — its connections that hold events back are cut (the client may resume
   * from the stored events); else what waits for a GET stream is dropped (a client need not open
   * one); else its stored events are (it can no longer resume, but goes on); else it ends.
   */
  readonly relieveBudget = (): void => {
    if (this.holding.size > 0) return this.cutConnections();
    if (this.queued > 0) return this.standaloneStream?.dropBacklog();
    if (this.outbox.budget && this.outbox.budget.heldBy(this.owner.id) > 0 && !this.storeDropped) {
      this.storeDropped = true;
      return this.guardStore(() => this.store.deleteSession(this.owner.id));
    }
    this.owner.end('overflow');
  };

  private cutConnections(): void {
    const cuts = [...this.holding];
    this.holding.clear();
    for (const cut of cuts) cut();
  }

  private get standalone(): SessionStream {
    if (!this.standaloneStream) {
      this.standaloneStream = new SessionStream(STANDALONE_STREAM_ID, this, true);
      // Asked for after the end: a stream that has already said all it will say.
      if (this.owner.ended) this.standaloneStream.finish();
    }
    return this.standaloneStream;
  }

  /** A failing store must not take the session (or the process, through an unhandled rejection) down. */
  private guardStore(operation: () => void | Promise<void>): void {
    try {
      const outcome = operation();
      if (outcome) outcome.catch(this.onStoreError);
    } catch (error) {
      this.onStoreError(error);
    }
  }
}
