import { BufferBudget } from './buffer-budget.js';
import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import type { SharedState, McpState } from '../interfaces/mcp-shared-state.interface.js';
import { resolveMcpOptions } from '../mcp-options.defaults.js';
import type { Handshake } from '../protocol/initialize.js';
import { ClientSession } from './client-session.js';
import { InMemoryEventStore } from './in-memory-event-store.js';
import { PrincipalSessions } from './principal-sessions.js';
import { SessionStore } from './session.store.js';
import { SharedSessions } from './shared-sessions.js';

const handshake: Handshake = {
  protocolVersion: '2025-06-18',
  clientInfo: { name: 'client', version: '1.0.0' },
  clientCapabilities: {},
  result: { protocolVersion: '2025-06-18', capabilities: {}, serverInfo: { name: 'server', version: '1.0.0' } },
};

/** An HTTP request as an authentication guard leaves it (`request.user.sub`), or an anonymous one. */
const as = (sub?: string): unknown => (sub === undefined ? {} : { user: { sub } });

let store: SessionStore | undefined;

function makeStore(options: Partial<McpModuleOptions> = {}): SessionStore {
  const resolved = resolveMcpOptions({ name: 'server', version: '1.0.0', ...options });
  store = new SessionStore(resolved, new SharedSessions(resolved), new BufferBudget(resolved.limits.bufferedChars));
  return store;
}

/** Opens a session in one process (where `open` answers at once). */
function open(sessions: SessionStore, request: unknown): ClientSession | 'full' | 'principal-full' {
  const opened = sessions.open(handshake, request);
  if (opened instanceof Promise) throw new Error('expected an answer at once (no shared state)');
  return opened;
}

afterEach(() => {
  store?.onModuleDestroy();
  store = undefined;
  jest.restoreAllMocks();
});

describe('SessionStore: maxSessionsPerPrincipal (one process)', () => {
  it('refuses a principal its next session at its cap, and no one else', () => {
    const sessions = makeStore({ limits: { sessionsPerPrincipal: 2 } });
    const [first, second] = [open(sessions, as('alice')), open(sessions, as('alice'))];
    expect(first).toBeInstanceOf(ClientSession);
    expect(second).toBeInstanceOf(ClientSession);
    expect(open(sessions, as('alice'))).toBe('principal-full');
    // Another principal, and anonymous callers (bounded by maxSessions alone), are not affected.
    expect(open(sessions, as('bob'))).toBeInstanceOf(ClientSession);
    for (let index = 0; index < 3; index++) expect(open(sessions, as())).toBeInstanceOf(ClientSession);
    expect(sessions.size).toBe(6);
  });

  it('gives the place back when one of its sessions ends, whatever the reason', () => {
    const sessions = makeStore({ limits: { sessionsPerPrincipal: 2 } });
    const first = open(sessions, as('alice')) as ClientSession;
    const second = open(sessions, as('alice')) as ClientSession;
    expect(open(sessions, as('alice'))).toBe('principal-full');
    first.end('deleted');
    // Ending twice must not give two places back.
    first.end('deleted');
    expect(open(sessions, as('alice'))).toBeInstanceOf(ClientSession);
    expect(open(sessions, as('alice'))).toBe('principal-full');
    jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    second.end('overflow');
    expect(open(sessions, as('alice'))).toBeInstanceOf(ClientSession);
  });

  it("ends the principal's own idle sessions to make room, and nobody else's", () => {
    const sessions = makeStore({ limits: { sessionsPerPrincipal: 2 }, sessions: { idleTimeoutMs: 60_000 } });
    const stale = open(sessions, as('alice')) as ClientSession;
    const fresh = open(sessions, as('alice')) as ClientSession;
    const othersStale = open(sessions, as('bob')) as ClientSession;
    const anonymousStale = open(sessions, as()) as ClientSession;
    for (const session of [stale, othersStale, anonymousStale]) session.lastActivity = Date.now() - 60_001;
    const sweep = jest.spyOn(sessions, 'sweep');

    expect(open(sessions, as('alice'))).toBeInstanceOf(ClientSession);
    expect(stale.endedBecause).toBe('idle');
    expect(fresh.ended).toBe(false);
    // Only alice's sessions were looked at: no sweep of the whole process per initialize.
    expect(sweep).not.toHaveBeenCalled();
    expect(othersStale.ended).toBe(false);
    expect(anonymousStale.ended).toBe(false);
  });

  it('keeps a session with an open GET stream, however long idle', () => {
    const sessions = makeStore({ limits: { sessionsPerPrincipal: 1 }, sessions: { idleTimeoutMs: 1_000 } });
    const listening = open(sessions, as('alice')) as ClientSession;
    listening.lastActivity = Date.now() - 60_000;
    const subscription = listening.streams.attach().subscribe();
    expect(open(sessions, as('alice'))).toBe('principal-full');
    expect(listening.ended).toBe(false);
    subscription.unsubscribe();
  });

  it('answers principal-full before full: the principal can free a place itself', () => {
    const sessions = makeStore({ limits: { sessions: 2, sessionsPerPrincipal: 2 } });
    open(sessions, as('alice'));
    open(sessions, as('alice'));
    expect(open(sessions, as('alice'))).toBe('principal-full');
    expect(open(sessions, as('bob'))).toBe('full');
    expect(open(sessions, as())).toBe('full');
  });

  it('counts the owner sessionOwner names, and nothing with Infinity', () => {
    const byHeader = makeStore({
      limits: { sessionsPerPrincipal: 1 },
      auth: { principalOf: (request) => (request as { tenant?: string }).tenant },
    });
    expect(open(byHeader, { tenant: 't1', user: { sub: 'x' } })).toBeInstanceOf(ClientSession);
    expect(open(byHeader, { tenant: 't1', user: { sub: 'y' } })).toBe('principal-full');
    expect(open(byHeader, { user: { sub: 'x' } })).toBeInstanceOf(ClientSession);
    byHeader.onModuleDestroy();

    const unlimited = makeStore({ limits: { sessionsPerPrincipal: Number.POSITIVE_INFINITY, sessions: 500 } });
    for (let index = 0; index < 500; index++) expect(open(unlimited, as('alice'))).toBeInstanceOf(ClientSession);
    expect(open(unlimited, as('alice'))).toBe('full');
  });
});

describe('SessionStore: maxSessionsPerPrincipal (shared state)', () => {
  it('hands the principal and both limits to the shared state, and passes its refusal on', async () => {
    const createSession = jest.fn<SharedState['createSession']>(() => Promise.resolve('principal-full'));
    const state = { kind: 'mcp42.state', available: true, port: { createSession } } as unknown as McpState;
    const sessions = makeStore({
      limits: { sessions: 50, sessionsPerPrincipal: 3 },
      state: { shared: state, secret: 'a shared secret of at least 32 bytes, for the test' },
    });
    expect(await sessions.open(handshake, as('alice'))).toBe('principal-full');
    expect(createSession).toHaveBeenCalledWith(expect.objectContaining({ owner: 'alice' }), 1_800_000, 50, 3);
    createSession.mockResolvedValueOnce('full');
    expect(await sessions.open(handshake, as())).toBe('full');
    expect(createSession.mock.calls[1]![0]).not.toHaveProperty('owner', expect.anything());
    // Never started (no onModuleInit): nothing of it to shut down.
    store = undefined;
  });
});

describe('PrincipalSessions', () => {
  const session = (owner?: string): ClientSession =>
    new ClientSession({
      id: `s-${Math.random()}`,
      protocolVersion: '2025-06-18',
      clientInfo: { name: 'c', version: '1' },
      clientCapabilities: {},
      owner,
      outboxLimit: 10,
      logLevel: 'info',
      eventStore: new InMemoryEventStore({ maxEventsPerSession: 10, maxEventAgeMs: 60_000 }),
      now: Date.now(),
      onEnd: () => undefined,
      onStoreError: () => undefined,
      onUnserializable: () => undefined,
    });

  it('counts per principal, ignores anonymous sessions and forgets a principal with none left', () => {
    const principals = new PrincipalSessions();
    const [a1, a2, b1] = [session('a'), session('a'), session('b')];
    for (const each of [a1, a2, b1, session()]) principals.add(each);
    expect([principals.count('a'), principals.count('b'), principals.count('c')]).toEqual([2, 1, 0]);
    expect(principals.of('a')).toEqual([a1, a2]);
    principals.delete(a1);
    principals.delete(a1);
    expect(principals.count('a')).toBe(1);
    principals.delete(a2);
    principals.delete(b1);
    expect((principals as unknown as { byPrincipal: Map<string, unknown> }).byPrincipal.size).toBe(0);
  });
});
