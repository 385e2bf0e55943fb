import { Observable, Subject } from 'rxjs';
import type { JsonRpcMessage, RequestId } from '../protocol/json-rpc.types.js';
import type { ClientCapabilities, Implementation } from '../protocol/mcp.types.js';
import type { ProtocolVersion } from '../protocol/protocol-version.js';

/** Why a session ended. */
export type SessionEndReason = 'deleted' | 'idle' | 'overflow' | 'shutdown';

/** What the session needs to know at creation; the rest it learns as it lives. */
export interface McpSessionInit {
  readonly id: string;
  readonly protocolVersion: ProtocolVersion;
  readonly clientInfo: Implementation;
  readonly clientCapabilities: ClientCapabilities;
  /** The principal that created the session; absent when it was anonymous. */
  readonly owner?: string;
  readonly outboxLimit: number;
  readonly now: number;
  readonly onEnd: (session: McpSession, reason: SessionEndReason) => void;
}

/**
 * One client's MCP session: its negotiated version, what the client declared, the calls in flight,
 * and the outbox of server-initiated messages.
 *
 * The outbox is a Subject that feeds the session's standalone SSE stream (GET). Messages sent while
 * no stream is attached, or while the attached stream cannot take more, wait in a backlog bounded
 * by `outboxLimit`; going past it ends the session, so a client that stops reading costs bounded
 * memory rather than all of it.
 *
 * Kept small on purpose (the per-idle-session heap cost is measured by the benchmark): collections
 * are created on first use.
 */
export class McpSession {
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
  private readonly outboxLimit: number;
  private readonly onEnd: McpSessionInit['onEnd'];
  private readonly outbox = new Subject<JsonRpcMessage>();
  private backlog: JsonRpcMessage[] | undefined;
  private streamAttached = false;
  private streamPending = 0;
  private inflight: Map<RequestId, AbortController> | undefined;
  private endReason: SessionEndReason | undefined;

  constructor(init: McpSessionInit) {
    this.id = init.id;
    this.protocolVersion = init.protocolVersion;
    this.clientInfo = init.clientInfo;
    this.clientCapabilities = init.clientCapabilities;
    this.owner = init.owner;
    this.outboxLimit = init.outboxLimit;
    this.lastActivity = init.now;
    this.onEnd = init.onEnd;
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
    return this.streamAttached;
  }

  /** Whether calls are running. */
  get busy(): boolean {
    return this.inflight !== undefined && this.inflight.size > 0;
  }

  /**
   * Queues a server-initiated message for the standalone stream.
   * @returns false when the session has ended (or ends now, by overflowing its outbox).
   */
  send(message: JsonRpcMessage): boolean {
    if (this.ended) return false;
    if (this.streamAttached) {
      this.outbox.next(message);
    } else {
      (this.backlog ??= []).push(message);
    }
    if (this.undelivered() > this.outboxLimit) {
      this.end('overflow');
      return false;
    }
    return true;
  }

  /**
   * Attaches the standalone stream: it receives the backlog, then every later message, and completes
   * when the session ends. One stream at a time; the caller checks {@link hasStream} first.
   */
  attachStream(): Observable<JsonRpcMessage> {
    this.streamAttached = true;
    const backlog = this.backlog;
    this.backlog = undefined;
    return new Observable<JsonRpcMessage>((subscriber) => {
      if (backlog) for (const message of backlog) subscriber.next(message);
      const subscription = this.outbox.subscribe(subscriber);
      return () => {
        subscription.unsubscribe();
        this.streamAttached = false;
        this.streamPending = 0;
      };
    });
  }

  /**
   * The attached stream reports how many messages it holds because its connection cannot take
   * them yet; they count against the outbox limit like the backlog does.
   */
  reportStreamPending(count: number): void {
    this.streamPending = count;
    if (this.undelivered() > this.outboxLimit) this.end('overflow');
  }

  /** Whether a call with this request id is running. */
  isRunning(id: RequestId): boolean {
    return this.inflight?.has(id) ?? false;
  }

  /** Registers a running call so that ending the session aborts it. */
  beginCall(id: RequestId): AbortSignal {
    const controller = new AbortController();
    (this.inflight ??= new Map()).set(id, controller);
    return controller.signal;
  }

  /** Forgets a call that finished; the idle clock starts again from its end. */
  endCall(id: RequestId): void {
    this.inflight?.delete(id);
    this.lastActivity = Date.now();
  }

  /** Ends the session: running calls are aborted, the stream completes, the registry forgets it. */
  end(reason: SessionEndReason): void {
    if (this.ended) return;
    this.endReason = reason;
    this.backlog = undefined;
    if (this.inflight) {
      for (const controller of this.inflight.values()) controller.abort(new Error(`MCP session ended (${reason})`));
      this.inflight.clear();
    }
    this.outbox.complete();
    this.onEnd(this, reason);
  }

  private undelivered(): number {
    return (this.backlog?.length ?? 0) + this.streamPending;
  }
}
