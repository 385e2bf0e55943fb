import { CallAbort } from './call-abort.js';
import { jest } from '@jest/globals';
import type { Observable, Subscription } from 'rxjs';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import { notificationMessage } from '../protocol/json-rpc.codec.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.types.js';
import type { McpEventStore, McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';
import { InMemoryEventStore } from './in-memory-event-store.js';
import { ClientSession, type ClientSessionInit, type SessionEndReason } from './client-session.js';
import { testSession } from '../../test/internals/client-session.js';
import { MAX_SUBSCRIBED_URI_CHARS, MAX_SUBSCRIPTIONS_PER_SESSION } from './session-subscriptions.js';

const note = (n: number): JsonRpcMessage => notificationMessage('notifications/message', { n });

/** An in-memory store that also records the calls it gets. */
class RecordingStore implements McpEventStore {
  readonly inner = new InMemoryEventStore({ maxEventsPerSession: 100, maxEventAgeMs: 60_000 });
  readonly calls: string[] = [];

  append(sessionId: string, event: McpStoredEvent): void {
    this.calls.push(`append ${sessionId} ${event.streamId}-${event.seq}`);
    this.inner.append(sessionId, event);
  }

  replay(sessionId: string, streamId: string, afterSeq: number): readonly McpStoredEvent[] {
    this.calls.push(`replay ${sessionId} ${streamId} ${afterSeq}`);
    return this.inner.replay(sessionId, streamId, afterSeq);
  }

  deleteStream(sessionId: string, streamId: string): void {
    this.calls.push(`deleteStream ${sessionId} ${streamId}`);
    this.inner.deleteStream(sessionId, streamId);
  }

  deleteSession(sessionId: string): void {
    this.calls.push(`deleteSession ${sessionId}`);
    this.inner.deleteSession(sessionId);
  }
}

function makeSession(overrides: Partial<ClientSessionInit> = {}): {
  session: ClientSession;
  onEnd: jest.Mock<(session: ClientSession, reason: SessionEndReason) => void>;
  onStoreError: jest.Mock<(error: unknown) => void>;
  onUnserializable: jest.Mock<(session: ClientSession) => void>;
  store: RecordingStore;
} {
  const onEnd = jest.fn<(session: ClientSession, reason: SessionEndReason) => void>();
  const onStoreError = jest.fn<(error: unknown) => void>();
  const onUnserializable = jest.fn<(session: ClientSession) => void>();
  const store = new RecordingStore();
  const session = new ClientSession({
    id: 'session-1',
    protocolVersion: '2025-06-18',
    clientInfo: { name: 'client', version: '0.0.1' },
    clientCapabilities: { sampling: {} },
    outboxLimit: 3,
    logLevel: 'info',
    eventStore: store,
    now: 1_000,
    onEnd,
    onStoreError,
    onUnserializable,
    ...overrides,
  });
  return { session, onEnd, onStoreError, onUnserializable, store };
}

interface Listener {
  /** The messages delivered (priming events left out). */
  readonly received: JsonRpcMessage[];
  readonly events: McpStoredEvent[];
  readonly completed: () => boolean;
  readonly sub: Subscription;
}

/** Subscribes to one of the session's streams and records what it delivers. */
function listen(
  session: ClientSession,
  events: Observable<McpStoredEvent> | undefined = session.streams.attach(),
): Listener {
  if (!events) throw new Error('no stream to listen to');
  const received: JsonRpcMessage[] = [];
  const all: McpStoredEvent[] = [];
  let done = false;
  const sub = events.subscribe({
    next: (event) => {
      all.push(event);
      if (event.data !== '') received.push(JSON.parse(event.data) as JsonRpcMessage);
    },
    complete: () => {
      done = true;
    },
  });
  return { received, events: all, completed: () => done, sub };
}

/** Lets pending promise callbacks (a replay, a rejection) run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('ClientSession', () => {
  it('keeps what it was created with', () => {
    const { session } = makeSession();
    expect(session.id).toBe('session-1');
    expect(session.protocolVersion).toBe('2025-06-18');
    expect(session.clientInfo).toEqual({ name: 'client', version: '0.0.1' });
    expect(session.clientCapabilities).toEqual({ sampling: {} });
    expect(session.lastActivity).toBe(1_000);
    expect(session.initialized).toBe(false);
    expect(session.ended).toBe(false);
    expect(session.endedBecause).toBeUndefined();
    expect(session.hasStream).toBe(false);
    expect(session.busy).toBe(false);
  });

  describe('outbox', () => {
    it('delivers messages sent while a stream is attached, in order', () => {
      const { session } = makeSession();
      const { received } = listen(session);
      expect(session.hasStream).toBe(true);
      expect(session.send(note(1))).toBe(true);
      expect(session.send(note(2))).toBe(true);
      expect(received).toEqual([note(1), note(2)]);
    });

    it('keeps messages sent without a stream and delivers them first, in order, on attach', () => {
      const { session } = makeSession();
      expect(session.send(note(1))).toBe(true);
      expect(session.send(note(2))).toBe(true);
      const { received } = listen(session);
      expect(received).toEqual([note(1), note(2)]);
      session.send(note(3));
      expect(received).toEqual([note(1), note(2), note(3)]);
    });

    it('delivers each message once: a backlog is not replayed to a later stream', () => {
      const { session } = makeSession();
      session.send(note(1));
      const first = listen(session);
      first.sub.unsubscribe();
      const second = listen(session);
      expect(first.received).toEqual([note(1)]);
      expect(second.received).toEqual([]);
    });

    it('frees the stream slot when the stream unsubscribes, so another can attach', () => {
      const { session } = makeSession();
      const first = listen(session);
      first.sub.unsubscribe();
      expect(session.hasStream).toBe(false);
      session.send(note(1)); // goes to the backlog, not to the gone stream
      expect(first.received).toEqual([]);
      const second = listen(session);
      expect(session.hasStream).toBe(true);
      session.send(note(2));
      expect(second.received).toEqual([note(1), note(2)]);
    });

    it('holds up to outboxLimit undelivered messages', () => {
      const { session, onEnd } = makeSession({ outboxLimit: 3 });
      expect([session.send(note(1)), session.send(note(2)), session.send(note(3))]).toEqual([true, true, true]);
      expect(session.ended).toBe(false);
      expect(onEnd).not.toHaveBeenCalled();
    });

    it('drops the oldest queued message when the backlog passes outboxLimit, keeping the newest and the session', () => {
      const { session, onEnd } = makeSession({ outboxLimit: 3 });
      for (const n of [1, 2, 3, 4, 5]) expect(session.send(note(n))).toBe(true);
      expect(session.ended).toBe(false);
      expect(onEnd).not.toHaveBeenCalled();
      expect(session.undeliveredMessages).toBe(3);
      const { received } = listen(session);
      expect(received).toEqual([note(3), note(4), note(5)]);
      expect(session.undeliveredMessages).toBe(0);
    });

    it('ends the session with reason "overflow" when held-back events pass outboxLimit, calling onEnd once', () => {
      const { session, onEnd } = makeSession({ outboxLimit: 3 });
      const report = session.streams.pendingCounter();
      report(4, 0);
      expect(session.ended).toBe(true);
      expect(session.endedBecause).toBe('overflow');
      expect(onEnd).toHaveBeenCalledTimes(1);
      expect(onEnd).toHaveBeenCalledWith(session, 'overflow');
      report(5, 0);
      expect(session.send(note(5))).toBe(false);
      expect(onEnd).toHaveBeenCalledTimes(1);
      expect(session.undeliveredMessages).toBe(0);
      // Nothing is delivered to a stream attached afterwards.
      const late = listen(session);
      expect(late.received).toEqual([]);
      expect(late.completed()).toBe(true);
    });

    it('counts what a connection reports as pending against the limit', () => {
      const { session, onEnd } = makeSession({ outboxLimit: 3 });
      listen(session);
      const report = session.streams.pendingCounter();
      report(3, 0);
      expect(session.ended).toBe(false);
      expect(session.undeliveredMessages).toBe(3);
      report(4, 0);
      expect(session.ended).toBe(true);
      expect(session.endedBecause).toBe('overflow');
      expect(onEnd).toHaveBeenCalledTimes(1);
    });

    it('replaces, not adds up, the pending count on each report of one connection', () => {
      const { session } = makeSession({ outboxLimit: 3 });
      listen(session);
      const report = session.streams.pendingCounter();
      report(2, 0);
      report(3, 0);
      report(1, 0);
      report(3, 0);
      expect(session.ended).toBe(false);
      expect(session.undeliveredMessages).toBe(3);
    });

    it('adds up the pending counts of every connection of the session (GET and POST streams)', () => {
      const { session } = makeSession({ outboxLimit: 3 });
      const get = session.streams.pendingCounter();
      const post = session.streams.pendingCounter();
      get(2, 0);
      post(1, 0);
      expect(session.ended).toBe(false);
      post(2, 0);
      expect(session.endedBecause).toBe('overflow');
    });

    it('counts queued and held-back messages as undelivered, but only held-back ones end the session', () => {
      const { session } = makeSession({ outboxLimit: 3 });
      const { sub } = listen(session);
      const report = session.streams.pendingCounter();
      report(2, 0);
      // A connection that closes drops what it held and reports 0 (see SseWriter).
      report(0, 0);
      sub.unsubscribe();
      for (const n of [1, 2, 3]) expect(session.send(note(n))).toBe(true);
      expect(session.ended).toBe(false);
      const again = makeSession({ outboxLimit: 3 }).session;
      again.send(note(1));
      again.send(note(2));
      again.streams.pendingCounter()(3, 0);
      expect(again.undeliveredMessages).toBe(5);
      expect(again.ended).toBe(false);
      again.streams.pendingCounter()(1, 0);
      expect(again.endedBecause).toBe('overflow');
    });

    it('counts undelivered messages: the backlog goes to a connection and out of the count', () => {
      const { session } = makeSession({ outboxLimit: 3 });
      session.send(note(1));
      session.send(note(2));
      expect(session.undeliveredMessages).toBe(2);
      listen(session);
      expect(session.undeliveredMessages).toBe(0);
    });
  });

  describe('calls in flight', () => {
    it('is busy while calls run and idle once they end', () => {
      const { session } = makeSession();
      const one = session.beginCall(1);
      const two = session.beginCall('two');
      expect(session.busy).toBe(true);
      expect(session.runningCalls).toBe(2);
      session.endCall(1, one);
      expect(session.busy).toBe(true);
      session.endCall('two', two);
      expect(session.busy).toBe(false);
      session.endCall('never-started', new CallAbort());
      expect(session.busy).toBe(false);
      expect(session.runningCalls).toBe(0);
    });

    it('aborts the signals of running calls when the session ends, with the reason', () => {
      const { session } = makeSession();
      const running = session.beginCall(1);
      const finished = session.beginCall(2);
      session.endCall(2, finished);
      session.end('deleted');
      expect(running.signal.aborted).toBe(true);
      expect(running.signal.reason).toBeInstanceOf(McpCallAbortedError);
      expect((running.signal.reason as McpCallAbortedError).kind).toBe('session-ended');
      expect((running.signal.reason as Error).message).toBe('MCP session ended (deleted)');
      expect(finished.signal.aborted).toBe(false);
      expect(session.busy).toBe(false);
    });
  });

  describe('end', () => {
    it('completes the attached stream and reports the reason once', () => {
      const { session, onEnd } = makeSession();
      const { completed } = listen(session);
      session.end('idle');
      expect(completed()).toBe(true);
      expect(session.hasStream).toBe(false);
      expect(session.ended).toBe(true);
      expect(session.endedBecause).toBe('idle');
      expect(onEnd).toHaveBeenCalledWith(session, 'idle');
    });

    it('is idempotent: a second end keeps the first reason and does not call onEnd again', () => {
      const { session, onEnd } = makeSession();
      session.end('deleted');
      session.end('shutdown');
      expect(session.endedBecause).toBe('deleted');
      expect(onEnd).toHaveBeenCalledTimes(1);
    });

    it('refuses to send after the end', () => {
      const { session } = makeSession();
      const { received } = listen(session);
      session.end('deleted');
      expect(session.send(note(1))).toBe(false);
      expect(received).toEqual([]);
    });
  });
});

describe('ClientSession.isRunning', () => {
  it('is false for an id never begun', () => {
    const { session } = makeSession();
    expect(session.isRunning(1)).toBe(false);
    expect(session.isRunning('1')).toBe(false);
  });

  it('is true from beginCall to endCall, for that id only', () => {
    const { session } = makeSession();
    const one = session.beginCall(1);
    expect(session.isRunning(1)).toBe(true);
    expect(session.isRunning('1')).toBe(false); // ids are compared exactly: 1 and "1" differ
    expect(session.isRunning(2)).toBe(false);
    const a = session.beginCall('a');
    expect(session.isRunning('a')).toBe(true);
    session.endCall(1, one);
    expect(session.isRunning(1)).toBe(false);
    expect(session.isRunning('a')).toBe(true);
    session.endCall('a', a);
    expect(session.isRunning('a')).toBe(false);
  });

  it('lets an id be reused once its call ended', () => {
    const { session } = makeSession();
    const first = session.beginCall(7);
    session.endCall(7, first);
    const second = session.beginCall(7);
    expect(session.isRunning(7)).toBe(true);
    expect(second).not.toBe(first);
  });

  it('is false for every id once the session ended', () => {
    const { session } = makeSession();
    session.beginCall(1);
    session.beginCall('x');
    session.end('deleted');
    expect(session.isRunning(1)).toBe(false);
    expect(session.isRunning('x')).toBe(false);
  });

  it('ignores endCall of an id that is not running', () => {
    const { session } = makeSession();
    session.beginCall(1);
    expect(() => session.endCall(2, new CallAbort())).not.toThrow();
    expect(session.isRunning(1)).toBe(true);
  });
});

describe('ClientSession.endCall', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('leaves a newer call that took the same id alone', () => {
    const { session } = makeSession();
    const old = session.beginCall(1);
    const newer = session.beginCall(1);
    session.endCall(1, old);
    expect(session.isRunning(1)).toBe(true);
    session.endCall(1, newer);
    expect(session.isRunning(1)).toBe(false);
  });

  it('restarts the idle clock', () => {
    jest.useFakeTimers({ now: 50_000 });
    const { session } = makeSession();
    expect(session.lastActivity).toBe(1_000);
    session.endCall(1, session.beginCall(1));
    expect(session.lastActivity).toBe(50_000);
  });
});

describe('ClientSession.cancelCall', () => {
  it('aborts the running call with a "cancelled" McpCallAbortedError carrying the client’s reason', () => {
    const { session } = makeSession();
    const call = session.beginCall('c-1');
    const other = session.beginCall('c-2');
    expect(session.cancelCall('c-1', 'user pressed stop')).toBe(true);
    expect(call.signal.aborted).toBe(true);
    const reason = call.signal.reason as McpCallAbortedError;
    expect(reason).toBeInstanceOf(McpCallAbortedError);
    expect(reason.kind).toBe('cancelled');
    expect(reason.message).toBe('Cancelled by the client: user pressed stop');
    expect(other.signal.aborted).toBe(false);
    expect(session.ended).toBe(false);
  });

  it('says only "Cancelled by the client" without a reason', () => {
    const { session } = makeSession();
    const call = session.beginCall(1);
    session.cancelCall(1);
    expect((call.signal.reason as Error).message).toBe('Cancelled by the client');
  });

  it('returns false for an id that is not running: unknown, finished, or of another type', () => {
    const { session } = makeSession();
    expect(session.cancelCall(1)).toBe(false);
    const finished = session.beginCall(2);
    session.endCall(2, finished);
    expect(session.cancelCall(2)).toBe(false);
    expect(finished.signal.aborted).toBe(false);
    const running = session.beginCall(3);
    expect(session.cancelCall('3')).toBe(false);
    expect(running.signal.aborted).toBe(false);
  });
});

describe('ClientSession logging', () => {
  it('sends log messages at or above the level on the standalone stream', () => {
    const { session } = makeSession({ logLevel: 'warning' });
    const { received } = listen(session);
    expect(session.wantsLog('info')).toBe(false);
    expect(session.wantsLog('warning')).toBe(true);
    expect(session.log('info', 'too chatty')).toBe(false);
    expect(session.log('debug', 'too chatty')).toBe(false);
    expect(session.log('warning', { disk: 91 })).toBe(true);
    expect(session.log('emergency', 'down', 'db')).toBe(true);
    expect(received).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', data: { disk: 91 } } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'emergency', logger: 'db', data: 'down' } },
    ]);
  });

  it('follows the level the client sets later', () => {
    const { session } = makeSession({ logLevel: 'info' });
    const { received } = listen(session);
    expect(session.log('debug', 1)).toBe(false);
    session.logLevel = 'debug';
    expect(session.log('debug', 2)).toBe(true);
    session.logLevel = 'critical';
    expect(session.log('error', 3)).toBe(false);
    expect(received.map((message) => ('params' in message ? message.params!.data : undefined))).toEqual([2]);
  });

  it('queues log messages without a connection (they count against the outbox) and refuses them after the end', () => {
    const { session } = makeSession({ logLevel: 'debug' });
    expect(session.log('info', 'queued')).toBe(true);
    expect(session.undeliveredMessages).toBe(1);
    session.end('deleted');
    expect(session.log('error', 'too late')).toBe(false);
  });

  it('notify sends a notification with or without params', () => {
    const { session } = makeSession();
    const { received } = listen(session);
    expect(session.notify('notifications/tools/list_changed')).toBe(true);
    expect(session.notify('notifications/custom', { a: 1 })).toBe(true);
    expect(received).toEqual([
      { jsonrpc: '2.0', method: 'notifications/tools/list_changed' },
      { jsonrpc: '2.0', method: 'notifications/custom', params: { a: 1 } },
    ]);
  });

  it('tells onUnserializable about a message that cannot be serialised, drops it and goes on', () => {
    const { session, onUnserializable } = makeSession();
    const { received } = listen(session);
    expect(session.send(notificationMessage('x', { n: 1n as unknown as number }))).toBe(false);
    expect(onUnserializable).toHaveBeenCalledWith(session);
    expect(session.ended).toBe(false);
    expect(session.send(note(1))).toBe(true);
    expect(received).toEqual([note(1)]);
  });
});

describe('ClientSession streams and the event store', () => {
  it('keeps every delivered event in the store under the session id', () => {
    const { session, store } = makeSession();
    listen(session);
    session.send(note(1));
    session.send(note(2));
    expect(store.calls).toEqual(['append session-1 g-1', 'append session-1 g-2']);
  });

  it('primes a new standalone connection on 2025-11-25 sessions, and not on older ones', () => {
    const polling = makeSession({ protocolVersion: '2025-11-25' }).session;
    expect(polling.pollingStreams).toBe(true);
    const primed = listen(polling);
    expect(primed.events).toStrictEqual([{ streamId: 'g', seq: 1, data: '' }]);

    const older = makeSession({ protocolVersion: '2025-06-18' }).session;
    expect(older.pollingStreams).toBe(false);
    expect(listen(older).events).toEqual([]);
  });

  it('resumes the standalone stream after a position: what came later, then live', async () => {
    const { session } = makeSession();
    const first = listen(session);
    session.send(note(1));
    session.send(note(2));
    first.sub.unsubscribe();
    session.send(note(3)); // queued
    const resumed = listen(session, session.streams.resume('g', 1));
    await settle();
    session.send(note(4));
    expect(resumed.received).toEqual([note(2), note(3), note(4)]);
    expect(resumed.events.map((event) => event.seq)).toEqual([2, 3, 4]);
    expect(session.hasStream).toBe(true);
  });

  it('opens POST streams p1, p2... and resumes a running one live', async () => {
    const { session } = makeSession();
    const p1 = session.streams.openPostStream();
    const p2 = session.streams.openPostStream();
    expect([p1.id, p2.id]).toEqual(['p1', 'p2']);
    p1.send(note(1)); // no connection: stored only
    const resumed = listen(session, session.streams.resume('p1', 0));
    await settle();
    p1.send(note(2));
    expect(resumed.received).toEqual([note(1), note(2)]);
    session.streams.closePostStream(p1);
    expect(resumed.completed()).toBe(true);
  });

  it('has no live stream to resume for a finished POST stream: what the store kept is all there is', async () => {
    const { session, store } = makeSession();
    const p1 = session.streams.openPostStream();
    p1.send(note(1));
    p1.send(note(2));
    session.streams.closePostStream(p1);
    expect(session.streams.resume('p1', 1)).toBeUndefined();
    const kept = await session.streams.stored('p1', 1);
    expect(kept.map((event) => JSON.parse(event.data) as JsonRpcMessage)).toEqual([note(2)]);
    expect(kept.map((event) => event.seq)).toEqual([2]);
    expect(store.calls).toContain('replay session-1 p1 1');
  });

  it('has no stream to resume for an id it never had', async () => {
    const { session } = makeSession();
    expect(session.streams.resume('p9', 0)).toBeUndefined();
    expect(await session.streams.stored('p9', 0)).toEqual([]);
  });

  it('forgetPostStream deletes that stream from the store', () => {
    const { session, store } = makeSession();
    const p1 = session.streams.openPostStream();
    p1.send(note(1));
    session.streams.closePostStream(p1);
    session.streams.forgetPostStream('p1');
    expect(store.calls.at(-1)).toBe('deleteStream session-1 p1');
    expect(store.inner.size).toBe(0);
  });

  it('opens a finished POST stream once the session ended', () => {
    const { session } = makeSession();
    session.end('deleted');
    const stream = session.streams.openPostStream();
    expect(stream.finished).toBe(true);
    expect(stream.send(note(1))).toBe('closed');
  });

  it('tells onStoreError when the store throws, and goes on delivering', () => {
    const { session, store, onStoreError } = makeSession();
    const boom = new Error('disk full');
    store.append = () => {
      throw boom;
    };
    const { received } = listen(session);
    expect(session.send(note(1))).toBe(true);
    expect(received).toEqual([note(1)]);
    expect(onStoreError).toHaveBeenCalledWith(boom);
    expect(session.ended).toBe(false);
  });

  it('tells onStoreError when an asynchronous store rejects, without an unhandled rejection', async () => {
    const { session, store, onStoreError } = makeSession();
    const boom = new Error('network down');
    (store as McpEventStore).append = () => Promise.reject(boom);
    (store as McpEventStore).deleteSession = () => Promise.reject(boom);
    listen(session);
    session.send(note(1));
    session.end('deleted');
    await settle();
    expect(onStoreError.mock.calls).toEqual([[boom], [boom]]);
  });

  it('replays nothing from a failing store, telling onStoreError', async () => {
    const { session, store, onStoreError } = makeSession();
    const boom = new Error('replay failed');
    (store as McpEventStore).replay = () => Promise.reject(boom);
    await expect(session.streams.stored('p1', 0)).resolves.toEqual([]);
    expect(onStoreError).toHaveBeenCalledWith(boom);
  });

  it.each([
    ['undefined', undefined],
    ['an object', { events: [] }],
    ['a string', 'g-1'],
  ])('treats a replay that returns %s as no events, telling onStoreError', async (_label, returned) => {
    const { session, store, onStoreError } = makeSession();
    (store as { replay: unknown }).replay = () => returned;
    await expect(session.streams.stored('g', 0)).resolves.toEqual([]);
    expect(onStoreError).toHaveBeenCalledTimes(1);
    expect(onStoreError.mock.calls[0]![0]).toBeInstanceOf(TypeError);
    expect(String(onStoreError.mock.calls[0]![0])).toContain('McpEventStore.replay must return an array');
  });

  it('resumes live after a replay that returned no array, without crashing', async () => {
    const { session, store, onStoreError } = makeSession();
    (store as { replay: unknown }).replay = () => Promise.resolve(null);
    const resumed = listen(session, session.streams.resume('g', 0));
    await settle();
    session.send(note(1));
    expect(resumed.received).toEqual([note(1)]);
    expect(resumed.completed()).toBe(false);
    expect(onStoreError).toHaveBeenCalledTimes(1);
    expect(session.ended).toBe(false);
  });

  it('resumes the standalone stream live even when the store fails', async () => {
    const { session, store, onStoreError } = makeSession();
    const boom = new Error('replay failed');
    (store as McpEventStore).replay = () => {
      throw boom;
    };
    const resumed = listen(session, session.streams.resume('g', 0));
    await settle();
    session.send(note(1));
    expect(resumed.received).toEqual([note(1)]);
    expect(resumed.completed()).toBe(false);
    expect(onStoreError).toHaveBeenCalledWith(boom);
  });
});

describe('ClientSession requests to the client', () => {
  it('sends through the given channel and settles with the client’s answer', async () => {
    const { session } = makeSession();
    const sent: JsonRpcMessage[] = [];
    const pending = session.requestClient(
      'roots/list',
      {},
      { send: (message) => sent.push(message) > 0, timeoutMs: 1_000 },
    );
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 'mcp42-1', method: 'roots/list', params: {} }]);
    expect(session.pendingClientRequests).toBe(1);
    expect(session.settleClientRequest({ jsonrpc: '2.0', id: 'mcp42-2', result: {} })).toBe(false);
    expect(session.settleClientRequest({ jsonrpc: '2.0', id: 'mcp42-1', result: { roots: [] } })).toBe(true);
    await expect(pending).resolves.toEqual({ roots: [] });
    expect(session.pendingClientRequests).toBe(0);
  });

  it('settles nothing before any request was sent', () => {
    const { session } = makeSession();
    expect(session.settleClientRequest({ jsonrpc: '2.0', id: 'mcp42-1', result: {} })).toBe(false);
  });
});

describe('ClientSession.end', () => {
  it('aborts running calls, rejects waiting client requests, finishes POST streams and forgets its events', async () => {
    const { session, store, onEnd } = makeSession();
    const call = session.beginCall('c');
    const pending = session.requestClient('roots/list', {}, { send: () => true, timeoutMs: 60_000 });
    const p1 = session.streams.openPostStream();
    const onP1 = listen(session, p1.attach());
    session.end('idle');

    expect((call.signal.reason as McpCallAbortedError).kind).toBe('session-ended');
    const error = await pending.then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    expect(error).toBeInstanceOf(McpClientRequestError);
    expect((error as McpClientRequestError).code).toBe(-32000);
    expect((error as Error).message).toBe('The MCP session ended (idle) before the client answered');
    expect(session.pendingClientRequests).toBe(0);
    expect(onP1.completed()).toBe(true);
    expect(p1.finished).toBe(true);
    expect(store.calls.at(-1)).toBe('deleteSession session-1');
    expect(session.undeliveredMessages).toBe(0);
    expect(onEnd).toHaveBeenCalledWith(session, 'idle');
  });

  it('refuses new client requests once ended', async () => {
    const { session } = makeSession();
    session.end('shutdown');
    const send = jest.fn(() => true);
    const error = await session.requestClient('roots/list', {}, { send, timeoutMs: 1_000 }).then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    expect(error).toBeInstanceOf(McpClientRequestError);
    expect((error as McpClientRequestError).code).toBe(-32000);
    expect((error as Error).message).toBe('roots/list could not be sent: the session ended');
    expect(send).not.toHaveBeenCalled();
  });

  it('ends on overflow while calls run, aborting them as session-ended', () => {
    const { session } = makeSession({ outboxLimit: 1 });
    const call = session.beginCall(1);
    session.streams.pendingCounter()(2, 0);
    expect(session.endedBecause).toBe('overflow');
    expect((call.signal.reason as McpCallAbortedError).kind).toBe('session-ended');
    expect((call.signal.reason as Error).message).toBe('MCP session ended (overflow)');
  });
});

describe('ClientSession replays of finished streams', () => {
  it('lets one connection at a time replay a stream, per stream', () => {
    const { session } = makeSession();
    expect(session.streams.beginReplay('p1')).toBe(true);
    expect(session.streams.beginReplay('p1')).toBe(false);
    expect(session.streams.beginReplay('p2')).toBe(true);
    session.streams.endReplay('p1');
    expect(session.streams.beginReplay('p1')).toBe(true);
  });
});

describe('ClientSession subscriptions: the bounds', () => {
  function session(): ClientSession {
    return testSession({ outboxLimit: 3, now: 1_000 });
  }

  /** A distinct URI of exactly `length` characters. */
  const uriOf = (index: number, length: number): string => {
    const head = `r://${index}/`;
    return head + 'x'.repeat(length - head.length);
  };

  const PER_URI = 8192;
  const FITTING = MAX_SUBSCRIBED_URI_CHARS / PER_URI;

  it('holds URIs up to exactly MAX_SUBSCRIBED_URI_CHARS characters, and refuses one more', () => {
    expect(Number.isInteger(FITTING) && FITTING < MAX_SUBSCRIPTIONS_PER_SESSION).toBe(true);
    const subject = session();
    for (let index = 0; index < FITTING; index++) expect(subject.subscribe(uriOf(index, PER_URI))).toBe(true);
    expect(subject.subscribe('r://one-more')).toBe(false);
    expect(subject.isSubscribed('r://one-more')).toBe(false);
    expect(subject.subscriptionCount).toBe(FITTING);
    // A URI already held costs nothing more.
    expect(subject.subscribe(uriOf(0, PER_URI))).toBe(true);
  });

  it('gives back the characters of a URI unsubscribed', () => {
    const subject = session();
    for (let index = 0; index < FITTING; index++) expect(subject.subscribe(uriOf(index, PER_URI))).toBe(true);
    subject.unsubscribe(uriOf(3, PER_URI));
    expect(subject.isSubscribed(uriOf(3, PER_URI))).toBe(false);
    expect(subject.subscribe(uriOf(FITTING, PER_URI))).toBe(true);
    expect(subject.subscribe('r://one-more')).toBe(false);
    // Unsubscribing from a URI never held gives back nothing.
    subject.unsubscribe('r://never-held');
    expect(subject.subscribe('r://one-more')).toBe(false);
    expect(subject.subscriptionCount).toBe(FITTING);
  });
});
