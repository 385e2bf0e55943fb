import type { Server } from 'node:http';
import { McpModule, type McpEventStore, type McpModuleOptions, type McpStoredEvent } from '../../../src/index.js';
import { InMemoryEventStore } from '../../internals/index.js';
import { ResumableGates, ResumableTools } from '../../fixtures/resumable.tools.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import {
  ConnectionTracker,
  openConnections,
  McpHttpSession,
  type SseConnection,
  type SseRecord,
} from '../../utils/sse-events.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { delay, until } from '../../utils/wait.js';
import { type ClientSession as McpSession, SessionStore } from '../../internals/index.js';

/**
 * Resumable SSE streams over real HTTP: event ids, priming events and `retry` (2025-11-25 SSE
 * polling, and their absence for older sessions), resuming the standalone and POST streams with
 * `Last-Event-ID`, isolation between streams and sessions, and the event store behind it all.
 */

const SSE_RETRY_MS = 250;
const EVENT_ID = /^(g|p[1-9]\d*)-(\d+)$/;

interface Started {
  readonly app: RunningApp;
  readonly gates: ResumableGates;
  readonly registry: SessionStore;
}

const serverConnections = (started: Started): Promise<number> =>
  openConnections(started.app.app.getHttpServer() as Server);

/** The stream and position an event id names. */
function parseId(id: string): { stream: string; seq: number } {
  const match = EVENT_ID.exec(id);
  if (!match) throw new Error(`not an event id of this server: ${id}`);
  return { stream: match[1]!, seq: Number(match[2]) };
}

/** A short label per message: host notes by their data, tool messages by gate/phase/n, results by text. */
function label(message: Record<string, unknown>): string {
  const params = message.params as Record<string, unknown> | undefined;
  if (message.method === 'notifications/message') {
    const data = params?.data as unknown;
    if (typeof data === 'string') return data;
    const { gate, phase, n } = data as { gate: string; phase: string; n: number };
    return `${gate}:${phase}:${n}`;
  }
  if (message.method === 'notifications/progress') return String(params?.message);
  if ('result' in message) {
    const content = (message.result as { content: { text: string }[] }).content;
    return `result#${String(message.id)}:${content.map((block) => block.text).join('')}`;
  }
  return JSON.stringify(message);
}

const labels = (connection: SseConnection): string[] => connection.messages().map(label);

/** The labels of the messages a connection received up to and including the event `lastId`. */
function labelsUpTo(connection: SseConnection, lastId: string): string[] {
  const records = connection.records();
  const last = records.findIndex((record) => record.id === lastId);
  expect(last).toBeGreaterThanOrEqual(0);
  return records
    .slice(0, last + 1)
    .filter((record) => record.data !== undefined && record.data !== '')
    .map((record) => label(JSON.parse(record.data!) as Record<string, unknown>));
}

const isPriming = (record: SseRecord): boolean => record.data === '';

/** Asserts ids name `stream` and increase along the connection; returns their positions. */
function expectIncreasingIds(connection: SseConnection, stream: string): number[] {
  const seqs = connection.ids().map((id) => {
    const parsed = parseId(id);
    expect(parsed.stream).toBe(stream);
    return parsed.seq;
  });
  for (let i = 1; i < seqs.length; i++) expect(seqs[i]).toBeGreaterThan(seqs[i - 1]!);
  return seqs;
}

/** Every event that carries data (a message or a priming event) carries an id. */
function expectEveryEventHasAnId(connection: SseConnection): void {
  const withData = connection.records().filter((record) => record.data !== undefined);
  expect(withData.length).toBeGreaterThan(0);
  for (const record of withData) expect(record.id).toMatch(EVENT_ID);
  for (const record of connection.messageRecords()) expect(record.event).toBe('message');
}

/** A store that keeps events like the in-memory one but answers asynchronously, and records every call. */
class RecordingAsyncStore implements McpEventStore {
  readonly calls: { op: string; sessionId: string; streamId?: string; seq?: number }[] = [];
  private readonly events = new Map<string, McpStoredEvent[]>();
  private tail: Promise<unknown> = Promise.resolve();

  append(sessionId: string, event: McpStoredEvent): Promise<void> {
    this.calls.push({ op: 'append', sessionId, streamId: event.streamId, seq: event.seq });
    return this.serial(() => {
      const list = this.events.get(sessionId) ?? [];
      list.push({ ...event });
      this.events.set(sessionId, list);
    });
  }

  replay(sessionId: string, streamId: string, afterSeq: number): Promise<readonly McpStoredEvent[]> {
    this.calls.push({ op: 'replay', sessionId, streamId, seq: afterSeq });
    return this.serial(() =>
      (this.events.get(sessionId) ?? []).filter((event) => event.streamId === streamId && event.seq > afterSeq),
    );
  }

  deleteStream(sessionId: string, streamId: string): Promise<void> {
    this.calls.push({ op: 'deleteStream', sessionId, streamId });
    return this.serial(() => {
      const kept = (this.events.get(sessionId) ?? []).filter((event) => event.streamId !== streamId);
      this.events.set(sessionId, kept);
    });
  }

  deleteSession(sessionId: string): Promise<void> {
    this.calls.push({ op: 'deleteSession', sessionId });
    return this.serial(() => {
      this.events.delete(sessionId);
    });
  }

  /** Events kept for a session, by stream. */
  kept(sessionId: string, streamId: string): number {
    return (this.events.get(sessionId) ?? []).filter((event) => event.streamId === streamId).length;
  }

  get sessions(): number {
    return this.events.size;
  }

  /** Each operation lands after the ones before it, a macrotask later: visible in order, never synchronously. */
  private serial<T>(operation: () => T): Promise<T> {
    const result = this.tail.then(() => new Promise<T>((resolve) => setImmediate(() => resolve(operation()))));
    this.tail = result.catch(() => undefined);
    return result;
  }
}

/** A store whose `append` fails, by throwing or by rejecting; its `replay` fails the same way. */
class FailingStore implements McpEventStore {
  appends = 0;
  replays = 0;

  constructor(private readonly how: 'throws' | 'rejects') {}

  append(): void | Promise<void> {
    this.appends++;
    return this.fail('append');
  }

  replay(): readonly McpStoredEvent[] | Promise<readonly McpStoredEvent[]> {
    this.replays++;
    return this.fail('replay') as never;
  }

  deleteStream(): void {}

  deleteSession(): void {}

  private fail(op: string): Promise<never> {
    const error = new Error(`store ${op} is down`);
    if (this.how === 'throws') throw error;
    return Promise.reject(error);
  }
}

describe('Resumable SSE streams (e2e)', () => {
  const tracker = new ConnectionTracker();
  let running: RunningApp | undefined;
  let store: InMemoryEventStore;

  afterEach(async () => {
    tracker.closeAll();
    await running?.close();
    running = undefined;
  });

  async function start(options: Partial<McpModuleOptions> = {}, logger?: RecordingLogger): Promise<Started> {
    store = new InMemoryEventStore({ maxEventsPerSession: 1000, maxEventAgeMs: 60_000 });
    running = await startApp(
      {
        imports: [
          McpModule.forRoot({
            name: 'resumable-e2e',
            version: '1.0.0',
            ...options,
            http: { keepAliveMs: 0, sseRetryMs: SSE_RETRY_MS, ...options.http },
            resumability: { eventStore: store, ...options.resumability },
          }),
        ],
        providers: [ResumableGates, ResumableTools],
      },
      { logger },
    );
    return { app: running, gates: running.app.get(ResumableGates), registry: running.app.get(SessionStore) };
  }

  const open = (started: Started, version = '2025-11-25', capabilities?: Record<string, unknown>) =>
    McpHttpSession.open(started.app.mcpUrl, version, tracker, capabilities);

  function sessionOf(started: Started, client: McpHttpSession): McpSession {
    const session = started.registry.get(client.id);
    if (!session) throw new Error(`session ${client.id} is not live`);
    return session;
  }

  const note = (session: McpSession, text: string): boolean =>
    session.notify('notifications/message', { level: 'info', data: text });

  describe('event ids', () => {
    it('every event carries an id unique within the session, naming its stream (g, p1, p2), and ids increase', async () => {
      const started = await start();
      const client = await open(started);
      const session = sessionOf(started, client);
      const get = await client.get();
      await get.waitFor((c) => c.records().length >= 1);
      note(session, 'host-1');
      note(session, 'host-2');

      const first = await client.call(1, 'emit_then_wait', { gate: 'a', before: 2, after: 1, via: 'progress' }, 't1');
      await started.gates.reached('a');
      const second = await client.call(2, 'emit_then_wait', { gate: 'b', before: 2, after: 1 });
      await started.gates.reached('b');
      note(session, 'host-3');
      started.gates.open('b');
      started.gates.open('a');
      expect(await first.waitForEnd()).toBe('end');
      expect(await second.waitForEnd()).toBe('end');
      note(session, 'host-4');
      await get.waitForMessages(4);

      expect(labels(get)).toEqual(['host-1', 'host-2', 'host-3', 'host-4']);
      expect(labels(first)).toEqual(['a:before:1', 'a:before:2', 'a:after:3', 'result#1:done:a']);
      expect(labels(second)).toEqual(['b:before:1', 'b:before:2', 'b:after:3', 'result#2:done:b']);
      for (const connection of [get, first, second]) expectEveryEventHasAnId(connection);
      const seqs = [
        ...expectIncreasingIds(get, 'g'),
        ...expectIncreasingIds(first, 'p1'),
        ...expectIncreasingIds(second, 'p2'),
      ];
      // Positions are session-wide: no two events of the session share one.
      expect(new Set(seqs).size).toBe(seqs.length);
      // Priming events included: 5 on the GET, 5 on each POST stream.
      expect(seqs).toHaveLength(15);
    });

    it('a 2025-11-25 session gets a priming event (an id and empty data) first, on GET and on POST SSE streams', async () => {
      const started = await start();
      const client = await open(started);
      const get = await client.get();
      await get.waitFor((c) => c.records().length >= 1);
      const post = await client.call(7, 'emit_then_wait', { gate: 'p', before: 1 });
      await started.gates.reached('p');
      started.gates.open('p');
      await post.waitForEnd();

      for (const [connection, stream] of [
        [get, 'g'],
        [post, 'p1'],
      ] as const) {
        const [priming, ...rest] = connection.records();
        expect(priming).toEqual({ id: expect.stringMatching(new RegExp(`^${stream}-\\d+$`)) as unknown, data: '' });
        expect(connection.text.startsWith(`id: ${priming!.id}\ndata: \n\n`)).toBe(true);
        expect(rest.some(isPriming)).toBe(false);
      }
      expect(labels(post)).toEqual(['p:before:1', 'result#7:done:p']);
      // Nothing was closed on purpose: no retry anywhere.
      expect([...get.records(), ...post.records()].some((record) => record.retry !== undefined)).toBe(false);
    });
  });

  describe('closing a connection on purpose (2025-11-25)', () => {
    it.each([
      { retryMs: undefined, expected: SSE_RETRY_MS, before: 2 },
      // Closed before anything was sent: the POST switches to SSE just to be closed.
      { retryMs: 40, expected: 40, before: 0 },
    ])(
      'closeConnection($retryMs) writes `retry: $expected`, ends the POST; resuming it delivers the rest and the result, then ends; the store drops the stream',
      async ({ retryMs, expected, before }) => {
        const started = await start();
        const client = await open(started);
        const session = sessionOf(started, client);
        const args = retryMs === undefined ? { gate: 'c', before, after: 2 } : { gate: 'c', before, after: 2, retryMs };
        const post = await client.call(1, 'close_and_finish', args);

        expect(post.isSse).toBe(true);
        expect(await post.waitForEnd()).toBe('end');
        const records = post.records();
        expect(isPriming(records[0]!)).toBe(true);
        const sentBefore = Array.from({ length: before }, (_, i) => `c:before:${i + 1}`);
        expect(labels(post)).toEqual(sentBefore);
        // The retry comes last, after every event the connection carried.
        expect(records.at(-1)).toEqual({ retry: expected });
        expect(records).toHaveLength(before + 2);
        expect(post.text.endsWith(`retry: ${expected}\n\n`)).toBe(true);
        // The call goes on without its connection.
        expect(session.runningCalls).toBe(1);
        expect(started.gates.isFinished('c')).toBe(false);

        const lastSeen = post.lastId()!;
        const resumed = await client.get(lastSeen);
        expect(resumed.status).toBe(200);
        expect(resumed.isSse).toBe(true);
        started.gates.open('c');
        expect(await resumed.waitForEnd()).toBe('end');
        expect(labels(resumed)).toEqual([
          `c:after:${before + 1}`,
          `c:after:${before + 2}`,
          'result#1:done:c:closed=true',
        ]);
        expect(await started.gates.finished('c')).toMatchObject({ closed: true, aborted: false });
        const seqs = expectIncreasingIds(resumed, 'p1');
        expect(seqs[0]).toBeGreaterThan(parseId(lastSeen).seq);
        expect(resumed.records().some((record) => record.retry !== undefined)).toBe(false);

        // Delivered in full and finished: nothing of it is kept (no other stream of the session has events).
        await until(() => store.size === 0, 'the finished stream is dropped from the store');
        expect(store.sessionCount).toBe(0);
        // Nothing left to come back for: 204 tells the client to stop reconnecting.
        const again = await client.get(lastSeen);
        expect(again.status).toBe(204);
        expect(await again.waitForEnd()).toBe('end');
        expect(again.text).toBe('');
      },
    );

    it.each(['2025-06-18', '2025-03-26'])(
      'a session at %s never gets a priming event or retry; closeConnection returns false and the result arrives on the POST stream',
      async (version) => {
        const started = await start();
        const client = await open(started, version);
        const session = sessionOf(started, client);
        const get = await client.get();
        const post = await client.call(1, 'close_and_finish', { gate: 'c', before: 2, after: 1 });
        await started.gates.reached('c');
        note(session, 'host-1');
        await get.waitForMessages(1);
        started.gates.open('c');

        expect(await post.waitForEnd()).toBe('end');
        expect(await started.gates.finished('c')).toMatchObject({ closed: false, aborted: false });
        expect(labels(post)).toEqual(['c:before:1', 'c:before:2', 'c:after:3', 'result#1:done:c:closed=false']);
        expect(labels(get)).toEqual(['host-1']);
        for (const connection of [get, post]) {
          const records = connection.records();
          expect(records.some(isPriming)).toBe(false);
          expect(records.some((record) => record.retry !== undefined)).toBe(false);
          expect(connection.text).not.toMatch(/^retry:/m);
          expectEveryEventHasAnId(connection);
        }
        expectIncreasingIds(get, 'g');
        expectIncreasingIds(post, 'p1');
      },
    );
  });

  describe('resuming the standalone (GET) stream', () => {
    it.each(['2025-11-25', '2025-06-18'])(
      '(%s) after a cut connection, from the last id seen: nothing lost, nothing duplicated',
      async (version) => {
        const started = await start();
        const client = await open(started, version);
        const session = sessionOf(started, client);
        // Sent while no GET is connected: they wait for the first one.
        note(session, 'm1');
        note(session, 'm2');
        const first = await client.get();
        await first.waitForMessages(2);
        note(session, 'm3');
        await first.waitForMessages(3);
        const lastSeen = first.messageRecords()[2]!.id!;
        // Written to the socket, but the connection breaks before the client takes it in.
        note(session, 'm4');
        await first.waitForMessages(4);
        first.close();
        await until(() => !session.hasStream, 'the server notices the cut');
        // Sent while disconnected, as log messages this time.
        expect(session.log('info', 'm5')).toBe(true);
        expect(session.log('warning', 'm6')).toBe(true);
        expect(session.log('debug', 'below the level')).toBe(false);
        expect(session.undeliveredMessages).toBe(2);

        const resumed = await client.get(lastSeen);
        expect(resumed.status).toBe(200);
        await resumed.waitForMessages(3);
        note(session, 'm7');
        await resumed.waitForMessages(4);
        // A fixed wait on purpose: nothing more (a repeat) may arrive.
        await delay(30);

        expect(labelsUpTo(first, lastSeen)).toEqual(['m1', 'm2', 'm3']);
        expect(labels(resumed)).toEqual(['m4', 'm5', 'm6', 'm7']);
        expect(resumed.records().some(isPriming)).toBe(false);
        const seqs = expectIncreasingIds(resumed, 'g');
        expect(seqs[0]).toBeGreaterThan(parseId(lastSeen).seq);
        // m4 was replayed from the store with its first id: the client can tell it is the same event.
        expect(resumed.messageRecords()[0]!.id).toBe(first.messageRecords()[3]!.id);
        expect(session.undeliveredMessages).toBe(0);
        expect(session.hasStream).toBe(true);
      },
    );

    it('a resume while a GET is attached replaces that connection (it ends), while a plain second GET gets 409', async () => {
      const started = await start();
      const client = await open(started);
      const session = sessionOf(started, client);
      const first = await client.get();
      note(session, 'm1');
      await first.waitForMessages(1);

      const plain = await client.get();
      expect(plain.status).toBe(409);
      expect(first.ended).toBeUndefined();

      const resumed = await client.get(first.lastId());
      expect(resumed.status).toBe(200);
      expect(await first.waitForEnd()).toBe('end');
      note(session, 'm2');
      await resumed.waitForMessages(1);
      // A fixed wait on purpose: nothing more (a repeat) may arrive, on either stream.
      await delay(30);
      expect(labels(first)).toEqual(['m1']);
      expect(labels(resumed)).toEqual(['m2']);
      expect(session.hasStream).toBe(true);

      const plainAgain = await client.get();
      expect(plainAgain.status).toBe(409);
      expect(resumed.ended).toBeUndefined();
    });

    it.each([
      'nonsense',
      'g',
      'g-',
      'g-x',
      'x-1',
      'p-3',
      'p0-3',
      'g-01',
      'g-1-2',
      'G-1',
      'g-1.5',
      'p1-99999999999999999',
    ])('a malformed Last-Event-ID (%j) gets 400 and leaves the attached stream alone', async (lastEventId) => {
      const started = await start();
      const client = await open(started);
      const session = sessionOf(started, client);
      const attached = await client.get();
      const refused = await client.get(lastEventId);
      expect(refused.status).toBe(400);
      expect(await refused.json()).toMatchObject({ jsonrpc: '2.0', error: { code: expect.any(Number) as unknown } });
      note(session, 'still-here');
      await attached.waitForMessages(1);
      expect(labels(attached)).toEqual(['still-here']);
    });
  });

  describe('resuming a POST stream', () => {
    it.each(['2025-11-25', '2025-06-18'])(
      '(%s) after the client dropped the POST mid-call: the call is not cancelled and its result is replayed',
      async (version) => {
        const started = await start();
        const client = await open(started, version);
        const session = sessionOf(started, client);
        const post = await client.call(5, 'emit_then_wait', { gate: 'd', before: 2, after: 2, via: 'progress' }, 'tok');
        await post.waitForMessages(2);
        const lastSeen = post.lastId()!;
        post.close();
        await until(async () => (await serverConnections(started)) === 0, 'the server sees the POST go');

        expect(session.runningCalls).toBe(1);
        const ctx = await started.gates.reached('d');
        expect(ctx.signal.aborted).toBe(false);
        started.gates.open('d');
        expect(await started.gates.finished('d')).toEqual({ aborted: false, reason: undefined });
        await until(() => session.runningCalls === 0, 'the call ends');

        const resumed = await client.get(lastSeen);
        expect(resumed.status).toBe(200);
        expect(await resumed.waitForEnd()).toBe('end');
        expect(labels(post)).toEqual(['d:before:1', 'd:before:2']);
        expect(labels(resumed)).toEqual(['d:after:3', 'd:after:4', 'result#5:done:d']);
        const seqs = expectIncreasingIds(resumed, 'p1');
        expect(seqs[0]).toBeGreaterThan(parseId(lastSeen).seq);
        await until(() => store.size === 0, 'the delivered stream is dropped from the store');
      },
    );

    it('a POST stream resumed while the call still runs gets the rest live, then ends with the result, beside the GET stream', async () => {
      const started = await start();
      const client = await open(started);
      const session = sessionOf(started, client);
      const post = await client.call(3, 'emit_then_wait', { gate: 'e', before: 1, after: 1 });
      await post.waitForMessages(1);
      const lastSeen = post.lastId()!;
      post.close();
      const resumed = await client.get(lastSeen);
      expect(resumed.status).toBe(200);
      // Resuming a POST stream does not take the session's standalone stream: a plain GET still opens.
      expect(session.hasStream).toBe(false);
      const get = await client.get();
      expect(get.status).toBe(200);
      note(session, 'host-1');
      await get.waitForMessages(1);
      started.gates.open('e');
      expect(await resumed.waitForEnd()).toBe('end');
      expect(labels(resumed)).toEqual(['e:after:2', 'result#3:done:e']);
      expect(labels(get)).toEqual(['host-1']);
      expect(get.ended).toBeUndefined();
    });

    it("resuming one stream never yields another stream's events", async () => {
      const started = await start();
      const client = await open(started);
      const session = sessionOf(started, client);
      const get = await client.get();
      note(session, 'host-1');
      const postA = await client.call(1, 'emit_then_wait', { gate: 'a', before: 2, after: 1 });
      await postA.waitForMessages(2);
      const postB = await client.call(2, 'emit_then_wait', { gate: 'b', before: 2, after: 1 });
      await postB.waitForMessages(2);
      note(session, 'host-2');
      const firstOfA = postA.ids()[0]!;
      const firstOfB = postB.ids()[0]!;
      expect(parseId(firstOfA).stream).toBe('p1');
      expect(parseId(firstOfB).stream).toBe('p2');
      // Both POSTs go; B finishes while nobody listens, so its rest is kept for a resume.
      postA.close();
      postB.close();
      await until(async () => (await serverConnections(started)) === 1, 'the server sees both POSTs go');
      started.gates.open('b');
      await started.gates.finished('b');
      note(session, 'host-3');
      await get.waitForMessages(3);

      // From A's priming event: everything A sent since, and only that.
      const resumedA = await client.get(firstOfA);
      await resumedA.waitForMessages(2);
      note(session, 'host-4');
      started.gates.open('a');
      expect(await resumedA.waitForEnd()).toBe('end');
      expect(labels(resumedA)).toEqual(['a:before:1', 'a:before:2', 'a:after:3', 'result#1:done:a']);
      expectIncreasingIds(resumedA, 'p1');

      // B's finished stream, from its first event: B's events only, none of A's or the GET's.
      const resumedB = await client.get(firstOfB);
      expect(resumedB.status).toBe(200);
      expect(await resumedB.waitForEnd()).toBe('end');
      expect(labels(resumedB)).toEqual(['b:before:1', 'b:before:2', 'b:after:3', 'result#2:done:b']);
      expectIncreasingIds(resumedB, 'p2');
      await get.waitForMessages(4);
      expect(labels(get)).toEqual(['host-1', 'host-2', 'host-3', 'host-4']);
    });

    it('an id from session A used on session B yields nothing of A', async () => {
      const started = await start();
      const a = await open(started);
      const b = await open(started);
      const sessionA = sessionOf(started, a);
      const getA = await a.get();
      for (let n = 1; n <= 5; n++) note(sessionA, `a-${n}`);
      await getA.waitForMessages(5);
      const postA = await a.call(1, 'emit_then_wait', { gate: 'a', before: 2 });
      await postA.waitForMessages(2);
      postA.close();
      expect(store.size).toBeGreaterThan(0);

      // A's positions are beyond anything B issued, and B has no POST stream at all: both refused.
      const onB = await b.get(getA.ids()[0]!);
      expect(onB.status).toBe(400);
      const postOnB = await b.get(postA.ids()[0]!);
      expect(postOnB.status).toBe(400);
      expect(onB.messages()).toEqual([]);
      expect(postOnB.messages()).toEqual([]);

      // A's events are intact and still A's.
      const resumedA = await a.get(postA.ids()[0]!);
      await resumedA.waitForMessages(2);
      started.gates.open('a');
      expect(await resumedA.waitForEnd()).toBe('end');
      expect(labels(resumedA)).toEqual(['a:before:1', 'a:before:2', 'result#1:done:a']);
    });

    // Positions are session-wide counters: an id B never issued (another session's, or one from
    // before a restart) can name a position B has not reached yet. Resuming after it must not make
    // B's own later messages look already seen.
    it("a Last-Event-ID that session B never issued does not swallow B's later messages", async () => {
      const started = await start();
      const a = await open(started);
      const b = await open(started);
      const sessionA = sessionOf(started, a);
      const sessionB = sessionOf(started, b);
      const getA = await a.get();
      for (let n = 1; n <= 5; n++) note(sessionA, `a-${n}`);
      await getA.waitForMessages(5);

      // B never reached that position: the id is refused rather than taken as "seen up to there".
      const refused = await b.get(getA.lastId());
      expect(refused.status).toBe(400);
      const onB = await b.get();
      expect(onB.status).toBe(200);
      note(sessionB, 'b-1');
      note(sessionB, 'b-2');
      await onB.waitForMessages(2, 1000);
      expect(labels(onB)).toEqual(['b-1', 'b-2']);
    });

    it("a Last-Event-ID naming a position B's POST stream never reached does not cost B its result", async () => {
      const started = await start();
      const a = await open(started);
      const b = await open(started);
      const sessionA = sessionOf(started, a);
      const getA = await a.get();
      for (let n = 1; n <= 8; n++) note(sessionA, `a-${n}`);
      await getA.waitForMessages(8);
      const post = await b.call(1, 'emit_then_wait', { gate: 'x', before: 1, after: 1 });
      await post.waitForMessages(1);
      post.close();
      await until(async () => (await serverConnections(started)) === 1, 'the server sees the POST go');

      // B's stream p1 exists, but B never numbered anything as far as A's last position.
      const foreign = await b.get(`p1-${parseId(getA.lastId()!).seq}`);
      started.gates.open('x');
      await foreign.waitForEnd();
      // However that resume was answered, the result reaches B: there, or on B's own resume.
      const resumed = await b.get(post.lastId());
      await resumed.waitForEnd();
      expect([...labels(foreign), ...labels(resumed)]).toEqual(['x:after:2', 'result#1:done:x']);
    });
  });

  describe('event stores', () => {
    it('the default store forgets a session when it ends', async () => {
      const started = await start();
      const client = await open(started);
      const session = sessionOf(started, client);
      const get = await client.get();
      note(session, 'm1');
      await get.waitForMessages(1);
      expect(store.sessionCount).toBe(1);
      expect(store.size).toBeGreaterThan(0);
      expect(await client.delete()).toBe(204);
      expect(store.sessionCount).toBe(0);
      expect(store.size).toBe(0);
    });

    it('a custom asynchronous store serves resumes of both kinds and is told what to forget', async () => {
      const custom = new RecordingAsyncStore();
      const started = await start({ resumability: { eventStore: custom } });
      const client = await open(started);
      const session = sessionOf(started, client);

      const first = await client.get();
      note(session, 'm1');
      note(session, 'm2');
      await first.waitForMessages(2);
      const lastSeen = first.messageRecords()[0]!.id!;
      first.close();
      await until(() => !session.hasStream, 'the server notices the cut');
      note(session, 'm3');
      const resumed = await client.get(lastSeen);
      await resumed.waitForMessages(2);
      expect(labels(resumed)).toEqual(['m2', 'm3']);

      const post = await client.call(1, 'close_and_finish', { gate: 'c', before: 1, after: 1 });
      expect(await post.waitForEnd()).toBe('end');
      const resumedPost = await client.get(post.lastId());
      started.gates.open('c');
      expect(await resumedPost.waitForEnd()).toBe('end');
      expect(labels(resumedPost)).toEqual(['c:after:2', 'result#1:done:c:closed=true']);
      await until(() => custom.kept(client.id, 'p1') === 0, 'the delivered POST stream is deleted');

      const appended = custom.calls.filter((call) => call.op === 'append');
      const seqs = appended.map((call) => call.seq!);
      expect(seqs).toEqual([...seqs].sort((x, y) => x - y));
      expect(appended.every((call) => call.sessionId === client.id)).toBe(true);
      expect(custom.calls).toContainEqual({
        op: 'replay',
        sessionId: client.id,
        streamId: 'g',
        seq: parseId(lastSeen).seq,
      });
      expect(custom.calls).toContainEqual({ op: 'deleteStream', sessionId: client.id, streamId: 'p1' });
      expect(custom.kept(client.id, 'g')).toBeGreaterThan(0);

      expect(await client.delete()).toBe(204);
      expect(custom.calls.at(-1)).toEqual({ op: 'deleteSession', sessionId: client.id });
      await until(() => custom.sessions === 0, 'the session is forgotten');
    });

    it.each(['throws', 'rejects'] as const)(
      'a store whose append %s does not break the session: live messages are delivered, the failure is logged',
      async (how) => {
        const logger = new RecordingLogger();
        const failing = new FailingStore(how);
        const started = await start({ resumability: { eventStore: failing } }, logger);
        const client = await open(started);
        const session = sessionOf(started, client);
        const get = await client.get();
        note(session, 'm1');
        note(session, 'm2');
        await get.waitForMessages(2);

        started.gates.open('f');
        const post = await client.call(1, 'emit_then_wait', { gate: 'f', before: 2, after: 1 });
        expect(await post.waitForEnd()).toBe('end');
        expect(labels(post)).toEqual(['f:before:1', 'f:before:2', 'f:after:3', 'result#1:done:f']);
        expect(labels(get)).toEqual(['m1', 'm2']);
        expectEveryEventHasAnId(post);

        // A resume whose replay fails still attaches, and live delivery goes on.
        get.close();
        await until(() => !session.hasStream, 'the server notices the cut');
        const resumed = await client.get(get.lastId());
        expect(resumed.status).toBe(200);
        note(session, 'm3');
        await resumed.waitForMessages(1);
        expect(labels(resumed)).toEqual(['m3']);

        expect(session.ended).toBe(false);
        expect(failing.appends).toBeGreaterThan(5);
        expect(failing.replays).toBe(1);
        await until(
          () =>
            logger.at('error').filter((line) => line.includes('The MCP event store failed')).length >= failing.appends,
          'every failure is logged',
        );
        expect(logger.at('error').some((line) => line.includes('store append is down'))).toBe(true);
        expect(logger.at('error').some((line) => line.includes('store replay is down'))).toBe(true);
      },
    );
  });
});
