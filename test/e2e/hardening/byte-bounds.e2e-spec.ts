import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { Injectable } from '@nestjs/common';
import { McpModule, McpTool, type McpContext, type McpModuleOptions } from '../../../src/index.js';
import { BufferBudget, SessionStore, type ClientSession } from '../../internals/index.js';
import { ConnectionTracker, McpHttpSession, StalledRequest } from '../../utils/sse-events.js';
import { useRedisApp } from '../../utils/redis-app.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { nextTurn, until } from '../../utils/wait.js';

/**
 * Bounds in bytes, not counts: a tool that logs 1 MB messages to a client that stopped reading
 * can hold no more than the session's `limits.outboxChars`, and all sessions together no more than
 * the application's `limits.bufferedChars`, whatever the message count limits allow. Measured on the
 * heap itself (after forced collections), on both platforms, in memory and with Redis.
 */

setFlagsFromString('--expose-gc');
const gc = runInNewContext('gc') as () => void;

const MESSAGE_CHARS = 1024 * 1024;
/** 100 MB of distinct messages: what an unbounded outbox would keep. */
const MESSAGES = 100;
const BUDGET_CHARS = 16 * 1024 * 1024;
/** What the heap may grow by beyond the budget: one message in flight, and the runtime's own noise. */
const SLACK_BYTES = 12 * 1024 * 1024;

/** Only the budget binds: the per-session bounds are set far above it. */
const BUDGET_ONLY: Pick<McpModuleOptions, 'limits' | 'resumability'> = {
  limits: { outboxMessages: 100_000, outboxChars: 2 ** 30, bufferedChars: BUDGET_CHARS },
  resumability: { maxEvents: 100_000, maxEventChars: 2 ** 30 },
};

function heapUsed(): number {
  gc();
  gc();
  return process.memoryUsage().heapUsed;
}

/** A distinct 1 MB message each time: nothing a sender could share between them. */
const bigMessage = (n: number): string => `${n}:`.padEnd(MESSAGE_CHARS, String.fromCharCode(97 + (n % 26)));

interface Flood {
  readonly sent: number;
  readonly mostHeld: number;
  readonly mostBudget: number;
  readonly heapGrowth: number;
}

/** Logs MESSAGES distinct 1 MB messages to `session` while its client reads nothing. */
async function flood(
  session: ClientSession,
  budget: BufferBudget,
  settle: (heapBefore: number) => Promise<unknown> = async () => undefined,
  messages = MESSAGES,
): Promise<Flood> {
  const before = heapUsed();
  let sent = 0;
  let mostHeld = 0;
  let mostBudget = 0;
  for (let n = 0; n < messages && !session.ended; n++) {
    if (session.log('info', bigMessage(n))) sent++;
    mostHeld = Math.max(mostHeld, session.streams.undeliveredChars);
    mostBudget = Math.max(mostBudget, budget.used);
    await nextTurn();
  }
  await settle(before);
  return { sent, mostHeld, mostBudget, heapGrowth: heapUsed() - before };
}

describe('Byte bounds on what stalled readers cost (e2e)', () => {
  const tracker = new ConnectionTracker();
  const stalled: StalledRequest[] = [];

  afterEach(() => {
    for (const request of stalled.splice(0)) request.close();
    tracker.closeAll();
  });

  async function stallGet(mcpUrl: string, client: McpHttpSession, readRecords = 0): Promise<StalledRequest> {
    const request = await StalledRequest.open(
      mcpUrl,
      'GET',
      client.headers({ accept: 'text/event-stream' }),
      '',
      readRecords,
    );
    stalled.push(request);
    expect(request.status).toBe(200);
    return request;
  }

  describe('in memory', () => {
    let running: RunningApp | undefined;

    afterEach(async () => {
      await running?.close();
      running = undefined;
    });

    async function start(options: Pick<McpModuleOptions, 'limits' | 'resumability'>): Promise<RunningApp> {
      running = await startApp({
        imports: [
          McpModule.forRoot({ name: 'byte-bounds-e2e', version: '1.0.0', http: { keepAliveMs: 0 }, ...options }),
        ],
      });
      return running;
    }

    it('ends a stalled session once it holds more than limits.outboxChars, however few messages that is', async () => {
      const app = await start({ limits: { outboxChars: 4 * MESSAGE_CHARS }, resumability: { maxEventChars: 2 ** 30 } });
      const sessions = app.app.get(SessionStore);
      const victim = await McpHttpSession.open(app.mcpUrl, '2025-11-25', tracker);
      await stallGet(app.mcpUrl, victim);
      const session = sessions.get(victim.id)!;
      await until(() => session.hasStream, 'the stream is attached');

      const outcome = await flood(session, app.app.get(BufferBudget));

      expect(session.endedBecause).toBe('overflow');
      // The socket takes a few megabytes before anything is held back; the outbox never more than its limit.
      expect(outcome.sent).toBeLessThan(MESSAGES);
      expect(outcome.mostHeld).toBeGreaterThan(0);
      expect(outcome.mostHeld).toBeLessThanOrEqual(4 * MESSAGE_CHARS);
      expect(outcome.heapGrowth).toBeLessThan(4 * MESSAGE_CHARS + SLACK_BYTES);
    });

    it('keeps all sessions together within limits.bufferedChars: the largest holder is cut, may resume, and others are served', async () => {
      const app = await start(BUDGET_ONLY);
      const sessions = app.app.get(SessionStore);
      const budget = app.app.get(BufferBudget);
      expect(budget.limit).toBe(BUDGET_CHARS);
      const victim = await McpHttpSession.open(app.mcpUrl, '2025-11-25', tracker);
      const bystander = await McpHttpSession.open(app.mcpUrl, '2025-11-25', tracker);
      // The priming event gives the client a position to resume from.
      const stalledGet = await stallGet(app.mcpUrl, victim, 1);
      const primingId = stalledGet.recordsBeforeStall[0]?.id;
      expect(primingId).toBeDefined();
      const session = sessions.get(victim.id)!;
      await until(() => session.hasStream, 'the stream is attached');

      const outcome = await flood(session, budget);

      // Its stalled connection was cut, then what waited for another was dropped: the session goes on.
      expect(session.ended).toBe(false);
      expect(session.hasStream).toBe(false);
      expect(outcome.sent).toBe(MESSAGES);
      expect(outcome.mostBudget).toBeLessThanOrEqual(BUDGET_CHARS);
      expect(outcome.heapGrowth).toBeLessThan(BUDGET_CHARS + SLACK_BYTES);
      expect(budget.used).toBeLessThanOrEqual(BUDGET_CHARS);

      // Resuming after the priming event replays what the store kept, in order, from the first message.
      const resumed = await victim.get(primingId);
      expect(resumed.status).toBe(200);
      await until(() => resumed.messages().length > 0, 'replayed events');
      const replayed = resumed
        .messages()
        .map((message) => Number(String((message.params as { data: string }).data).split(':')[0]));
      expect(replayed[0]).toBe(0);
      expect(replayed).toEqual([...replayed].sort((x, y) => x - y));

      const get = await bystander.get();
      expect(get.status).toBe(200);
      expect(sessions.get(bystander.id)!.log('info', 'still served')).toBe(true);
      await get.waitFor((c) => c.messages().some((m) => (m.params as { data?: unknown }).data === 'still served'));
    });

    it('counts a broadcast once per session it reaches', async () => {
      const app = await start(BUDGET_ONLY);
      const sessions = app.app.get(SessionStore);
      const budget = app.app.get(BufferBudget);
      const clients = await Promise.all([1, 2, 3].map(() => McpHttpSession.open(app.mcpUrl, '2025-11-25', tracker)));
      const message = bigMessage(7);
      expect(sessions.logAll('info', message)).toBe(3);
      // No GET stream: each session queues it for one; the budget counts each session's copy, once.
      const queued = budget.heldBy(clients[0]!.id);
      expect(queued).toBeGreaterThan(MESSAGE_CHARS);
      expect(queued).toBeLessThan(MESSAGE_CHARS + 200);
      for (const client of clients) expect(budget.heldBy(client.id)).toBe(queued);
      expect(budget.used).toBe(3 * queued);
      expect(budget.used).toBeLessThanOrEqual(BUDGET_CHARS);
    });
  });

  describe('2026-07-28 response streams', () => {
    let running: RunningApp | undefined;
    const floods: { done?: Promise<number>; finish?: (sent: number) => void } = {};

    /** Logs MESSAGES distinct 1 MB messages on its own response stream; resolves `floods.done` with how many went. */
    @Injectable()
    class FloodTool {
      @McpTool({ description: 'Logs 1 MB messages to its caller' })
      async flood(_args: unknown, ctx: McpContext): Promise<string> {
        let sent = 0;
        for (let n = 0; n < MESSAGES; n++) {
          if (ctx.log('info', bigMessage(n))) sent++;
          await nextTurn();
        }
        floods.finish?.(sent);
        return String(sent);
      }
    }

    afterEach(async () => {
      await running?.close();
      running = undefined;
    });

    async function stalledCall(options: Pick<McpModuleOptions, 'limits' | 'resumability'>): Promise<number> {
      running = await startApp({
        imports: [McpModule.forRoot({ name: 'modern-bounds', version: '1.0.0', http: { keepAliveMs: 0 }, ...options })],
        providers: [FloodTool],
      });
      floods.done = new Promise((resolve) => (floods.finish = resolve));
      const before = heapUsed();
      const body = JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: {
          name: 'flood',
          arguments: {},
          _meta: {
            'io.modelcontextprotocol/protocolVersion': '2026-07-28',
            'io.modelcontextprotocol/clientInfo': { name: 'stalled', version: '1.0.0' },
            'io.modelcontextprotocol/clientCapabilities': {},
          },
        },
      });
      const request = await StalledRequest.open(
        running.mcpUrl,
        'POST',
        {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-protocol-version': '2026-07-28',
          'mcp-method': 'tools/call',
          'mcp-name': 'flood',
        },
        body,
      );
      stalled.push(request);
      expect(request.status).toBe(200);
      const sent = await floods.done;
      expect(sent).toBeLessThan(MESSAGES);
      return heapUsed() - before;
    }

    it('cuts a stalled call stream past limits.outboxChars: the heap grows by that, not by 100 MB', async () => {
      const growth = await stalledCall({ limits: { outboxChars: 4 * MESSAGE_CHARS } });
      expect(growth).toBeLessThan(4 * MESSAGE_CHARS + SLACK_BYTES);
    });

    it('keeps a stalled call stream within the application budget when the stream bounds are far above it', async () => {
      const growth = await stalledCall(BUDGET_ONLY);
      expect(growth).toBeLessThan(BUDGET_CHARS + SLACK_BYTES);
    });
  });

  describe('one budget per application', () => {
    const apps: RunningApp[] = [];

    afterEach(async () => {
      for (const app of apps.splice(0)) await app.close();
    });

    it("gives an application's servers one budget (the smallest limit), and another application its own", async () => {
      const first = await startApp({
        imports: [
          McpModule.forRoot({ name: 'budget-a', version: '1.0.0', http: { keepAliveMs: 0 }, ...BUDGET_ONLY }),
          McpModule.forRoot({
            name: 'budget-b',
            version: '1.0.0',
            path: 'mcp-b',
            items: {},
            http: { keepAliveMs: 0 },
            limits: { ...BUDGET_ONLY.limits, bufferedChars: BUDGET_CHARS / 2 },
          }),
        ],
      });
      apps.push(first);
      const second = await startApp({
        imports: [McpModule.forRoot({ name: 'budget-c', version: '1.0.0', ...BUDGET_ONLY })],
      });
      apps.push(second);

      const budgets = first.app.get(BufferBudget, { strict: false, each: true });
      expect(budgets).toHaveLength(2);
      expect(budgets[1]).toBe(budgets[0]);
      const budget = budgets[0]!;
      expect(budget.limit).toBe(BUDGET_CHARS / 2);
      expect(second.app.get(BufferBudget, { strict: false })).not.toBe(budget);

      // What a session of either server holds counts in the one sum, and the largest holder of
      // either pays: a stalled reader of one server is relieved for the other's.
      const stores = first.app.get(SessionStore, { strict: false, each: true });
      const onA = await McpHttpSession.open(first.mcpUrl, '2025-11-25', tracker);
      const onB = await McpHttpSession.open(first.mcpUrl.replace(/\/mcp$/, '/mcp-b'), '2025-11-25', tracker);
      const sessionOf = (id: string): ClientSession => stores.map((store) => store.get(id)).find(Boolean)!;
      const a = sessionOf(onA.id);
      const b = sessionOf(onB.id);
      expect(a).not.toBe(b);
      for (let n = 0; n < 5; n++) expect(a.log('info', bigMessage(n))).toBe(true);
      expect(b.log('info', bigMessage(99))).toBe(true);
      expect(budget.heldBy(onA.id)).toBeGreaterThan(5 * MESSAGE_CHARS);
      expect(budget.heldBy(onB.id)).toBeGreaterThan(MESSAGE_CHARS);
      expect(budget.used).toBe(budget.heldBy(onA.id) + budget.heldBy(onB.id));
      const otherApp = second.app.get(BufferBudget, { strict: false });
      expect(otherApp.used).toBe(0);

      // Past the application's limit, server a's session (the largest) gives up what it holds, not b's.
      for (let n = 5; n < 12; n++) a.log('info', bigMessage(n));
      expect(budget.used).toBeLessThanOrEqual(BUDGET_CHARS / 2);
      expect(budget.heldBy(onB.id)).toBeGreaterThan(MESSAGE_CHARS);
      expect(b.ended).toBe(false);
    });
  });

  describe('with Redis-shared state', () => {
    const shared = useRedisApp({ prefix: 'byte-bounds:', module: BUDGET_ONLY });

    it('cuts the stalled connection that holds more than the budget, and the heap stays within it while writes to Redis are in flight', async () => {
      const { app } = shared;
      const sessions = app.app.get(SessionStore);
      const budget = app.app.get(BufferBudget);
      const victim = await McpHttpSession.open(app.mcpUrl, '2025-11-25', tracker);
      await stallGet(app.mcpUrl, victim);
      await until(() => sessions.get(victim.id)?.hasStream === true, 'the stream is attached');
      const session = sessions.get(victim.id)!;

      // Stored events on their way to Redis are held until Redis has them: they are reserved in the
      // budget meanwhile, so the heap stays within it while the writes are still in flight.
      const outcome = await flood(
        session,
        budget,
        async () => undefined,
        // Fewer than in memory (Redis takes each one), still three times what the budget allows.
        48,
      );

      expect(outcome.mostBudget).toBeLessThanOrEqual(BUDGET_CHARS);
      expect(outcome.heapGrowth).toBeLessThan(BUDGET_CHARS + SLACK_BYTES);
      await until(() => !session.hasStream, 'the stalled connection is cut');
      expect(budget.heldBy(victim.id)).toBe(0);
      await until(() => budget.reservedChars === 0, 'the writes to Redis are answered', 30_000);
    }, 60_000);
  });
});
