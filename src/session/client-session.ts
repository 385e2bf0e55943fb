import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import { encodeMessage, notificationMessage } from '../protocol/json-rpc.codec.js';
import { ErrorCode } from '../protocol/json-rpc.errors.js';
import type { JsonRpcMessage, JsonRpcParams, JsonRpcResponse, RequestId } from '../protocol/json-rpc.types.js';
import { passesThreshold, type LoggingLevel } from '../protocol/logging-level.js';
import { Method } from '../protocol/methods.js';
import type { ClientCapabilities, Implementation } from '../protocol/mcp.types.js';
import { supportsSsePolling, type LegacyProtocolVersion } from '../protocol/protocol-version.js';
import { ClientRequests, type ClientRequestOptions } from './client-requests.js';
import type { McpEventStore } from '../interfaces/mcp-event-store.interface.js';
import type { SendOutcome } from './session-stream.js';
import { SessionStreams, type OutboxBounds } from './session-streams.js';
import type { BufferBudget } from './buffer-budget.js';
import type { SessionSharing } from './session-sharing.js';
import type { CallAbort } from './call-abort.js';
import { RunningCalls } from './running-calls.js';
import { SessionSubscriptions } from './session-subscriptions.js';

/** Why a session ended. */
export type SessionEndReason = 'deleted' | 'idle' | 'overflow' | 'shutdown';

/** What the session needs to know at creation; the rest it learns as it lives. */
export interface ClientSessionInit {
  readonly id: string;
  readonly protocolVersion: LegacyProtocolVersion;
  readonly clientInfo: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  /** The principal that created the session; absent when it was anonymous. */
  readonly owner?: string;
  readonly outboxLimit: number;
  /** Characters the outbox may hold (`limits.outboxChars`). @default unlimited */
  readonly outboxChars?: number;
  /** The server's budget for undelivered messages, which the session's outbox draws on. */
  readonly budget?: BufferBudget;
  /** Log messages below this level are not sent until the client sets its own with `logging/setLevel`. */
  readonly logLevel: LoggingLevel;
  readonly eventStore: McpEventStore;
  readonly now: number;
  readonly onEnd: (session: ClientSession, reason: SessionEndReason) => void;
  /** Told when the event store fails; the session goes on without what it could not store. */
  readonly onStoreError: (error: unknown) => void;
  /** Told when a message cannot be serialised to JSON: it is dropped, and the stream goes on. */
  readonly onUnserializable: (session: ClientSession) => void;
  /**
   * With shared state: what the session does beyond this process.
   * @internal
   */
  readonly sharing?: SessionSharing;
}

/**
 * One client's MCP session (the caller of its requests, `Caller` in shape): its negotiated version, what the client declared, the calls in flight,
 * the requests it was sent and awaits answers to, and its SSE streams.
 *
 * Messages that belong to no call go on the standalone stream (GET). Messages sent while no GET
 * connection is attached wait in a backlog of at most `limits.outboxMessages` (the oldest are dropped: a
 * client need not open a GET stream at all). What the session's connections hold back because of
 * TCP backpressure is bounded by `limits.outboxMessages` too, and going past it ends the session: a client that
 * stops reading costs bounded memory rather than all of it.
 *
 * Kept small on purpose (the per-idle-session heap cost is measured by the benchmark): collections
 * are created on first use.
 */
export class ClientSession implements McpSessionHandle {
  readonly era = 'legacy' as const;
  readonly id: string;
  readonly protocolVersion: LegacyProtocolVersion;
  readonly clientInfo: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  /** The principal that created the session; only its requests reach the session. */
  readonly owner: string | undefined;
  /** Whether the client sent `notifications/initialized`. */
  initialized = false;
  /** When (ms since epoch) the session was created here: its `mcp.server.session.duration` starts then. */
  readonly startedAt: number;
  /** Last time (ms since epoch) a request arrived, a call finished or a stream closed. */
  lastActivity: number;
  /** The least severe log level the client wants to receive. */
  logLevel: LoggingLevel;
  private readonly outbox: OutboxBounds;
  private readonly store: McpEventStore;
  private readonly onEnd: ClientSessionInit['onEnd'];
  private readonly onStoreError: ClientSessionInit['onStoreError'];
  private readonly onUnserializable: ClientSessionInit['onUnserializable'];
  private readonly sharing: SessionSharing | undefined;
  /** Created on first use: most sessions never get a GET stream or a message outside a call. */
  private streamSet: SessionStreams | undefined;
  private inflight: RunningCalls | undefined;
  private clientRequests: ClientRequests | undefined;
  /** What the client subscribed to (`resources/subscribe`). */
  private subscriptions: SessionSubscriptions | undefined;
  private endReason: SessionEndReason | undefined;

  constructor(init: ClientSessionInit) {
    this.id = init.id;
    this.protocolVersion = init.protocolVersion;
    this.clientInfo = init.clientInfo;
    this.clientCapabilities = init.clientCapabilities;
    this.owner = init.owner;
    this.outbox = { messages: init.outboxLimit, chars: init.outboxChars ?? Infinity, budget: init.budget };
    this.logLevel = init.logLevel;
    this.store = init.eventStore;
    this.lastActivity = init.now;
    this.startedAt = init.now;
    this.onEnd = init.onEnd;
    this.onStoreError = init.onStoreError;
    this.onUnserializable = init.onUnserializable;
    this.sharing = init.sharing;
  }

  /** The session is its own caller: what its requests' handlers see of it. */
  get session(): McpSessionHandle {
    return this;
  }

  /** The principal its requests act for: the one that created it (only its requests reach it). */
  get principal(): string | undefined {
    return this.owner;
  }

  /** Cursors are sealed to the session that received them. */
  get cursorScope(): string {
    return this.id;
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
    return this.streamSet?.hasStream ?? false;
  }

  /** Whether calls are running. */
  get busy(): boolean {
    return (this.inflight?.size ?? 0) > 0;
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
    return this.streamSet?.undelivered ?? 0;
  }

  /** Whether streams open with a priming event and may be closed on purpose (2025-11-25 and later). */
  get pollingStreams(): boolean {
    return supportsSsePolling(this.protocolVersion);
  }

  /**
   * The session's SSE streams, for the transport.
   * @internal
   */
  get streams(): SessionStreams {
    this.streamSet ??= new SessionStreams(this, this.store, this.outbox, this.onStoreError, this.sharing?.streams);
    return this.streamSet;
  }

  /**
   * Sends a server-initiated message that belongs to no call, on the standalone stream.
   * @returns false when the session has ended (or ends now, by overflowing its outbox), or the
   *   message cannot be serialised.
   */
  send(message: JsonRpcMessage): boolean {
    if (this.ended) return false;
    if (this.sharing && !this.hasStream) return this.sendElsewhere(message);
    const outcome = this.streams.sendStandalone(message);
    if (outcome === 'unserializable') this.onUnserializable(this);
    return delivered(outcome) && !this.ended;
  }

  /**
   * {@link send} for a message serialised already: a broadcast serialises once for every session,
   * and every session's outbox and stored events then hold the one string.
   * @internal
   */
  sendEncoded(data: string): boolean {
    if (this.ended) return false;
    if (this.sharing && !this.hasStream) return this.sharing.sendStandalone(data);
    return delivered(this.streams.sendStandaloneEncoded(data)) && !this.ended;
  }

  /**
   * {@link log} for a broadcast, serialised once for every session.
   * @internal
   */
  logEncoded(level: LoggingLevel, data: string): boolean {
    return this.wantsLog(level) && this.sendEncoded(data);
  }

  /** Shared state: the connection of the standalone stream, if any, is another instance's. */
  private sendElsewhere(message: JsonRpcMessage): boolean {
    let data: string;
    try {
      data = encodeMessage(message);
    } catch {
      this.onUnserializable(this);
      return false;
    }
    return this.sharing!.sendStandalone(data);
  }

  /** Sets the least severe log level the client wants (`logging/setLevel`). */
  setLogLevel(level: LoggingLevel): void {
    this.logLevel = level;
    this.sharing?.changed('ll', level);
  }

  /** The client sent `notifications/initialized`. */
  markInitialized(): void {
    if (this.initialized) return;
    this.initialized = true;
    this.sharing?.changed('in', '1');
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
    return this.notify(Method.LogMessage, logger === undefined ? { level, data } : { level, logger, data });
  }

  /**
   * Records a `resources/subscribe`.
   * @returns false when the session would hold more than `MAX_SUBSCRIPTIONS_PER_SESSION`
   *   subscriptions, or more than `MAX_SUBSCRIBED_URI_CHARS` characters of URIs.
   * @internal
   */
  subscribe(uri: string): boolean | Promise<boolean> {
    if (this.sharing) {
      return this.sharing.subscribe(uri).then((added) => added && this.rememberSubscription(uri));
    }
    return this.rememberSubscription(uri);
  }

  /**
   * Notes a subscription recorded elsewhere (shared state) or here.
   * @internal
   */
  rememberSubscription(uri: string): boolean {
    return (this.subscriptions ??= new SessionSubscriptions()).add(uri);
  }

  /**
   * Replaces what the session knows of its subscriptions (shared state: read back from it).
   * @internal
   */
  replaceSubscriptions(uris: readonly string[]): void {
    this.subscriptions = undefined;
    for (const uri of uris) this.rememberSubscription(uri);
  }

  /**
   * Records a `resources/unsubscribe`; unknown URIs are ignored.
   * @internal
   */
  unsubscribe(uri: string): void {
    this.subscriptions?.delete(uri);
    this.sharing?.unsubscribe(uri);
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
  beginCall(id: RequestId): CallAbort {
    return (this.inflight ??= new RunningCalls()).begin(id);
  }

  /**
   * Forgets a call that finished; the idle clock starts again from its end.
   * @internal
   */
  endCall(id: RequestId, controller: CallAbort): void {
    this.inflight?.end(id, controller);
    this.lastActivity = Date.now();
  }

  /**
   * The client cancelled a request (`notifications/cancelled`): its call's signal aborts.
   * @returns false when no call with that id runs (it finished, or never was): nothing to do.
   * @internal
   */
  cancelCall(id: RequestId, reason?: string): boolean {
    return this.inflight?.cancel(id, reason) ?? false;
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
    return (this.clientRequests ??= new ClientRequests(this.sharing?.requestIdPrefix, this.outbox.messages)).request(
      method,
      params,
      options,
    );
  }

  /**
   * The client answered one of the session's requests.
   * @returns false when nothing waited for that answer.
   * @internal
   */
  settleClientRequest(response: JsonRpcResponse): boolean {
    return this.clientRequests?.settle(response) ?? false;
  }

  /**
   * Whether the session has something live here: running calls, requests waiting for the client,
   * a standalone connection or POST streams (shared state: such a session stays cached).
   * @internal
   */
  get holdsLive(): boolean {
    return (
      this.busy || this.pendingClientRequests > 0 || this.hasStream || (this.streamSet?.hasLivePostStreams ?? false)
    );
  }

  /** Ends the session: running calls are aborted, streams complete, the session store forgets it. */
  end(reason: SessionEndReason): void {
    if (this.ended) return;
    this.endReason = reason;
    this.inflight?.abortAll(new McpCallAbortedError('session-ended', `MCP session ended (${reason})`));
    this.clientRequests?.rejectAll(
      new McpClientRequestError(`The MCP session ended (${reason}) before the client answered`, ErrorCode.ServerError),
    );
    this.streams.close();
    this.onEnd(this, reason);
  }
}

function delivered(outcome: SendOutcome): boolean {
  return outcome === 'delivered' || outcome === 'queued' || outcome === 'stored';
}
