import type { INestApplication } from '@nestjs/common';
import { getEventListeners } from 'node:events';
import { Agent, type Server } from 'node:http';
import { McpCallAbortedError, McpModule } from '../../../src/index.js';
import { InMemoryEventStore } from '../../internals/index.js';
import { ResumableGates, ResumableTools } from '../../fixtures/resumable.tools.js';
import { ConnectionTracker, openConnections, McpHttpSession, type SseConnection } from '../../utils/sse-events.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';
import { type ClientSession as McpSession, SessionStore } from '../../internals/index.js';

/**
 * Memory hygiene under churn (issue: "a test that opens and drops 1,000 SSE connections and cancels
 * 1,000 calls leaves no listeners, timers or store entries behind (count them)"). Everything is
 * counted against a baseline taken on the same running application just before the churn.
 */

const CONNECTIONS = 1000;
const CALLS = 1000;
const ANSWERED_CALLS = 100;
const CALL_BATCH = 50;
const CALL_SESSIONS = 10;
/** A few seconds per test on two idle cores; the margin is for shared, loaded CI machines. */
const CHURN_TIMEOUT_MS = 60_000;

/**
 * Timers created through the global timer functions while installed, ref'd or not: the library's
 * keep-alive intervals, client-request and tool timeouts are unref'd, which
 * `process.getActiveResourcesInfo()` does not list, so they are counted here.
 */
class TimerCensus {
  private readonly live = new Set<unknown>();
  private readonly originals = {
    setTimeout: globalThis.setTimeout,
    clearTimeout: globalThis.clearTimeout,
    setInterval: globalThis.setInterval,
    clearInterval: globalThis.clearInterval,
  };

  get count(): number {
    return this.live.size;
  }

  install(): void {
    const { live, originals } = this;
    globalThis.setTimeout = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const timer = originals.setTimeout(
        (...callArgs: unknown[]) => {
          live.delete(timer);
          callback(...callArgs);
        },
        ms,
        ...args,
      );
      live.add(timer);
      return timer;
    }) as typeof setTimeout;
    globalThis.setInterval = ((callback: (...args: unknown[]) => void, ms?: number, ...args: unknown[]) => {
      const timer = originals.setInterval(callback, ms, ...args);
      live.add(timer);
      return timer;
    }) as typeof setInterval;
    globalThis.clearTimeout = ((timer: NodeJS.Timeout | undefined) => {
      live.delete(timer);
      originals.clearTimeout(timer);
    }) as typeof clearTimeout;
    globalThis.clearInterval = ((timer: NodeJS.Timeout | undefined) => {
      live.delete(timer);
      originals.clearInterval(timer);
    }) as typeof clearInterval;
  }

  uninstall(): void {
    Object.assign(globalThis, this.originals);
  }
}

/** Ref'd timers of the whole process, as Node reports them. */
const activeTimeouts = (): number => process.getActiveResourcesInfo().filter((type) => type === 'Timeout').length;

/** Listener counts of every event of the HTTP server. */
function serverListeners(app: INestApplication): Record<string, number> {
  const server = app.getHttpServer() as Server;
  return Object.fromEntries(server.eventNames().map((name) => [String(name), server.listenerCount(name)]));
}

interface Baseline {
  readonly census: number;
  readonly activeTimeouts: number;
  readonly listeners: Record<string, number>;
}

describe('Memory hygiene under churn (e2e)', () => {
  const census = new TimerCensus();
  const tracker = new ConnectionTracker();
  let running: RunningApp | undefined;
  let store: InMemoryEventStore;
  let registry: SessionStore;
  let gates: ResumableGates;

  beforeAll(() => census.install());
  afterAll(() => census.uninstall());

  beforeEach(async () => {
    store = new InMemoryEventStore({ maxEventsPerSession: 500, maxEventAgeMs: 60_000 });
    running = await startApp({
      imports: [
        McpModule.forRoot({
          name: 'memory-e2e',
          version: '1.0.0',
          resumability: { eventStore: store },
          http: { keepAliveMs: 30_000 },
          sessions: { clientRequestTimeoutMs: 30_000 },
        }),
      ],
      providers: [ResumableGates, ResumableTools],
    });
    registry = running.app.get(SessionStore);
    gates = running.app.get(ResumableGates);
  });

  afterEach(async () => {
    tracker.closeAll();
    await running?.close();
    running = undefined;
  });

  const open = (version = '2025-11-25', agent: Agent | false = false): Promise<McpHttpSession> =>
    McpHttpSession.open(running!.mcpUrl, version, tracker, { elicitation: {} }, agent);

  function sessionOf(client: McpHttpSession): McpSession {
    const session = registry.get(client.id);
    if (!session) throw new Error(`session ${client.id} is not live`);
    return session;
  }

  const serverConnections = (): Promise<number> => openConnections(running!.app.getHttpServer() as Server);

  async function baseline(): Promise<Baseline> {
    await until(async () => (await serverConnections()) === 0, 'warm-up connections close');
    return { census: census.count, activeTimeouts: activeTimeouts(), listeners: serverListeners(running!.app) };
  }

  /** Nothing is left running: timers, server listeners and connections are back to the baseline. */
  async function expectBackTo(before: Baseline): Promise<void> {
    await until(async () => (await serverConnections()) === 0, 'every connection closes');
    await until(() => census.count <= before.census, `timers drop back to ${before.census} (now ${census.count})`);
    expect(census.count).toBe(before.census);
    await until(
      () => activeTimeouts() <= before.activeTimeouts,
      `ref'd timers drop back to ${before.activeTimeouts} (now ${process.getActiveResourcesInfo().join(', ')})`,
    );
    expect(serverListeners(running!.app)).toEqual(before.listeners);
  }

  /** Opens a GET on `client`, retrying while the server has not yet noticed the previous one went. */
  async function openGet(
    client: McpHttpSession,
    session: McpSession,
  ): Promise<{ get: SseConnection; refused: number }> {
    let refused = 0;
    for (;;) {
      const get = await client.get();
      if (get.status === 200) return { get, refused };
      expect(get.status).toBe(409);
      refused++;
      get.close();
      await until(() => !session.hasStream, 'the previous stream is detached');
    }
  }

  it(
    `opening and dropping ${CONNECTIONS} GET streams on a live session leaves no stream, backlog, timer or listener behind`,
    async () => {
      const client = await open();
      const session = sessionOf(client);
      // Warm-up: one of each, so lazily created things exist before the baseline.
      const warm = await client.get();
      await warm.waitFor((c) => c.records().length >= 1);
      warm.close();
      await until(() => !session.hasStream, 'the warm-up stream is detached');
      const before = await baseline();

      let refused = 0;
      let notes = 0;
      let backlogged = false;
      let mostTimers = 0;
      for (let i = 0; i < CONNECTIONS; i++) {
        const opened = await openGet(client, session);
        refused += opened.refused;
        const { get } = opened;
        // The priming event proves the stream is attached server-side.
        await get.waitFor((c) => c.records().length >= 1);
        if (backlogged) {
          // What waited while no stream was open is handed to this one.
          await get.waitForMessages(1);
          backlogged = false;
        }
        if (i % 10 === 0) {
          session.notify('notifications/message', { level: 'info', data: `note-${i}` });
          notes++;
          await get.waitFor((c) => c.messages().some((m) => (m.params as { data: string }).data === `note-${i}`));
        }
        mostTimers = Math.max(mostTimers, census.count);
        get.close();
        if (i % 10 === 5 && i < CONNECTIONS - 1) {
          await until(() => !session.hasStream, 'the stream is detached');
          session.notify('notifications/message', { level: 'info', data: `waiting-${i}` });
          expect(session.undeliveredMessages).toBe(1);
          notes++;
          backlogged = true;
        }
      }
      await until(() => !session.hasStream, 'the last stream is detached');

      expect(session.ended).toBe(false);
      expect(session.hasStream).toBe(false);
      expect(session.undeliveredMessages).toBe(0);
      expect(session.runningCalls).toBe(0);
      // The census does see the library's timers: a stream's keep-alive interval existed while it was open.
      expect(mostTimers).toBeGreaterThan(before.census);
      await expectBackTo(before);
      // Every delivered message is kept for a resume (the store bounds them), none twice.
      expect(store.size).toBe(notes);
      expect(store.sessionCount).toBe(1);
      // Refusals (409) happen only when the next GET beats the server's notice of the last close.
      expect(refused).toBeLessThan(CONNECTIONS);

      expect(await client.delete()).toBe(204);
      expect(registry.size).toBe(0);
      expect(store.size).toBe(0);
      expect(store.sessionCount).toBe(0);
    },
    CHURN_TIMEOUT_MS,
  );

  it(
    `${CALLS} calls cancelled with notifications/cancelled (and ${ANSWERED_CALLS} answered) leave no call, request, listener, timer or store entry behind`,
    async () => {
      // Connections are reused, as real clients do; what they hold is let go before counting.
      const agent = new Agent({ keepAlive: true, maxSockets: 2 * CALL_BATCH });
      const clients = await Promise.all(
        Array.from({ length: CALL_SESSIONS }, (_, i) => open(i % 2 === 0 ? '2025-11-25' : '2025-06-18', agent)),
      );
      // Warm-up: one cancelled call of each kind.
      const warmup = clients[0]!;
      const modes = ['plain', 'progress', 'elicit'] as const;
      for (const [index, mode] of modes.entries()) {
        const id = `warm-${index}`;
        const response = warmup.call(id, 'wait_for_cancel', { mode });
        await gates.started(id);
        expect(await warmup.cancel(id)).toBe(202);
        await (
          await response
        ).finished;
      }
      gates.reset();
      agent.destroy();
      const before = await baseline();

      const answers = new Map<string, number>();
      let withdrawn = 0;
      let mostTimers = 0;
      for (let first = 0; first < CALLS; first += CALL_BATCH) {
        await Promise.all(
          Array.from({ length: CALL_BATCH }, async (_, offset) => {
            const n = first + offset;
            const client = clients[n % CALL_SESSIONS]!;
            const mode = modes[n % modes.length]!;
            const response = client.call(n, 'wait_for_cancel', { mode }, mode === 'progress' ? `tok-${n}` : undefined);
            await gates.started(n);
            mostTimers = Math.max(mostTimers, census.count);
            expect(await client.cancel(n)).toBe(202);
            const answer = await response;
            expect(await answer.finished).toBe('end');
            expect(answer.status).toBe(200);
            expect(answer.isSse).toBe(true);
            const kind = answer.text === '' ? 'empty' : 'events';
            answers.set(kind, (answers.get(kind) ?? 0) + 1);
            // A cancelled call is never answered.
            expect(answer.messages().some((message) => 'result' in message || 'error' in message)).toBe(false);
            if (mode === 'elicit') {
              const [request, cancelled] = answer.messages();
              expect(request).toMatchObject({ method: 'elicitation/create' });
              expect(cancelled).toMatchObject({
                method: 'notifications/cancelled',
                params: { requestId: request!.id },
              });
              withdrawn++;
            }
          }),
        );
      }

      const answered: AbortSignal[] = [];
      for (let first = 0; first < ANSWERED_CALLS; first += CALL_BATCH) {
        await Promise.all(
          Array.from({ length: Math.min(CALL_BATCH, ANSWERED_CALLS - first) }, async (_, offset) => {
            const n = CALLS + first + offset;
            const client = clients[n % CALL_SESSIONS]!;
            const response = await client.call(n, 'wait_for_cancel', { mode: 'elicit' });
            answered.push((await gates.started(n)).signal);
            await response.waitFor((c) => c.messages().some((message) => message.method === 'elicitation/create'));
            const request = response.messages().find((message) => message.method === 'elicitation/create')!;
            const reply = await client.post({ jsonrpc: '2.0', id: request.id, result: { action: 'decline' } });
            expect((await reply.finished, reply.status)).toBe(202);
            expect(await response.waitForEnd()).toBe('end');
            expect(response.messages().at(-1)).toMatchObject({
              id: n,
              result: { content: [{ text: 'answered:decline' }] },
            });
          }),
        );
      }

      // The census saw the calls' timers (tool timeouts, client-request timeouts) while they ran.
      expect(mostTimers).toBeGreaterThan(before.census + CALL_BATCH);
      const sessions = clients.map(sessionOf);
      await until(() => sessions.every((session) => session.runningCalls === 0), 'every call ends');
      for (const session of sessions) {
        expect(session.runningCalls).toBe(0);
        expect(session.pendingClientRequests).toBe(0);
        expect(session.undeliveredMessages).toBe(0);
        expect(session.ended).toBe(false);
      }
      // Calls that sent nothing get an event stream without events; calls that switched to SSE end their
      // stream without a result.
      expect(answers.get('empty')).toBe(Math.ceil(CALLS / 3));
      expect(answers.get('events')).toBe(CALLS - Math.ceil(CALLS / 3));
      expect(withdrawn).toBe(Math.floor(CALLS / 3));

      const cancelled = gates.cancellableSignals.filter((signal) => !answered.includes(signal));
      expect(cancelled).toHaveLength(CALLS);
      for (const signal of cancelled) {
        expect(signal.aborted).toBe(true);
        expect((signal.reason as McpCallAbortedError).kind).toBe('cancelled');
      }
      expect(answered).toHaveLength(ANSWERED_CALLS);
      expect(answered.every((signal) => !signal.aborted)).toBe(true);
      const leftListeners = gates.cancellableSignals.reduce(
        (sum, signal) => sum + getEventListeners(signal, 'abort').length,
        0,
      );
      expect(leftListeners).toBe(0);

      // Every POST stream reached its client in full: none is kept.
      await until(() => store.size === 0, `the store empties (now ${store.size})`);
      expect(store.sessionCount).toBe(0);
      agent.destroy();
      await expectBackTo(before);

      for (const client of clients) expect(await client.delete()).toBe(204);
      expect(registry.size).toBe(0);
      expect(store.size).toBe(0);
      expect(store.sessionCount).toBe(0);
      agent.destroy();
      await expectBackTo(before);
    },
    CHURN_TIMEOUT_MS,
  );
});
