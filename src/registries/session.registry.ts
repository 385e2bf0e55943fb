import { Injectable } from '@nestjs/common';
import type { Observable } from 'rxjs';
import type { McpSessionHandle } from '../interfaces/mcp-session-handle.interface.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import { SessionStore } from '../session/session.store.js';

/**
 * The live MCP sessions of the application, for host code: reach clients outside any call.
 * Messages sent this way go on the sessions' GET streams (waiting there, bounded by `limits.outboxMessages`,
 * while none is open).
 *
 * @category Registries
 * @example
 * ```ts
 * constructor(private readonly sessions: McpSessionRegistry) {}
 *
 * maintenanceSoon(): void {
 *   this.sessions.logAll('warning', { message: 'Maintenance in 10 minutes' }, 'ops');
 * }
 * ```
 */
@Injectable()
export class McpSessionRegistry {
  /** @internal */
  constructor(private readonly store: SessionStore) {
    if (!store) throw new TypeError('McpSessionRegistry is made by McpModule: inject it, or get it with app.get()');
  }

  /**
   * Emits the session whose client said its roots changed (`notifications/roots/list_changed`):
   * call `listRoots()` again in its next call, or drop what you cached for it.
   */
  get rootsChanged(): Observable<McpSessionHandle> {
    return this.store.rootsChanged;
  }

  /** Live sessions; with shared state (`options.state.shared`), those this instance has cached. */
  get size(): number {
    return this.store.size;
  }

  /**
   * Live sessions of every instance (with shared state; otherwise of this one).
   * @throws McpStateUnavailableError while the shared state cannot be reached.
   */
  countAll(): Promise<number> {
    return this.store.countAll();
  }

  /** The live session with this id (with shared state: if this instance has it cached). */
  get(id: string): McpSessionHandle | undefined {
    return this.store.get(id);
  }

  /** Every live session (a snapshot; with shared state, those this instance has cached). */
  list(): McpSessionHandle[] {
    return this.store.all();
  }

  /**
   * Sends a notification to every live session.
   * @param options.connectedOnly only to sessions with a GET stream open now: for news that is
   *   stale by the time a client connects.
   * @returns how many sessions it was sent to. To more than 256 sessions (or after small broadcasts
   *   took a couple of milliseconds in this turn of the event loop) it goes out in slices that take at
   *   most about a tenth of a busy event loop, and this is how many it goes to. 0 when it was refused: a
   *   million sends wait already (a tool broadcasting faster than the server delivers is told so, and
   *   a warning is logged once a second). With shared state 0: it goes to every instance, and each
   *   delivers it to the sessions whose GET stream it holds.
   */
  notifyAll(method: string, params?: Record<string, unknown>, options?: { connectedOnly?: boolean }): number {
    return this.store.notifyAll(method, params, options);
  }

  /**
   * Sends a log message (`notifications/message`) to every live session whose client level lets it through.
   * @returns how many sessions it was sent to; to more than 256 sessions, how many it goes to,
   *   whatever their levels (see {@link notifyAll}); with shared state 0.
   */
  logAll(level: LoggingLevel, data: unknown, logger?: string): number {
    return this.store.logAll(level, data, logger);
  }
}
