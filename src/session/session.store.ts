import { Inject, Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { randomUUID } from 'node:crypto';
import { Observable, Subject } from 'rxjs';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import type { Handshake } from '../protocol/initialize.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import { ClientSession, type SessionEndReason } from './client-session.js';

/**
 * The live 2025-era sessions of one application, by id (read by host code through
 * `McpSessionRegistry`). Ends sessions that sit idle past `sessionIdleTimeoutMs` and refuses new
 * ones past `maxSessions`, because clients often vanish without a DELETE.
 */
@Injectable()
export class SessionStore implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger('McpSessions');
  private readonly sessions = new Map<string, ClientSession>();
  private sweepTimer: NodeJS.Timeout | undefined;
  private readonly forget = (session: ClientSession, reason: SessionEndReason): void => {
    this.sessions.delete(session.id);
    if (reason === 'overflow') {
      this.logger.warn(`Session ${session.id} ended: more than ${this.options.outboxLimit} undelivered messages`);
    }
  };

  private readonly reportStoreError = (error: unknown): void => {
    this.logger.error('The MCP event store failed', error instanceof Error ? error.stack : String(error));
  };

  private readonly reportUnserializable = (session: ClientSession): void => {
    this.logger.error(`A message for session ${session.id} cannot be serialised to JSON; it was dropped`);
  };

  constructor(@Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions) {}

  private readonly rootsChangedSubject = new Subject<McpSessionHandle>();

  /**
   * Emits the session whose client said its roots changed (`notifications/roots/list_changed`):
   * call `listRoots()` again in its next tool call, or drop what you cached for it.
   */
  get rootsChanged(): Observable<McpSessionHandle> {
    return this.rootsChangedSubject.asObservable();
  }

  /** The client of `session` said its roots changed. */
  reportRootsChanged(session: McpSessionHandle): void {
    this.rootsChangedSubject.next(session);
  }

  /** Number of live sessions. */
  get size(): number {
    return this.sessions.size;
  }

  /** Whether another session may be created now (after ending the ones already idle too long). */
  hasRoom(): boolean {
    if (this.sessions.size < this.options.maxSessions) return true;
    this.sweep();
    return this.sessions.size < this.options.maxSessions;
  }

  /**
   * Creates a session for an accepted `initialize`. The caller checks {@link hasRoom} first.
   * @param request the HTTP request that carried it: the session belongs to its principal
   *   (`sessionOwner`); an anonymous session is not bound.
   */
  create(handshake: Handshake, request?: unknown): ClientSession {
    const session = new ClientSession({
      id: randomUUID(),
      protocolVersion: handshake.protocolVersion,
      clientInfo: handshake.clientInfo,
      clientCapabilities: handshake.clientCapabilities,
      owner: this.options.sessionOwner(request),
      outboxLimit: this.options.outboxLimit,
      logLevel: this.options.defaultLogLevel,
      eventStore: this.options.eventStore,
      now: Date.now(),
      onEnd: this.forget,
      onStoreError: this.reportStoreError,
      onUnserializable: this.reportUnserializable,
    });
    this.sessions.set(session.id, session);
    return session;
  }

  /** The live session with this id, if any. */
  get(id: string): ClientSession | undefined {
    return this.sessions.get(id);
  }

  /**
   * The live session with this id, if `request`'s principal may use it. Another principal's session
   * answers as if it did not exist: its id tells a stranger nothing.
   */
  findFor(id: string, request: unknown): ClientSession | undefined {
    const session = this.sessions.get(id);
    if (!session || session.owner === undefined) return session;
    return this.options.sessionOwner(request) === session.owner ? session : undefined;
  }

  /** Every live session (a snapshot). */
  all(): ClientSession[] {
    return [...this.sessions.values()];
  }

  /**
   * Sends a notification to every live session on its standalone (GET) stream.
   * @param options.connectedOnly only to sessions with a GET stream open now: for news that is
   *   stale by the time a client connects (a list changed: it lists again anyway).
   * @returns how many sessions it was sent to.
   */
  notifyAll(method: string, params?: Record<string, unknown>, options?: { connectedOnly?: boolean }): number {
    let sent = 0;
    for (const session of this.all()) {
      if (options?.connectedOnly && !session.hasStream) continue;
      if (session.notify(method, params)) sent++;
    }
    return sent;
  }

  /**
   * Sends a log message (`notifications/message`) to every live session whose client level lets
   * it through.
   * @returns how many sessions it was sent to.
   */
  logAll(level: LoggingLevel, data: unknown, logger?: string): number {
    let sent = 0;
    for (const session of this.all()) if (session.log(level, data, logger)) sent++;
    return sent;
  }

  /**
   * Ends sessions idle for longer than the timeout; returns how many ended. A session with an open
   * GET stream is connected, so not idle. A running call alone does not keep a session alive: a tool
   * that never returns must not pin its session (and a place under `maxSessions`) forever; such a
   * call is aborted with its session.
   */
  sweep(now = Date.now()): number {
    const deadline = now - this.options.sessionIdleTimeoutMs;
    let ended = 0;
    for (const session of this.sessions.values()) {
      if (session.lastActivity <= deadline && !session.hasStream) {
        session.end('idle');
        ended++;
      }
    }
    return ended;
  }

  /** Starts the idle sweep. */
  onApplicationBootstrap(): void {
    // One timer for all sessions instead of one per session: cheaper in memory and in timer churn.
    const interval = Math.min(Math.max(this.options.sessionIdleTimeoutMs / 4, 1_000), 60_000);
    this.sweepTimer = setInterval(() => this.sweep(), interval);
    this.sweepTimer.unref();
  }

  /** Stops the sweep and ends every session (reason `shutdown`), closing their streams. */
  onModuleDestroy(): void {
    clearInterval(this.sweepTimer);
    this.rootsChangedSubject.complete();
    // Ending sessions completes their streams, so the HTTP server can close without waiting on them.
    for (const session of this.all()) session.end('shutdown');
  }
}
