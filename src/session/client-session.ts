import { Observable } from 'rxjs';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import { notificationMessage } from '../protocol/json-rpc.codec.js';
import { ErrorCode } from '../protocol/json-rpc.errors.js';
import type { JsonRpcMessage, JsonRpcParams, JsonRpcResponse, RequestId } from '../protocol/json-rpc.types.js';
import { passesThreshold, type LoggingLevel } from '../protocol/logging-level.js';
import { McpMethod } from '../protocol/mcp.methods.js';
import type { ClientCapabilities, Implementation } from '../protocol/mcp.types.js';
import { supportsSsePolling, type ProtocolVersion } from '../protocol/protocol-version.js';
import { ClientRequests, type ClientRequestOptions } from './client-requests.js';
import { postStreamId, STANDALONE_STREAM_ID } from './event-id.js';
import type { McpEventStore, McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';
import { SessionStream, type SendOutcome, type StreamEvent } from './session-stream.js';

/**
 * The most resources one session may subscribe to: each costs memory for the session's life.
 * @category Sessions
 */
export const MAX_SUBSCRIPTIONS_PER_SESSION = 1000;

/**
 * The most characters of subscribed URIs one session may hold (1000 URIs of 8 KiB would be 8 MB).
 * @category Sessions
 */
export const MAX_SUBSCRIBED_URI_CHARS = 256 * 1024;

/** Why a session ended. */
export type SessionEndReason = 'deleted' | 'idle' | 'overflow' | 'shutdown';

/** What the session needs to know at creation; the rest it learns as it lives. */
export interface ClientSessionInit {
  readonly id: string;
  readonly protocolVersion: ProtocolVersion;
  readonly clientInfo: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  /** The principal that created the session; absent when it was anonymous. */
  readonly owner?: string;
  readonly outboxLimit: number;
  /** Log messages below this level are not sent until the client sets its own with `logging/setLevel`. */
  readonly logLevel: LoggingLevel;
  readonly eventStore: McpEventStore;
  readonly now: number;
  readonly onEnd: (session: ClientSession, reason: SessionEndReason) => void;
  /** Told when the event store fails; the session goes on without what it could not store. */
  readonly onStoreError: (error: unknown) => void;
  /** Told when a message cannot be serialised to JSON: it is dropped, and the stream goes on. */
  readonly onUnserializable: (session: ClientSession) => void;
}

/**
 * One client's MCP session: its negotiated version, what the client declared, the calls in flight,
 * the requests it was sent and awaits answers to, and its SSE streams.
 *
 * Messages that belong to no call go on the standalone stream (GET). Messages sent while no GET
 * connection is attached wait in a backlog of at most `outboxLimit` (the oldest are dropped: a
 * client need not open a GET stream at all). What the session's connections hold back because of
 * TCP backpressure is bounded by `outboxLimit` too, and going past it ends the session: a client that
 * stops reading costs bounded memory rather than all of it.
 *
 * Kept small on purpose (the per-idle-session heap cost is measured by the benchmark): collections
 * are created on first use.
 */
export class ClientSession implements McpSessionHandle {
  readonly id: string;
  readonly protocolVersion: ProtocolVersion;
  readonly clientInfo: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  /** The principal that created the session; only its requests reach the session. */
  readonly owner: string | undefined;
  /** Whether the client sent `notifications/initialized`. */
  initialized = false;
  /** Last time (ms since epoch) a request arrived, a call finished or a stream closed. */
  lastActivity: number;
  /** The least severe log level the client wants to receive. */
  logLevel: LoggingLevel;
  private readonly outboxLimit: number;
  private readonly store: McpEventStore;
  private readonly onEnd: ClientSessionInit['onEnd'];
  private readonly onStoreError: ClientSessionInit['onStoreError'];
  private readonly onUnserializable: ClientSessionInit['onUnserializable'];
  /** Created on first use: most sessions never get a GET stream or a message outside a call. */
  private standaloneStream: SessionStream | undefined;
  private postStreams: Map<string, SessionStream> | undefined;
  private postStreamCount = 0;
  private replaying: Set<string> | undefined;
  private seq = 0;
  /** Messages waiting for a GET stream. */
  private queued = 0;
  /** Events written to connections that their sockets hold back. */
  private heldBack = 0;
  private inflight: Map<RequestId, AbortController> | undefined;
  private clientRequests: ClientRequests | undefined;
  /** URIs of resources the client subscribed to (`resources/subscribe`). */
  private subscriptions: Set<string> | undefined;
  private subscribedChars = 0;
  private endReason: SessionEndReason | undefined;

  constructor(init: ClientSessionInit) {
    this.id = init.id;
    this.protocolVersion = init.protocolVersion;
    this.clientInfo = init.clientInfo;
    this.clientCapabilities = init.clientCapabilities;
    this.owner = init.owner;
    this.outboxLimit = init.outboxLimit;
    this.logLevel = init.logLevel;
    this.store = init.eventStore;
    this.lastActivity = init.now;
    this.onEnd = init.onEnd;
    this.onStoreError = init.onStoreError;
    this.onUnserializable = init.onUnserializable;
  }

  /** Whether the session has ended; an ended session answers 404 and sends nothing. */
  get ended(): boolean {
    return this.endReason !== undefined;
  }

  /** Why the session ended, once it has. */
  get endedBecause(): SessionEndReason | undefined {
    return this.endReason;
  }

  /** Whether a standalone (GET) SSE stream is attached. */
  get hasStream(): boolean {
    return this.standaloneStream?.attached ?? false;
  }

  /** Whether calls are running. */
  get busy(): boolean {
    return this.inflight !== undefined && this.inflight.size > 0;
  }

  /** Calls running. */
  get runningCalls(): number {
    return this.inflight?.size ?? 0;
  }

  /** Requests sent to the client that still wait for its answer. */
  get pendingClientRequests(): number {
    return this.clientRequests?.size ?? 0;
  }

  /** Messages sent but not yet handed to a connection's socket. */
  get undeliveredMessages(): number {
    return this.queued + this.heldBack;
  }

  /**
   * The most messages the GET stream's backlog keeps (the outbox limit).
   * @internal
   */
  get backlogLimit(): number {
    return this.outboxLimit;
  }

  /** Whether streams open with a priming event and may be closed on purpose (2025-11-25 and later). */
  get pollingStreams(): boolean {
    return supportsSsePolling(this.protocolVersion);
  }

  /**
   * Sends a server-initiated message that belongs to no call, on the standalone stream.
   * @returns false when the session has ended (or ends now, by overflowing its outbox), or the
   *   message cannot be serialised.
   */
  send(message: JsonRpcMessage): boolean {
    if (this.ended) return false;
    const outcome = this.standalone.send(message);
    if (outcome === 'unserializable') this.onUnserializable(this);
    return delivered(outcome) && !this.ended;
  }

  /** Sends a notification on the standalone stream. */
  notify(method: string, params?: JsonRpcParams): boolean {
    return this.send(notificationMessage(method, params));
  }

  /**
   * Sends a log message (`notifications/message`) on the standalone stream, if the client's
   * level lets it through.
   * @returns whether it was sent.
   */
  log(level: LoggingLevel, data: unknown, logger?: string): boolean {
    if (!this.wantsLog(level)) return false;
    return this.notify(McpMethod.LogMessage, logger === undefined ? { level, data } : { level, logger, data });
  }

  /**
   * Records a `resources/subscribe`.
   * @returns false when the session would hold more than {@link MAX_SUBSCRIPTIONS_PER_SESSION}
   *   subscriptions, or more than {@link MAX_SUBSCRIBED_URI_CHARS} characters of URIs.
   * @internal
   */
  subscribe(uri: string): boolean {
    this.subscriptions ??= new Set();
    if (this.subscriptions.has(uri)) return true;
    if (this.subscriptions.size >= MAX_SUBSCRIPTIONS_PER_SESSION) return false;
    if (this.subscribedChars + uri.length > MAX_SUBSCRIBED_URI_CHARS) return false;
    this.subscriptions.add(uri);
    this.subscribedChars += uri.length;
    return true;
  }

  /**
   * Records a `resources/unsubscribe`; unknown URIs are ignored.
   * @internal
   */
  unsubscribe(uri: string): void {
    if (this.subscriptions?.delete(uri)) this.subscribedChars -= uri.length;
  }

  /** Whether the client subscribed to updates of the resource with this URI. */
  isSubscribed(uri: string): boolean {
    return this.subscriptions?.has(uri) ?? false;
  }

  /** How many resources the client subscribed to. */
  get subscriptionCount(): number {
    return this.subscriptions?.size ?? 0;
  }

  /** Whether the client wants log messages at this level. */
  wantsLog(level: LoggingLevel): boolean {
    return passesThreshold(level, this.logLevel);
  }

  /**
   * Attaches a new connection to the standalone stream: it gets a priming event (2025-11-25
   * sessions), what waited in the backlog, then every later message, and completes when the
   * session ends or a resuming connection takes its place.
   * @internal
   */
  attachStream(): Observable<StreamEvent> {
    return this.standalone.attach(undefined, this.pollingStreams);
  }

  /**
   * A connection resuming stream `streamId` after position `afterSeq` (`Last-Event-ID`): the
   * standalone stream or a POST stream still running, live; `undefined` for a POST stream that
   * finished (its kept events are all there is: see {@link stored}).
   * @internal
   */
  resumeStream(streamId: string, afterSeq: number): Observable<StreamEvent> | undefined {
    if (streamId === STANDALONE_STREAM_ID) return this.standalone.attach(afterSeq);
    return this.postStreams?.get(streamId)?.attach(afterSeq);
  }

  /**
   * Whether this session could have sent the event `streamId`/`seq`: a `Last-Event-ID` naming a
   * position or stream it never reached (another session's, or forged) must not skip what it sends next.
   * @internal
   */
  hasIssued(streamId: string, seq: number): boolean {
    if (seq > this.seq) return false;
    return streamId === STANDALONE_STREAM_ID || Number(streamId.slice(1)) <= this.postStreamCount;
  }

  /**
   * Claims the replay of a finished POST stream for one connection.
   * @returns false when another connection replays it now.
   * @internal
   */
  beginReplay(streamId: string): boolean {
    if (this.replaying?.has(streamId)) return false;
    (this.replaying ??= new Set()).add(streamId);
    return true;
  }

  /**
   * The connection replaying `streamId` closed.
   * @internal
   */
  endReplay(streamId: string): void {
    this.replaying?.delete(streamId);
  }

  /**
   * Whether a POST stream of this session is still running (it can be resumed live).
   * @internal
   */
  hasLivePostStream(streamId: string): boolean {
    return this.postStreams?.has(streamId) ?? false;
  }

  /**
   * Opens the stream of a POST that switched to SSE.
   * @internal
   */
  openPostStream(): SessionStream {
    const stream = new SessionStream(postStreamId(++this.postStreamCount), this, false);
    if (!this.ended) (this.postStreams ??= new Map()).set(stream.id, stream);
    else stream.finish();
    return stream;
  }

  /**
   * A POST stream said everything it had to say: from now on it can only be replayed, not resumed live.
   * @internal
   */
  closePostStream(stream: SessionStream): void {
    // Forgotten first: a connection completing with it asks whether the stream still runs.
    this.postStreams?.delete(stream.id);
    stream.finish();
  }

  /**
   * A finished POST stream reached its client in full: its kept events are no longer needed.
   * @internal
   */
  forgetPostStream(streamId: string): void {
    this.guardStore(() => this.store.deleteStream(this.id, streamId));
  }

  /**
   * A counter for one connection to report how many events its socket holds back; they count
   * against the outbox limit.
   * @internal
   */
  pendingCounter(): (count: number) => void {
    let reported = 0;
    return (count) => {
      if (this.ended) return;
      this.heldBack += count - reported;
      reported = count;
      if (this.heldBack > this.outboxLimit) this.end('overflow');
    };
  }

  /**
   * Whether a call with this request id is running.
   * @internal
   */
  isRunning(id: RequestId): boolean {
    return this.inflight?.has(id) ?? false;
  }

  /**
   * Registers a running call so that cancelling it or ending the session aborts it.
   * @internal
   */
  beginCall(id: RequestId): AbortController {
    const controller = new AbortController();
    (this.inflight ??= new Map()).set(id, controller);
    return controller;
  }

  /**
   * Forgets a call that finished; the idle clock starts again from its end.
   * @internal
   */
  endCall(id: RequestId, controller: AbortController): void {
    // A newer call may have taken the id after this one was answered.
    if (this.inflight?.get(id) === controller) this.inflight.delete(id);
    this.lastActivity = Date.now();
  }

  /**
   * The client cancelled a request (`notifications/cancelled`): its call's signal aborts.
   * @returns false when no call with that id runs (it finished, or never was): nothing to do.
   * @internal
   */
  cancelCall(id: RequestId, reason?: string): boolean {
    const controller = this.inflight?.get(id);
    if (!controller) return false;
    controller.abort(
      new McpCallAbortedError('cancelled', reason ? `Cancelled by the client: ${reason}` : 'Cancelled by the client'),
    );
    return true;
  }

  /**
   * Sends the client a request and resolves with its result (elicitation, sampling, roots).
   * @internal
   */
  requestClient(method: string, params: JsonRpcParams, options: ClientRequestOptions): Promise<unknown> {
    if (this.ended) {
      return Promise.reject(
        new McpClientRequestError(`${method} could not be sent: the session ended`, ErrorCode.ServerError),
      );
    }
    return (this.clientRequests ??= new ClientRequests()).request(method, params, options);
  }

  /**
   * The client answered one of the session's requests.
   * @returns false when nothing waited for that answer.
   * @internal
   */
  settleClientRequest(response: JsonRpcResponse): boolean {
    return this.clientRequests?.settle(response) ?? false;
  }

  /** Ends the session: running calls are aborted, streams complete, the registry forgets it. */
  end(reason: SessionEndReason): void {
    if (this.ended) return;
    this.endReason = reason;
    if (this.inflight) {
      const error = new McpCallAbortedError('session-ended', `MCP session ended (${reason})`);
      for (const controller of this.inflight.values()) controller.abort(error);
      this.inflight.clear();
    }
    this.clientRequests?.rejectAll(
      new McpClientRequestError(`The MCP session ended (${reason}) before the client answered`, ErrorCode.ServerError),
    );
    this.standaloneStream?.finish();
    if (this.postStreams) {
      for (const stream of this.postStreams.values()) stream.finish();
      this.postStreams.clear();
    }
    this.queued = 0;
    this.heldBack = 0;
    this.guardStore(() => this.store.deleteSession(this.id));
    this.onEnd(this, reason);
  }

  private get standalone(): SessionStream {
    if (!this.standaloneStream) {
      this.standaloneStream = new SessionStream(STANDALONE_STREAM_ID, this, true);
      // Asked for after the end: a stream that has already said all it will say.
      if (this.ended) this.standaloneStream.finish();
    }
    return this.standaloneStream;
  }

  // StreamHost

  /** @internal */
  nextSeq(): number {
    return ++this.seq;
  }

  /** @internal */
  keep(event: McpStoredEvent): void {
    this.guardStore(() => this.store.append(this.id, event));
  }

  /** @internal */
  async stored(streamId: string, afterSeq: number): Promise<readonly McpStoredEvent[]> {
    try {
      const events: unknown = await this.store.replay(this.id, streamId, afterSeq);
      if (!Array.isArray(events)) {
        throw new TypeError(`McpEventStore.replay must return an array, got ${typeof events}`);
      }
      const valid = events.filter(isStoredEvent);
      if (valid.length !== events.length) {
        this.onStoreError(
          new TypeError('McpEventStore.replay returned entries that are not events; they were skipped'),
        );
      }
      return valid;
    } catch (error) {
      this.onStoreError(error);
      return [];
    }
  }

  /** @internal */
  backlogChanged(delta: number): void {
    if (!this.ended) this.queued += delta;
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

function delivered(outcome: SendOutcome): boolean {
  return outcome === 'delivered' || outcome === 'queued' || outcome === 'stored';
}
