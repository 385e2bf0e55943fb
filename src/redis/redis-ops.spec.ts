import { jest } from '@jest/globals';
import { Redis } from 'ioredis';
import { RedisServer } from '../../test/utils/redis-server.js';
import { thrown } from '../../test/utils/thrown.js';
import { delay, until } from '../../test/utils/wait.js';
import { McpStateUnavailableError } from '../errors/mcp-state-unavailable.error.js';
import type { SharedState, McpState } from '../interfaces/mcp-shared-state.interface.js';
import type { RedisStateOptions } from './redis-state-options.js';
import { redisState } from './redis-state.js';

const OPERATION_MS = 300;
/** What a refusal "at once" may take, at most. */
const AT_ONCE_MS = 50;
/** What a Redis that went away may take to be noticed, or to be noticed back. */
const NOTICE_MS = 3_000;

/** What a started state reported. */
interface Started {
  readonly state: McpState;
  readonly shared: SharedState;
  readonly availability: [boolean, unknown][];
  readonly messages: object[];
}

const clients: Redis[] = [];
const states: SharedState[] = [];
const servers: RedisServer[] = [];
const unhandled = jest.fn();

async function startState(server: RedisServer, options: Partial<RedisStateOptions> = {}): Promise<Started> {
  // A quick fixed retry: the duplicates take the user's retryStrategy.
  const client = new Redis(server.url, { lazyConnect: true, retryStrategy: () => 50 });
  clients.push(client);
  const state = redisState({
    client,
    keyPrefix: 'ops:',
    operationTimeoutMs: OPERATION_MS,
    connectTimeoutMs: 2_000,
    ...options,
  });
  const started: Started = { state, shared: state.port, availability: [], messages: [] };
  await state.port.start({
    onMessage: (message) => started.messages.push(message),
    onStandalone: () => undefined,
    onAvailability: (up, cause) => started.availability.push([up, cause]),
  });
  states.push(state.port);
  return started;
}

async function startServer(): Promise<RedisServer> {
  const server = await RedisServer.start();
  servers.push(server);
  return server;
}

/** How long `promise` took to reject, and with what. */
async function rejection(promise: Promise<unknown>): Promise<{ error: unknown; ms: number }> {
  const started = Date.now();
  const error = await thrown(promise);
  return { error, ms: Date.now() - started };
}

const record = (id: string) => ({
  id,
  protocolVersion: '2025-06-18',
  clientInfo: '{}',
  clientCapabilities: '{}',
  logLevel: 'info',
});

beforeAll(() => {
  process.on('unhandledRejection', unhandled);
});

afterAll(async () => {
  await Promise.all(states.map((each) => each.stop()));
  for (const client of clients) client.disconnect();
  await Promise.all(servers.map((server) => server.stop()));
  process.off('unhandledRejection', unhandled);
  // Jest fails a test on an unhandled rejection of its own; this catches one between tests too.
  expect(unhandled).not.toHaveBeenCalled();
});

describe('RedisSharedState when Redis goes away', () => {
  it('refuses at once while Redis is down, reports it once, and recovers by itself when it is back', async () => {
    const server = await startServer();
    const { state, shared, availability, messages } = await startState(server);
    expect(await shared.createSession(record('before'), 60_000, 10, Infinity)).toBe('created');

    await server.stop();
    await until(() => availability.length > 0, 'the outage reported', NOTICE_MS);
    expect(state.available).toBe(false);
    const { error, ms } = await rejection(shared.loadSession('before'));
    expect(error).toBeInstanceOf(McpStateUnavailableError);
    expect(ms).toBeLessThan(AT_ONCE_MS);
    const results = await Promise.allSettled([
      shared.countSessions(),
      shared.broadcast({ kind: 'session-ended', sessionId: 'x' }),
      shared.touch(new Map()),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected', 'rejected']);

    await server.restart();
    await until(() => availability.length > 1, 'the recovery reported', NOTICE_MS);
    expect(availability).toHaveLength(2);
    expect(availability[0]![0]).toBe(false);
    expect(availability[0]![1]).toBeInstanceOf(Error);
    expect(availability[1]).toEqual([true, undefined]);
    expect(state.available).toBe(true);

    // The same state works again: Redis came back empty, and the subscriptions are back.
    expect(await shared.loadSession('before')).toBeUndefined();
    expect(await shared.createSession(record('after'), 60_000, 10, Infinity)).toBe('created');
    await shared.broadcast({ kind: 'session-ended', sessionId: 'back' });
    await until(
      () => messages.some((message) => (message as { sessionId?: string }).sessionId === 'back'),
      'a broadcast after the outage',
    );
    await until(async () => (await server.value('EXISTS', `ops:r:${shared.replicaId}`)) === 1, 'the lease renewed');
  });

  it('times out on a frozen Redis, then opens the breaker until Redis answers again', async () => {
    const server = await startServer();
    const { state, shared, availability } = await startState(server, { maxPendingOperations: 3 });
    // Whatever the start left in flight (a lease renewal) is answered before the freeze.
    await shared.countSessions();
    await delay(50);
    server.pause();
    try {
      const first = rejection(shared.countSessions());
      const second = rejection(shared.loadSession('x'));
      const third = rejection(shared.remaining(['x']));
      // Past maxPendingOperations, refused at once rather than queued.
      const { error: full, ms: fullMs } = await rejection(shared.countSessions());
      expect(full).toBeInstanceOf(McpStateUnavailableError);
      expect((full as Error).message).toMatch(/maxPendingOperations/);
      expect(fullMs).toBeLessThan(AT_ONCE_MS);

      for (const { error, ms } of await Promise.all([first, second, third])) {
        expect(error).toBeInstanceOf(McpStateUnavailableError);
        expect(((error as Error).cause as Error).message).toBe('Command timed out');
        expect(ms).toBeGreaterThanOrEqual(OPERATION_MS - 20);
        expect(ms).toBeLessThan(OPERATION_MS + 500);
      }
      // Three timeouts in a row: the breaker is open, reported once, and refuses at once.
      expect(state.available).toBe(false);
      expect(availability).toHaveLength(1);
      expect(availability[0]![0]).toBe(false);
      expect((availability[0]![1] as Error).message).toBe('Command timed out');
      const { error: open, ms: openMs } = await rejection(shared.countSessions());
      expect((open as Error).message).toMatch(/too slowly/);
      expect(openMs).toBeLessThan(AT_ONCE_MS);
    } finally {
      server.resume();
    }
    await until(() => availability.length === 2, 'the breaker closed by its probe', NOTICE_MS);
    expect(availability[1]).toEqual([true, undefined]);
    expect(await shared.countSessions()).toBe(0);
  });

  it('starts without Redis after connectTimeoutMs, and becomes available when Redis comes', async () => {
    const server = await startServer();
    await server.stop();
    const started = Date.now();
    const { state, shared, availability, messages } = await startState(server, { connectTimeoutMs: 300 });
    expect(Date.now() - started).toBeGreaterThanOrEqual(290);
    expect(state.available).toBe(false);
    expect(availability).toHaveLength(1);
    expect(availability[0]![0]).toBe(false);
    expect(await thrown(shared.countSessions())).toBeInstanceOf(McpStateUnavailableError);

    await server.restart();
    await until(() => availability.length === 2, 'the first connection reported', NOTICE_MS);
    expect(availability[1]).toEqual([true, undefined]);
    expect(await shared.createSession(record('late'), 60_000, 10, Infinity)).toBe('created');
    await until(async () => (await server.value('EXISTS', `ops:r:${shared.replicaId}`)) === 1, 'the lease set');
    const { shared: other } = await startState(server);
    await other.send(shared.replicaId, { kind: 'session-ended', sessionId: 'inbox' });
    await until(
      () => messages.some((message) => (message as { sessionId?: string }).sessionId === 'inbox'),
      'a message in the late inbox',
    );
    expect(await other.alive([shared.replicaId])).toEqual(new Set([shared.replicaId]));
  });
});
