import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Observable, Subject } from 'rxjs';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import type { Handshake } from '../protocol/initialize.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import { encodeMessage, notificationMessage } from '../protocol/json-rpc.codec.js';
import type { JsonRpcMessage, JsonRpcResponse, RequestId } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import { BufferBudget } from './buffer-budget.js';
import { InMemoryEventStore } from './in-memory-event-store.js';
import type { InstanceMessage, SessionRefusal } from '../interfaces/mcp-shared-state.interface.js';
import { ClientSession, type SessionEndReason } from './client-session.js';
import { PrincipalSessions } from './principal-sessions.js';
import { FanoutSlices } from './fanout-slices.js';
import { SharedSessions } from './shared-sessions.js';
import { McpStateUnavailableError } from '../errors/mcp-state-unavailable.error.js';

/**
 * The live 2025-era sessions of one application, by id (read by host code through
 * `McpSessionRegistry`). Ends sessions that sit idle past `sessions.idleTimeoutMs` and refuses new
 * ones past `limits.sessions` (and past `limits.sessionsPerPrincipal` for one principal), because clients
 * often vanish without a DELETE.
 */
@Injectable()
export class SessionStore implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('McpSessions');
  private readonly sessions = new Map<string, ClientSession>();
  private readonly principals = new PrincipalSessions();
  /** Broadcasts to many sessions go out in slices, so that other requests are served meanwhile. */
  private readonly slices = new FanoutSlices<ClientSession>((refused) => {
    this.logger.warn(
      `${refused} broadcast(s) to every session refused: a tool broadcasts faster than the server delivers ` +
        `while other requests are served, and a million sends already wait`,
    );
  });
  private unmeter: (() => void) | undefined;
  private sweepTimer: NodeJS.Timeout | undefined;
  private readonly forget = (session: ClientSession, reason: SessionEndReason): void => {
    this.options.telemetry.sessionEnded(session.protocolVersion, Date.now() - session.startedAt, reason);
    this.endedSubject.next(session.id);
    if (this.shared.enabled) this.shared.ended(session, reason);
    else if (this.sessions.delete(session.id)) this.principals.delete(session);
    if (reason === 'overflow') {
      const { outboxMessages, outboxChars, bufferedChars } = this.options.limits;
      this.logger.warn(
        `Session ${session.id} ended: its client does not read, and it held more than ${outboxMessages} undelivered ` +
          `messages or ${outboxChars} characters (limits.outboxMessages, limits.outboxChars), or the most when ` +
          `the application's ${bufferedChars} were spent (limits.bufferedChars)`,
      );
    }
  };

  private readonly reportStoreError = (error: unknown): void => {
    // Shared state out of reach: said once per outage where it is noticed (SharedSessions), not per event.
    if (error instanceof McpStateUnavailableError) return;
    this.logger.error('The MCP event store failed', error instanceof Error ? error.stack : String(error));
  };

  private readonly reportUnserializable = (session: ClientSession): void => {
    this.logger.error(`A message for session ${session.id} cannot be serialised to JSON; it was dropped`);
  };

  private readonly rootsChangedSubject = new Subject<McpSessionHandle>();
  private readonly endedSubject = new Subject<string>();

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly shared: SharedSessions,
    private readonly budget: BufferBudget,
  ) {
    const store = options.resumability.eventStore;
    // The default store's events count against the budget with the session's outbox.
    if (store instanceof InMemoryEventStore) {
      this.unmeter = store.meter((sessionId, chars) => {
        const session = this.sessions.get(sessionId);
        // Another server's session, should the application give one store to two servers.
        if (session) budget.charge(sessionId, chars, session.streams.relieveBudget);
      });
    }
    if (!shared.enabled) return;
    shared.bind({
      budget,
      onEnd: this.forget,
      onStoreError: this.reportStoreError,
      onUnserializable: this.reportUnserializable,
      onRootsChanged: (session) => this.rootsChangedSubject.next(session),
    });
    shared.on('notify-connected', (m) => this.notifyHere(m.method, m.params, { connectedOnly: true }));
    shared.on('log-all', (m) => this.logHere(m.level, m.data, m.logger));
  }

  /** Whether sessions are shared with other instances (`options.state.shared`). */
  get isShared(): boolean {
    return this.shared.enabled;
  }

  /**
   * Emits the session whose client said its roots changed (`notifications/roots/list_changed`):
   * call `listRoots()` again in its next tool call, or drop what you cached for it.
   */
  get rootsChanged(): Observable<McpSessionHandle> {
    return this.rootsChangedSubject.asObservable();
  }

  /**
   * Emits the id of each session as it ends (DELETE, idle, overflow), for what it owns beside
   * its streams (its tasks).
   * @internal
   */
  get ended(): Observable<string> {
    return this.endedSubject.asObservable();
  }

  /** The client of `session` said its roots changed. */
  reportRootsChanged(session: ClientSession): void {
    // Shared: every instance that caches the session hears it (this one too, through the broadcast).
    if (this.shared.enabled) this.shared.routeRootsChanged(session);
    else this.rootsChangedSubject.next(session);
  }

  /** Number of live sessions (shared state: of this instance's cache). */
  get size(): number {
    return this.shared.enabled ? this.shared.cacheSize : this.sessions.size;
  }

  /** Live sessions of every instance (shared state), or of this one. */
  async countAll(): Promise<number> {
    return this.shared.enabled ? this.shared.shared!.countSessions() : this.sessions.size;
  }

  /**
   * Opens a session for an accepted `initialize`, unless `request`'s principal holds
   * `limits.sessionsPerPrincipal` live sessions (`'principal-full'`, checked first: that principal can
   * free a place itself) or `limits.sessions` are live (`'full'`); with shared state, across every instance.
   */
  open(
    handshake: Handshake,
    request: unknown,
  ): ClientSession | SessionRefusal | Promise<ClientSession | SessionRefusal> {
    const owner = this.options.auth.principalOf(request);
    if (this.shared.enabled) return this.shared.open(handshake, owner);
    if (!this.principalHasRoom(owner)) return 'principal-full';
    return this.hasRoom() ? this.build(handshake, owner) : 'full';
  }

  /** Ends a session the client deleted: everywhere, with shared state (then resolves once it has). */
  delete(session: ClientSession): void | Promise<void> {
    if (this.shared.enabled) return this.shared.endEverywhere(session);
    session.end('deleted');
  }

  /** Whether another session may be created now (after ending the ones already idle too long). */
  hasRoom(): boolean {
    if (this.sessions.size < this.options.limits.sessions) return true;
    this.sweep();
    return this.sessions.size < this.options.limits.sessions;
  }

  /**
   * Whether `owner` may open another session (after ending its own sessions already idle too long:
   * at most `limits.sessionsPerPrincipal` to look at, whatever the number of sessions). Anonymous
   * sessions are bounded by `limits.sessions` alone.
   */
  private principalHasRoom(owner: string | undefined): boolean {
    if (owner === undefined) return true;
    const max = this.options.limits.sessionsPerPrincipal;
    if (this.principals.count(owner) < max) return true;
    this.endIdle(this.principals.of(owner), Date.now());
    return this.principals.count(owner) < max;
  }

  /**
   * Creates a session for an accepted `initialize`. The caller checks {@link hasRoom} first.
   * @param request the HTTP request that carried it: the session belongs to its principal
   *   (`auth.principalOf`); an anonymous session is not bound.
   */
  create(handshake: Handshake, request?: unknown): ClientSession {
    return this.build(handshake, this.options.auth.principalOf(request));
  }

  private build(handshake: Handshake, owner: string | undefined): ClientSession {
    const session = new ClientSession({
      id: randomUUID(),
      protocolVersion: handshake.protocolVersion,
      clientInfo: handshake.clientInfo,
      clientCapabilities: handshake.clientCapabilities,
      owner,
      outboxLimit: this.options.limits.outboxMessages,
      outboxChars: this.options.limits.outboxChars,
      budget: this.budget,
      logLevel: this.options.sessions.defaultLogLevel,
      eventStore: this.options.resumability.eventStore,
      now: Date.now(),
      onEnd: this.forget,
      onStoreError: this.reportStoreError,
      onUnserializable: this.reportUnserializable,
    });
    this.sessions.set(session.id, session);
    this.principals.add(session);
    return session;
  }

  /** The live session with this id, if any. */
  get(id: string): ClientSession | undefined {
    if (this.shared.enabled) return this.shared.cached(id);
    return this.sessions.get(id);
  }

  /**
   * The live session with this id, if `request`'s principal may use it. Another principal's session
   * answers as if it did not exist: its id tells a stranger nothing.
   */
  findFor(id: string, request: unknown): ClientSession | undefined | Promise<ClientSession | undefined> {
    if (this.shared.enabled) {
      const found = this.shared.find(id);
      return found instanceof Promise
        ? found.then((session) => this.ownedBy(session, request))
        : this.ownedBy(found, request);
    }
    return this.ownedBy(this.sessions.get(id), request);
  }

  private ownedBy(session: ClientSession | undefined, request: unknown): ClientSession | undefined {
    if (!session || session.owner === undefined) return session;
    return this.options.auth.principalOf(request) === session.owner ? session : undefined;
  }

  /** Every live session (a snapshot; shared state: those cached here). */
  all(): ClientSession[] {
    return this.shared.enabled ? this.shared.cachedSessions() : [...this.sessions.values()];
  }

  /**
   * The sessions this instance delivers changes to: all of them in one process; with shared state,
   * those whose standalone stream it holds (each session hears a change once, from its holder).
   */
  fanoutTargets(): ClientSession[] {
    return this.shared.enabled ? this.all().filter((session) => session.hasStream) : this.all();
  }

  /** A client's answer no request here waited for: shared state sends it where its request waits. */
  routeResponse(session: ClientSession, response: JsonRpcResponse): boolean {
    return this.shared.enabled && this.shared.routeResponse(session, response);
  }

  /** A cancellation of a call not running here: shared state asks every instance. */
  routeCancel(session: ClientSession, requestId: RequestId, reason?: string): boolean {
    if (!this.shared.enabled) return false;
    this.shared.routeCancel(session, requestId, reason);
    return true;
  }

  /**
   * Sends a notification to every live session on its standalone (GET) stream.
   * @param options.connectedOnly only to sessions with a GET stream open now: for news that is
   *   stale by the time a client connects (a list changed: it lists again anyway).
   * @returns how many sessions it was sent to.
   */
  notifyAll(method: string, params?: Record<string, unknown>, options?: { connectedOnly?: boolean }): number {
    if (this.shared.enabled) {
      if (options?.connectedOnly) {
        // Only streams open now: each instance tells the ones it holds.
        this.shareOrDeliver({ kind: 'notify-connected', method, ...(params === undefined ? {} : { params }) }, () =>
          this.notifyHere(method, params, options),
        );
      } else {
        this.shared.notifyEverySession(encodeMessage(notificationMessage(method, params))).catch((error: unknown) => {
          this.logger.warn(`A notification for every session did not reach them all: ${String(error)}`);
        });
      }
      return 0;
    }
    return this.notifyHere(method, params, options);
  }

  /** {@link notifyAll} for the sessions this instance delivers to. */
  notifyHere(method: string, params?: Record<string, unknown>, options?: { connectedOnly?: boolean }): number {
    if (!this.slices.accepts(this.sessions.size)) return 0;
    const data = this.encodeOnce(notificationMessage(method, params));
    if (data === undefined) return 0;
    const targets = this.fanoutTargets();
    return this.slices.fanOut(
      options?.connectedOnly ? targets.filter((session) => session.hasStream) : targets,
      (session) => session.sendEncoded(data),
      data.length,
    );
  }

  /**
   * Serialises a broadcast once: every session then sends and stores the one string.
   * @returns undefined, reported once, when the message cannot be serialised.
   */
  private encodeOnce(message: JsonRpcMessage): string | undefined {
    let data: string | undefined;
    try {
      data = encodeMessage(message);
    } catch {
      data = undefined;
    }
    if (typeof data !== 'string') {
      this.logger.warn(`A message for every session could not be serialised (${methodOf(message)})`);
      return undefined;
    }
    return data;
  }

  /**
   * Sends a log message (`notifications/message`) to every live session whose client level lets
   * it through.
   * @returns how many sessions it was sent to.
   */
  logAll(level: LoggingLevel, data: unknown, logger?: string): number {
    if (this.shared.enabled) {
      this.shareOrDeliver({ kind: 'log-all', level, data, ...(logger === undefined ? {} : { logger }) }, () =>
        this.logHere(level, data, logger),
      );
      return 0;
    }
    return this.logHere(level, data, logger);
  }

  private logHere(level: LoggingLevel, data: unknown, logger?: string): number {
    if (!this.slices.accepts(this.sessions.size)) return 0;
    const params = logger === undefined ? { level, data } : { level, logger, data };
    const encoded = this.encodeOnce(notificationMessage(Method.LogMessage, params));
    if (encoded === undefined) return 0;
    return this.slices.fanOut(this.fanoutTargets(), (session) => session.logEncoded(level, encoded), encoded.length);
  }

  /** Broadcast to every instance; while the shared state is down, to this instance's streams at least. */
  private shareOrDeliver(message: InstanceMessage, here: () => number): void {
    this.shared.broadcast(message).catch((error: unknown) => {
      this.logger.warn(`A message for every session reached only this instance's: ${String(error)}`);
      here();
    });
  }

  /**
   * Ends sessions idle for longer than the timeout; returns how many ended. A session with an open
   * GET stream is connected, so not idle. A running call alone does not keep a session alive: a tool
   * that never returns must not pin its session (and a place under `limits.sessions`) forever; such a
   * call is aborted with its session.
   */
  sweep(now = Date.now()): number {
    // Shared state: sessions expire in it, and SharedSessions' tick notices.
    if (this.shared.enabled) return 0;
    return this.endIdle(this.sessions.values(), now);
  }

  /** Ends those of `sessions` idle for longer than the timeout (see {@link sweep}); returns how many. */
  private endIdle(sessions: Iterable<ClientSession>, now: number): number {
    const deadline = now - this.options.sessions.idleTimeoutMs;
    let ended = 0;
    for (const session of sessions) {
      if (session.lastActivity <= deadline && !session.hasStream) {
        session.end('idle');
        ended++;
      }
    }
    return ended;
  }

  /** Starts the idle sweep. */
  onApplicationBootstrap(): void {
    if (this.shared.enabled) return;
    // One timer for all sessions instead of one per session: cheaper in memory and in timer churn.
    const interval = Math.min(Math.max(this.options.sessions.idleTimeoutMs / 4, 1_000), 60_000);
    this.sweepTimer = setInterval(() => this.sweep(), interval);
    this.sweepTimer.unref();
  }

  /** Stops the sweep and ends every session (reason `shutdown`), closing their streams. */
  onModuleDestroy(): void {
    clearInterval(this.sweepTimer);
    this.slices.clear();
    this.unmeter?.();
    this.rootsChangedSubject.complete();
    this.endedSubject.complete();
    // Ending sessions completes their streams, so the HTTP server can close without waiting on them.
    for (const session of this.all()) session.end('shutdown');
  }
}

function methodOf(message: JsonRpcMessage): string {
  return 'method' in message ? message.method : 'a response';
}
