import type { BufferBudget } from './buffer-budget.js';
import type { LoadedSessionRecord, SharedState } from '../interfaces/mcp-shared-state.interface.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { isLoggingLevel, type LoggingLevel } from '../protocol/logging-level.js';
import { serverError } from '../protocol/json-rpc.errors.js';
import { McpStateUnavailableError } from '../errors/mcp-state-unavailable.error.js';
import { isLegacyProtocolVersion } from '../protocol/protocol-version.js';
import { ClientSession, type SessionEndReason } from './client-session.js';
import type { SessionSharing } from './session-sharing.js';
import { postStreamId, postStreamNumber, STANDALONE_STREAM_ID, streamProducer } from './event-id.js';
import type { SharedEventStore } from './shared-event-store.js';
import { MAX_SUBSCRIBED_URI_CHARS, MAX_SUBSCRIPTIONS_PER_SESSION } from './session-subscriptions.js';
import type { StreamSharing } from './session-streams.js';

/** What a request that needed the shared state is told while it cannot be reached. */
const STATE_UNAVAILABLE = 'Session state is unavailable; try again shortly';

/** How much later than this instance's clock a position may claim to be (clock skew between instances). */
const SKEW_ALLOWANCE_MS = 60_000;

/** What the sessions built here report to, and how they write without waiting. */
export interface SharedSessionHooks {
  readonly onEnd: (session: ClientSession, reason: SessionEndReason) => void;
  readonly onStoreError: (error: unknown) => void;
  readonly onUnserializable: (session: ClientSession) => void;
  /** Runs a write nobody waits for (its failure is reported, never unhandled). */
  readonly guard: (operation: Promise<unknown>) => void;
  /** The server's budget for undelivered messages. */
  readonly budget?: BufferBudget;
}

/**
 * Builds the sessions of shared state: from an `initialize` or from a record read back, each with
 * what it does beyond this process (its writes, its messages to a stream held elsewhere, the ids of
 * its POST streams and of its requests to the client, which name this instance).
 */
export class SharedSessionFactory {
  /** POST streams opened by this instance, across every session: an id is never issued twice. */
  private postStreams = 0;

  constructor(
    private readonly shared: SharedState,
    private readonly options: ResolvedMcpOptions,
    private readonly store: SharedEventStore,
    private readonly callbacks: SharedSessionHooks,
  ) {}

  /** Whether a position of a stream could have been issued by some instance (`Last-Event-ID`). */
  hasIssued(streamId: string, seq: number): boolean {
    if (seq > (Date.now() + SKEW_ALLOWANCE_MS) * 1000) return false;
    if (streamId === STANDALONE_STREAM_ID) return true;
    const producer = streamProducer(streamId);
    if (producer === undefined) return false;
    return producer !== this.shared.replicaId || postStreamNumber(streamId) <= this.postStreams;
  }

  build(init: {
    id: string;
    protocolVersion: ClientSession['protocolVersion'];
    clientInfo: ClientSession['clientInfo'];
    clientCapabilities: ClientSession['clientCapabilities'];
    owner: string | undefined;
    logLevel: LoggingLevel;
    now: number;
  }): ClientSession {
    const callbacks = this.callbacks;
    return new ClientSession({
      ...init,
      outboxLimit: this.options.limits.outboxMessages,
      outboxChars: this.options.limits.outboxChars,
      budget: callbacks.budget,
      eventStore: this.store,
      onEnd: callbacks.onEnd,
      onStoreError: callbacks.onStoreError,
      onUnserializable: callbacks.onUnserializable,
      sharing: this.sharingOf(init.id),
    });
  }

  private sharingOf(id: string): SessionSharing {
    const shared = this.shared;
    const streams: StreamSharing = {
      nextPostStreamId: () => postStreamId(++this.postStreams, shared.replicaId),
      hasIssued: (streamId, seq) => this.hasIssued(streamId, seq),
      postStreamOpened: (streamId, requestIds) =>
        this.callbacks.guard(shared.markStream(id, streamId, JSON.stringify(requestIds))),
      postStreamClosed: (streamId) => this.callbacks.guard(shared.markStream(id, streamId, undefined)),
    };
    return {
      streams,
      requestIdPrefix: `mcp42-${shared.replicaId}-`,
      sendStandalone: (data) => {
        // Held here until the shared state has it: reserved in the budget meanwhile, or dropped.
        const budget = this.callbacks.budget;
        const release = budget ? budget.reserve(data.length) : () => undefined;
        if (!release) return false;
        const sent = shared.sendStandalone(id, data, this.options.limits.outboxMessages);
        void sent.then(release, release);
        this.callbacks.guard(sent);
        return true;
      },
      changed: (field, value) => {
        this.callbacks.guard(
          shared
            .setSessionField(id, field, value)
            .then(() => shared.broadcast({ kind: 'session-changed', sessionId: id })),
        );
      },
      subscribe: async (uri) => {
        let outcome: 'ok' | 'limit' | 'gone';
        try {
          outcome = await shared.addSubscription(id, uri, MAX_SUBSCRIPTIONS_PER_SESSION, MAX_SUBSCRIBED_URI_CHARS);
        } catch (error) {
          if (error instanceof McpStateUnavailableError) throw serverError(STATE_UNAVAILABLE);
          throw error;
        }
        if (outcome === 'gone') throw serverError('The session ended');
        if (outcome === 'ok') this.callbacks.guard(shared.broadcast({ kind: 'session-changed', sessionId: id }));
        return outcome === 'ok';
      },
      unsubscribe: (uri) =>
        this.callbacks.guard(
          shared.removeSubscription(id, uri).then(() => shared.broadcast({ kind: 'session-changed', sessionId: id })),
        ),
    };
  }

  fromRecord(record: LoadedSessionRecord, now: number): ClientSession | undefined {
    if (!isLegacyProtocolVersion(record.protocolVersion)) return undefined;
    let clientInfo: ClientSession['clientInfo'];
    let clientCapabilities: ClientSession['clientCapabilities'];
    try {
      clientInfo = JSON.parse(record.clientInfo) as ClientSession['clientInfo'];
      clientCapabilities = JSON.parse(record.clientCapabilities) as ClientSession['clientCapabilities'];
    } catch {
      return undefined;
    }
    const session = this.build({
      id: record.id,
      protocolVersion: record.protocolVersion,
      clientInfo,
      clientCapabilities,
      owner: record.owner,
      logLevel: isLoggingLevel(record.logLevel) ? record.logLevel : this.options.sessions.defaultLogLevel,
      now,
    });
    this.apply(session, record);
    return session;
  }

  apply(session: ClientSession, record: LoadedSessionRecord): void {
    if (isLoggingLevel(record.logLevel)) session.logLevel = record.logLevel;
    if (record.initialized) session.initialized = true;
    session.replaceSubscriptions(record.subscriptions);
  }
}
