import { McpCallAbortedError, McpModule } from '../../../src/index.js';
import { ResumableGates, ResumableTools } from '../../fixtures/resumable.tools.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { ConnectionTracker, McpHttpSession, StalledRequest, type SseRecord } from '../../utils/sse-events.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { nextTurn, until } from '../../utils/wait.js';
import { type ClientSession as McpSession, SessionStore } from '../../internals/index.js';

/**
 * Backpressure over real sockets: a client that stops reading its GET or POST SSE stream makes the
 * server hold messages back; once more than `outboxLimit` are held back the session ends
 * ('overflow'), so the server never buffers without bound, and other sessions are unaffected.
 */

const OUTBOX_LIMIT = 20;
/** Large enough that a few dozen fill the kernel's socket buffers on loopback. */
const PAYLOAD_CHARS = 64 * 1024;
/** What an unbounded server would try to buffer: far more than the limit allows. */
const FLOOD_COUNT = 3000;

interface Started {
  readonly app: RunningApp;
  readonly gates: ResumableGates;
  readonly registry: SessionStore;
  readonly logger: RecordingLogger;
}

/** The `n` of every flood message among `records`, in order. */
function floodNumbers(records: readonly SseRecord[]): number[] {
  return records
    .filter((record) => record.data !== undefined && record.data !== '')
    .map((record) => JSON.parse(record.data!) as { params?: { data?: { n?: number } } })
    .map((message) => message.params?.data?.n ?? -1);
}

/** 1..count, for comparing against what a client received. */
const oneTo = (count: number): number[] => Array.from({ length: count }, (_, i) => i + 1);

describe('Backpressure (e2e)', () => {
  const tracker = new ConnectionTracker();
  const stalled: StalledRequest[] = [];
  let running: RunningApp | undefined;

  afterEach(async () => {
    for (const request of stalled.splice(0)) request.close();
    tracker.closeAll();
    await running?.close();
    running = undefined;
  });

  async function start(): Promise<Started> {
    const logger = new RecordingLogger();
    running = await startApp(
      {
        imports: [
          McpModule.forRoot({
            name: 'backpressure-e2e',
            version: '1.0.0',
            limits: { outboxMessages: OUTBOX_LIMIT },
            http: { keepAliveMs: 0 },
            resumability: { maxEventChars: 2 ** 30 },
          }),
        ],
        providers: [ResumableGates, ResumableTools],
      },
      { logger },
    );
    return {
      app: running,
      gates: running.app.get(ResumableGates),
      registry: running.app.get(SessionStore),
      logger,
    };
  }

  const open = (started: Started): Promise<McpHttpSession> =>
    McpHttpSession.open(started.app.mcpUrl, '2025-11-25', tracker);

  function sessionOf(started: Started, client: McpHttpSession): McpSession {
    const session = started.registry.get(client.id);
    if (!session) throw new Error(`session ${client.id} is not live`);
    return session;
  }

  async function stall(
    started: Started,
    client: McpHttpSession,
    method: string,
    body?: unknown,
    readRecords = 0,
  ): Promise<StalledRequest> {
    const headers =
      method === 'GET'
        ? client.headers({ accept: 'text/event-stream' })
        : client.headers({ accept: 'application/json, text/event-stream', 'content-type': 'application/json' });
    const request = await StalledRequest.open(
      started.app.mcpUrl,
      method,
      headers,
      body === undefined ? '' : JSON.stringify(body),
      readRecords,
    );
    stalled.push(request);
    return request;
  }

  /** Another session of the same application still works: a GET stream receives, a call succeeds. */
  async function expectBystanderServed(started: Started, bystander: McpHttpSession): Promise<void> {
    const session = sessionOf(started, bystander);
    const get = await bystander.get();
    expect(get.status).toBe(200);
    expect(session.notify('notifications/message', { level: 'info', data: 'still-served' })).toBe(true);
    await get.waitFor((c) => c.messages().some((m) => (m.params as { data?: unknown }).data === 'still-served'));

    const call = await bystander.call(9, 'flood', { tag: 'bystander', count: 3, size: 10 });
    expect(await call.waitForEnd()).toBe('end');
    const messages = call.messages();
    expect(messages).toHaveLength(4);
    expect(messages.at(-1)).toEqual({
      jsonrpc: '2.0',
      id: 9,
      result: { content: [{ type: 'text', text: 'flooded:3' }] },
    });
    expect(session.ended).toBe(false);
  }

  it('a GET client that stops reading ends its session with overflow once more than outboxLimit messages are held back', async () => {
    const started = await start();
    const victim = await open(started);
    const bystander = await open(started);
    const session = sessionOf(started, victim);
    const request = await stall(started, victim, 'GET');
    expect(request.status).toBe(200);
    await until(() => session.hasStream, 'the stream is attached');

    const pad = 'x'.repeat(PAYLOAD_CHARS);
    let sent = 0;
    let mostUndelivered = 0;
    while (sent < FLOOD_COUNT) {
      if (!session.notify('notifications/message', { level: 'info', data: { n: sent + 1, pad } })) break;
      sent++;
      mostUndelivered = Math.max(mostUndelivered, session.undeliveredMessages);
      await nextTurn();
    }

    expect(session.ended).toBe(true);
    expect(session.endedBecause).toBe('overflow');
    expect(sent).toBeLessThan(FLOOD_COUNT);
    expect(mostUndelivered).toBeGreaterThan(0);
    expect(mostUndelivered).toBeLessThanOrEqual(OUTBOX_LIMIT);
    expect(started.registry.get(victim.id)).toBeUndefined();
    expect(
      started.logger.at('warn').some((line) => line.includes(victim.id) && line.includes(`more than ${OUTBOX_LIMIT}`)),
    ).toBe(true);

    await expectBystanderServed(started, bystander);

    // Reading again, the client gets what the socket and the bounded queue held, in order, then the end.
    const received = floodNumbers(await request.drain());
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThanOrEqual(sent + 1);
    expect(received).toEqual(oneTo(received.length));
  });

  it('a POST client that stops reading its SSE stream ends the session with overflow and aborts the call', async () => {
    const started = await start();
    const victim = await open(started);
    const bystander = await open(started);
    const session = sessionOf(started, victim);
    const request = await stall(started, victim, 'POST', {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'flood', arguments: { tag: 'victim', count: FLOOD_COUNT, size: PAYLOAD_CHARS } },
    });
    expect(request.status).toBe(200);
    expect(request.head).toMatch(/content-type: text\/event-stream/i);

    let mostUndelivered = 0;
    let done = false;
    const outcome = started.gates.flooded('victim').finally(() => {
      done = true;
    });
    while (!done) {
      mostUndelivered = Math.max(mostUndelivered, session.undeliveredMessages);
      await nextTurn();
    }
    const { sent, aborted, reason } = await outcome;

    expect(session.endedBecause).toBe('overflow');
    expect(aborted).toBe(true);
    expect(reason).toBeInstanceOf(McpCallAbortedError);
    expect((reason as McpCallAbortedError).kind).toBe('session-ended');
    expect(sent).toBeLessThan(FLOOD_COUNT);
    expect(mostUndelivered).toBeLessThanOrEqual(OUTBOX_LIMIT);
    expect(session.runningCalls).toBe(0);
    expect(started.registry.get(victim.id)).toBeUndefined();

    await expectBystanderServed(started, bystander);

    const received = floodNumbers(await request.drain());
    expect(received.length).toBeGreaterThan(0);
    expect(received.length).toBeLessThanOrEqual(sent + 1);
    expect(received).toEqual(oneTo(received.length));
  });

  /** Stalls a GET after its priming event and sends until about half the limit is held back. */
  async function stallHalfway(
    started: Started,
    client: McpHttpSession,
  ): Promise<{ request: StalledRequest; primingId: string; sent: number }> {
    const session = sessionOf(started, client);
    // Reads the priming event, so it has an id to resume from, then stops reading.
    const request = await stall(started, client, 'GET', undefined, 1);
    const [priming] = request.recordsBeforeStall;
    expect(priming).toEqual({ id: expect.stringMatching(/^g-\d+$/) as unknown, data: '' });
    const pad = 'x'.repeat(PAYLOAD_CHARS);
    let sent = 0;
    while (session.undeliveredMessages < OUTBOX_LIMIT / 2) {
      expect(session.notify('notifications/message', { level: 'info', data: { n: ++sent, pad } })).toBe(true);
      await nextTurn();
    }
    return { request, primingId: priming!.id!, sent };
  }

  it('a stalled GET that goes away releases what it held against the limit', async () => {
    const started = await start();
    const client = await open(started);
    const session = sessionOf(started, client);
    const { request } = await stallHalfway(started, client);
    expect(session.undeliveredMessages).toBeGreaterThanOrEqual(OUTBOX_LIMIT / 2);

    request.close();
    await until(() => !session.hasStream, 'the server notices the client went');
    expect(session.undeliveredMessages).toBe(0);
    expect(session.ended).toBe(false);
    // The limit is whole again: as much again can be held back without the session ending.
    for (let n = 1; n <= OUTBOX_LIMIT; n++) {
      expect(session.notify('notifications/message', { level: 'info', data: { n } })).toBe(true);
    }
    expect(session.undeliveredMessages).toBe(OUTBOX_LIMIT);
    expect(session.ended).toBe(false);
  });

  // What a stalled connection held back was kept for a resume; replaying it to a client that reads
  // is no overflow, even when the replay is larger than the socket takes at once.
  it('resuming after a stall replays everything held back, and the reading client keeps its session', async () => {
    const started = await start();
    const client = await open(started);
    const session = sessionOf(started, client);
    const { request, primingId, sent } = await stallHalfway(started, client);
    request.close();
    await until(() => !session.hasStream, 'the server notices the client went');

    const resumed = await client.get(primingId);
    expect(resumed.status).toBe(200);
    await resumed.waitForMessages(sent, 5000);
    expect(floodNumbers(resumed.records())).toEqual(oneTo(sent));
    expect(session.endedBecause).toBeUndefined();
    expect(session.notify('notifications/message', { level: 'info', data: { n: sent + 1 } })).toBe(true);
    await resumed.waitForMessages(sent + 1);
    expect(floodNumbers(resumed.records())).toEqual(oneTo(sent + 1));
    expect(session.undeliveredMessages).toBe(0);
  });

  it('clients that keep reading take the same flood without the session ending', async () => {
    const started = await start();
    const client = await open(started);
    const session = sessionOf(started, client);
    const count = 150;

    const get = await client.get();
    await until(() => session.hasStream, 'the stream is attached');
    const pad = 'x'.repeat(PAYLOAD_CHARS);
    for (let n = 1; n <= count; n++) {
      expect(session.notify('notifications/message', { level: 'info', data: { n, pad } })).toBe(true);
      await nextTurn();
    }
    await get.waitForMessages(count, 5000);
    expect(floodNumbers(get.records())).toEqual(oneTo(count));

    const call = await client.call(2, 'flood', { tag: 'reader', count, size: PAYLOAD_CHARS });
    expect(await call.waitForEnd(5000)).toBe('end');
    expect(await started.gates.flooded('reader')).toMatchObject({ sent: count, aborted: false });
    expect(floodNumbers(call.records()).slice(0, count)).toEqual(oneTo(count));
    expect(session.ended).toBe(false);
    expect(session.undeliveredMessages).toBe(0);
  });
});
