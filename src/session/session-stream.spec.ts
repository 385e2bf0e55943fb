import type { Subscription } from 'rxjs';
import { notificationMessage } from '../protocol/json-rpc.codec.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.types.js';
import type { McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';
import { isPrimingEvent, SessionStream, type StreamHost } from './session-stream.js';

const note = (n: number): JsonRpcMessage => notificationMessage('notifications/message', { n });
const data = (n: number): string => JSON.stringify(note(n));

/**
 * A session stand-in: one seq counter for all its streams, a synchronous store (an array), and a
 * record of backlog changes. `replay` may be swapped for an asynchronous one.
 */
class FakeHost implements StreamHost {
  readonly id = 'session-1';
  seq = 0;
  readonly kept: McpStoredEvent[] = [];
  readonly backlogDeltas: number[] = [];
  backlogLimit = 1000;
  backlogCharLimit = Infinity;
  replay: (streamId: string, afterSeq: number) => Promise<readonly McpStoredEvent[]> = async (streamId, afterSeq) =>
    this.kept.filter((event) => event.streamId === streamId && event.seq > afterSeq);

  nextSeq(): number {
    return ++this.seq;
  }

  keep(event: McpStoredEvent): void {
    this.kept.push(event);
  }

  stored(streamId: string, afterSeq: number): Promise<readonly McpStoredEvent[]> {
    return this.replay(streamId, afterSeq);
  }

  backlogChanged(delta: number, _deltaChars: number): void {
    this.backlogDeltas.push(delta);
  }

  get backlog(): number {
    return this.backlogDeltas.reduce((sum, delta) => sum + delta, 0);
  }
}

interface Connection {
  readonly events: McpStoredEvent[];
  readonly subscription: Subscription;
  completed: boolean;
}

function connect(stream: SessionStream, afterSeq?: number, prime?: boolean): Connection {
  const connection: Connection = {
    events: [],
    completed: false,
    subscription: undefined as unknown as Subscription,
  };
  (connection as { subscription: Subscription }).subscription = stream.attach(afterSeq, prime).subscribe({
    next: (event) => connection.events.push(event),
    complete: () => {
      connection.completed = true;
    },
  });
  return connection;
}

/** Lets pending promise callbacks (an asynchronous replay) run. */
const settle = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('SessionStream: a catch-up that fails', () => {
  it('errors the connection when reading the replayed events throws', async () => {
    const host = new FakeHost();
    const broken = {
      [Symbol.iterator](): Iterator<McpStoredEvent> {
        throw new TypeError('not readable');
      },
    };
    host.replay = async () => broken as unknown as readonly McpStoredEvent[];
    const stream = new SessionStream('g', host, true);
    let failure: unknown;
    stream.attach(0).subscribe({ error: (error: unknown) => (failure = error) });
    await settle();
    expect(failure).toBeInstanceOf(TypeError);
    // The stream goes on: the next connection takes what is sent.
    host.replay = async () => [];
    const next = connect(stream, 0);
    await settle();
    stream.send(note(1));
    expect(next.events.map((event) => event.data)).toEqual([data(1)]);
  });
});

describe('SessionStream with a backlog (the standalone stream)', () => {
  it('keeps the newest backlogLimit messages, dropping the oldest, and counts only what it keeps', () => {
    const host = new FakeHost();
    host.backlogLimit = 2;
    const stream = new SessionStream('g', host, true);
    expect([1, 2, 3, 4].map((n) => stream.send(note(n)))).toEqual(['queued', 'queued', 'queued', 'queued']);
    expect(stream.queued).toBe(2);
    expect(host.backlog).toBe(2);
    const connection = connect(stream);
    expect(connection.events.map((event) => event.data)).toEqual([data(3), data(4)]);
    expect(host.backlog).toBe(0);
    // The dropped messages never got a position nor reached the store.
    expect(host.kept.map((event) => event.data)).toEqual([data(3), data(4)]);
  });

  it('queues what is sent without a connection, then hands it, in order, to the next connection before live events', () => {
    const host = new FakeHost();
    const stream = new SessionStream('g', host, true);
    expect(stream.send(note(1))).toBe('queued');
    expect(stream.send(note(2))).toBe('queued');
    expect(stream.queued).toBe(2);
    expect(host.backlog).toBe(2);
    // Positions are given on delivery, not on queueing.
    expect(host.seq).toBe(0);
    expect(host.kept).toEqual([]);

    const connection = connect(stream);
    expect(stream.attached).toBe(true);
    expect(stream.queued).toBe(0);
    expect(host.backlog).toBe(0);
    expect(stream.send(note(3))).toBe('delivered');
    expect(connection.events).toStrictEqual([
      { streamId: 'g', seq: 1, data: data(1) },
      { streamId: 'g', seq: 2, data: data(2) },
      { streamId: 'g', seq: 3, data: data(3) },
    ]);
    // Everything delivered was kept for a resume, before it was written.
    expect(host.kept).toStrictEqual(connection.events);
  });

  it('gives positions from the session-wide counter, so they grow across streams', () => {
    const host = new FakeHost();
    const g = new SessionStream('g', host, true);
    const p1 = new SessionStream('p1', host, false);
    const onG = connect(g);
    const onP1 = connect(p1);
    g.send(note(1));
    p1.send(note(2));
    g.send(note(3));
    expect(onG.events.map((event) => event.seq)).toEqual([1, 3]);
    expect(onP1.events.map((event) => event.seq)).toEqual([2]);
    expect(host.kept.map((event) => `${event.streamId}-${event.seq}`)).toEqual(['g-1', 'p1-2', 'g-3']);
  });

  it('delivers each queued message once: a later connection does not get it again', () => {
    const host = new FakeHost();
    const stream = new SessionStream('g', host, true);
    stream.send(note(1));
    const first = connect(stream);
    first.subscription.unsubscribe();
    const second = connect(stream);
    expect(first.events.map((event) => event.seq)).toEqual([1]);
    expect(second.events).toEqual([]);
  });

  it('frees its slot when the connection unsubscribes; later messages queue again', () => {
    const host = new FakeHost();
    const stream = new SessionStream('g', host, true);
    const connection = connect(stream);
    connection.subscription.unsubscribe();
    expect(stream.attached).toBe(false);
    expect(stream.send(note(1))).toBe('queued');
    expect(connection.events).toEqual([]);
  });

  it('detach completes the connection and frees the slot', () => {
    const host = new FakeHost();
    const stream = new SessionStream('g', host, true);
    const connection = connect(stream);
    stream.detach();
    expect(connection.completed).toBe(true);
    expect(stream.attached).toBe(false);
    expect(stream.send(note(1))).toBe('queued');
  });

  it('refuses a message that cannot be serialised, and goes on', () => {
    const host = new FakeHost();
    const stream = new SessionStream('g', host, true);
    const connection = connect(stream);
    expect(stream.send(notificationMessage('x', { n: 1n as unknown as number }))).toBe('unserializable');
    expect(stream.send(note(1))).toBe('delivered');
    expect(connection.events.map((event) => event.data)).toEqual([data(1)]);
    expect(host.seq).toBe(1);
  });

  it('sends an already serialised message as is', () => {
    const host = new FakeHost();
    const stream = new SessionStream('g', host, true);
    const connection = connect(stream);
    expect(stream.sendEncoded('{"raw":true}')).toBe('delivered');
    expect(connection.events).toStrictEqual([{ streamId: 'g', seq: 1, data: '{"raw":true}' }]);
  });
});

describe('SessionStream without a backlog (a POST stream)', () => {
  it('keeps what is sent without a connection in the store only, for a resume', () => {
    const host = new FakeHost();
    const stream = new SessionStream('p1', host, false);
    expect(stream.send(note(1))).toBe('stored');
    expect(stream.queued).toBe(0);
    expect(host.backlogDeltas).toEqual([]);
    expect(host.kept).toStrictEqual([{ streamId: 'p1', seq: 1, data: data(1) }]);
    // A connection without Last-Event-ID does not get it: it is not a backlog.
    expect(connect(stream).events).toEqual([]);
  });
});

describe('SessionStream priming', () => {
  it('opens a new connection with a priming event (empty data, its own position) when asked', () => {
    const host = new FakeHost();
    const stream = new SessionStream('g', host, true);
    stream.send(note(1));
    const connection = connect(stream, undefined, true);
    stream.send(note(2));
    expect(connection.events).toStrictEqual([
      { streamId: 'g', seq: 1, data: '' },
      { streamId: 'g', seq: 2, data: data(1) },
      { streamId: 'g', seq: 3, data: data(2) },
    ]);
    expect(isPrimingEvent(connection.events[0]!)).toBe(true);
    expect(connection.events.slice(1).some(isPrimingEvent)).toBe(false);
    // Only messages are kept: replaying a priming event would hand the client an empty message.
    expect(host.kept.map((event) => event.seq)).toEqual([2, 3]);
  });

  it('sends no priming event unless asked', () => {
    const host = new FakeHost();
    const stream = new SessionStream('g', host, true);
    const connection = connect(stream);
    stream.send(note(1));
    expect(connection.events.map((event) => event.data)).toEqual([data(1)]);
    expect(connection.events.some(isPrimingEvent)).toBe(false);
  });

  it('sends no priming event to a resumed connection, even when asked', async () => {
    const host = new FakeHost();
    const stream = new SessionStream('g', host, true);
    connect(stream);
    stream.send(note(1));
    stream.send(note(2));
    const resumed = connect(stream, 1, true);
    await settle();
    expect(resumed.events).toStrictEqual([{ streamId: 'g', seq: 2, data: data(2), replayed: true }]);
  });
});

describe('SessionStream resume (Last-Event-ID)', () => {
  it('replays only the later events of that stream, then goes live', async () => {
    const host = new FakeHost();
    const g = new SessionStream('g', host, true);
    const p1 = new SessionStream('p1', host, false);
    const first = connect(g);
    g.send(note(1)); // g-1
    p1.send(note(2)); // p1-2, not g's
    g.send(note(3)); // g-3
    g.send(note(4)); // g-4
    first.subscription.unsubscribe();

    const resumed = connect(g, 1);
    // Nothing is emitted before the store answered.
    expect(resumed.events).toEqual([]);
    await settle();
    expect(resumed.events.map((event) => `${event.streamId}-${event.seq}`)).toEqual(['g-3', 'g-4']);
    g.send(note(5));
    expect(resumed.events.map((event) => event.seq)).toEqual([3, 4, 5]);
  });

  it('replays then delivers what queued while no connection was attached, in position order', async () => {
    const host = new FakeHost();
    const g = new SessionStream('g', host, true);
    const first = connect(g);
    g.send(note(1));
    g.send(note(2));
    first.subscription.unsubscribe();
    g.send(note(3)); // queued: no position yet

    const resumed = connect(g, 1);
    await settle();
    expect(resumed.events.map((event) => [event.seq, event.data])).toEqual([
      [2, data(2)],
      [3, data(3)],
    ]);
  });

  it('delivers every event once, in order, when the store answers late and already holds some live ones', async () => {
    const host = new FakeHost();
    const g = new SessionStream('g', host, true);
    const first = connect(g);
    g.send(note(1));
    g.send(note(2));
    first.subscription.unsubscribe();

    // An asynchronous store: it answers later, with what it holds by then (which includes what
    // arrived live meanwhile).
    let answer: () => void = () => undefined;
    host.replay = (streamId, afterSeq) =>
      new Promise((resolve) => {
        answer = () => resolve(host.kept.filter((event) => event.streamId === streamId && event.seq > afterSeq));
      });

    const resumed = connect(g, 1);
    g.send(note(3));
    g.send(note(4));
    expect(resumed.events).toEqual([]);
    answer();
    await settle();
    g.send(note(5));
    expect(resumed.events.map((event) => event.seq)).toEqual([2, 3, 4, 5]);
    expect(resumed.events.map((event) => event.data)).toEqual([2, 3, 4, 5].map(data));
  });

  it('completes after the replay when the stream finished while the store was answering', async () => {
    const host = new FakeHost();
    const p1 = new SessionStream('p1', host, false);
    p1.send(note(1));
    p1.send(note(2));
    let answer: () => void = () => undefined;
    host.replay = (streamId, afterSeq) =>
      new Promise((resolve) => {
        answer = () => resolve(host.kept.filter((event) => event.streamId === streamId && event.seq > afterSeq));
      });
    const resumed = connect(p1, 0);
    p1.send(note(3));
    p1.finish();
    expect(resumed.completed).toBe(false);
    answer();
    await settle();
    expect(resumed.events.map((event) => event.seq)).toEqual([1, 2, 3]);
    expect(resumed.completed).toBe(true);
  });

  it('emits nothing to a connection that left while the store was answering', async () => {
    const host = new FakeHost();
    const g = new SessionStream('g', host, true);
    connect(g);
    g.send(note(1));
    g.send(note(2));
    const resumed = connect(g, 0);
    resumed.subscription.unsubscribe();
    await settle();
    expect(resumed.events).toEqual([]);
  });
});

describe('SessionStream connections', () => {
  it('a new connection completes the previous one, which gets nothing more', () => {
    const host = new FakeHost();
    const g = new SessionStream('g', host, true);
    const old = connect(g);
    g.send(note(1));
    const fresh = connect(g);
    expect(old.completed).toBe(true);
    expect(g.attached).toBe(true);
    g.send(note(2));
    expect(old.events.map((event) => event.seq)).toEqual([1]);
    expect(fresh.events.map((event) => event.seq)).toEqual([2]);
    // The old connection's teardown must not free the new one's slot.
    old.subscription.unsubscribe();
    expect(g.attached).toBe(true);
    expect(g.send(note(3))).toBe('delivered');
  });

  it('a resume replaces the live connection too', async () => {
    const host = new FakeHost();
    const g = new SessionStream('g', host, true);
    const old = connect(g);
    g.send(note(1));
    const resumed = connect(g, 0);
    expect(old.completed).toBe(true);
    await settle();
    expect(resumed.events.map((event) => event.seq)).toEqual([1]);
  });

  it('finish completes the connection; later sends are refused', () => {
    const host = new FakeHost();
    const g = new SessionStream('g', host, true);
    const connection = connect(g);
    g.send(note(1));
    g.finish();
    expect(g.finished).toBe(true);
    expect(connection.completed).toBe(true);
    expect(g.send(note(2))).toBe('closed');
    expect(g.sendEncoded(data(3))).toBe('closed');
    expect(connection.events.map((event) => event.seq)).toEqual([1]);
    expect(() => g.finish()).not.toThrow();
  });

  it('finish drops the backlog and gives it back to the session’s count', () => {
    const host = new FakeHost();
    const g = new SessionStream('g', host, true);
    g.send(note(1));
    g.send(note(2));
    g.finish();
    expect(g.queued).toBe(0);
    expect(host.backlog).toBe(0);
    expect(host.kept).toEqual([]);
  });

  it('a connection to a finished stream completes at once, with nothing', () => {
    const host = new FakeHost();
    const g = new SessionStream('g', host, true);
    g.send(note(1));
    g.finish();
    const late = connect(g);
    expect(late.completed).toBe(true);
    expect(late.events).toEqual([]);
  });

  it('a resume of a finished stream replays what was kept, then completes', async () => {
    const host = new FakeHost();
    const p1 = new SessionStream('p1', host, false);
    p1.send(note(1));
    p1.send(note(2));
    p1.finish();
    const resumed = connect(p1, 1);
    expect(resumed.completed).toBe(false);
    await settle();
    expect(resumed.events.map((event) => event.seq)).toEqual([2]);
    expect(resumed.completed).toBe(true);
  });
});

describe('SessionStream catch-up bound', () => {
  it('gives up a resume whose store is too slow while more than backlogLimit events arrive', async () => {
    const host = new FakeHost();
    host.backlogLimit = 3;
    let release: (events: readonly McpStoredEvent[]) => void = () => undefined;
    host.replay = () => new Promise((resolve) => (release = resolve));
    const stream = new SessionStream('g', host, true);
    let failed: unknown;
    const received: McpStoredEvent[] = [];
    stream.attach(0).subscribe({ next: (event) => received.push(event), error: (error: unknown) => (failed = error) });
    for (let n = 1; n <= 4; n++) stream.send(notificationMessage('notifications/message', { n }));
    expect(failed).toBeInstanceOf(Error);
    expect(received).toEqual([]);
    expect(stream.attached).toBe(false);
    release([]);
    // Everything stayed in the store: a later resume gets it all.
    expect(host.kept).toHaveLength(4);
  });
});
