import { BufferBudget } from './buffer-budget.js';
import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { McpModuleOptions } from '../interfaces/mcp-module-options.interface.js';
import { resolveMcpOptions } from '../mcp-options.defaults.js';
import type { Handshake } from '../protocol/initialize.js';
import { notificationMessage } from '../protocol/json-rpc.codec.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.types.js';
import type { McpEventStore, McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';
import type { ClientSession } from './client-session.js';
import { SessionStore } from './session.store.js';
import { SharedSessions } from './shared-sessions.js';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;

const handshake: Handshake = {
  protocolVersion: '2025-03-26',
  clientInfo: { name: 'client', version: '1.2.3' },
  clientCapabilities: { roots: { listChanged: true } },
  result: {
    protocolVersion: '2025-03-26',
    capabilities: { tools: { listChanged: true } },
    serverInfo: { name: 'server', version: '1.0.0' },
  },
};

function makeRegistry(options: Partial<McpModuleOptions> = {}): SessionStore {
  const resolved = resolveMcpOptions({ name: 'server', version: '1.0.0', ...options });
  return new SessionStore(resolved, new SharedSessions(resolved), new BufferBudget(resolved.limits.bufferedChars));
}

describe('SessionStore', () => {
  let registry: SessionStore;

  afterEach(() => {
    registry?.onModuleDestroy();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('creates sessions from a handshake and finds them by id', () => {
    registry = makeRegistry();
    expect(registry.size).toBe(0);
    const before = Date.now();
    const session = registry.create(handshake);
    expect(session.protocolVersion).toBe('2025-03-26');
    expect(session.clientInfo).toEqual({ name: 'client', version: '1.2.3' });
    expect(session.clientCapabilities).toEqual({ roots: { listChanged: true } });
    expect(session.lastActivity).toBeGreaterThanOrEqual(before);
    expect(session.lastActivity).toBeLessThanOrEqual(Date.now());
    expect(registry.size).toBe(1);
    expect(registry.get(session.id)).toBe(session);
    expect(registry.get('unknown')).toBeUndefined();
    expect(registry.all()).toEqual([session]);
  });

  it('gives every session a distinct random UUID', () => {
    registry = makeRegistry();
    const ids = Array.from({ length: 200 }, () => registry.create(handshake).id);
    for (const id of ids) expect(id).toMatch(UUID);
    expect(new Set(ids).size).toBe(200);
  });

  it('forgets a session once it ends', () => {
    registry = makeRegistry();
    const session = registry.create(handshake);
    const other = registry.create(handshake);
    session.end('deleted');
    expect(registry.get(session.id)).toBeUndefined();
    expect(registry.get(other.id)).toBe(other);
    expect(registry.size).toBe(1);
  });

  it('gives each session the configured outbox limit, and logs an overflow', () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    registry = makeRegistry({ limits: { outboxMessages: 2 } });
    const session = registry.create(handshake);
    // The GET backlog keeps the newest two; it does not end the session.
    for (const method of ['a', 'b', 'c']) session.send(notificationMessage(method));
    expect(session.ended).toBe(false);
    expect(session.undeliveredMessages).toBe(2);
    const report = session.streams.pendingCounter();
    report(2, 0);
    expect(session.ended).toBe(false);
    report(3, 0);
    expect(session.endedBecause).toBe('overflow');
    expect(registry.get(session.id)).toBeUndefined();
    expect(warn).toHaveBeenCalledTimes(1);
    expect(String(warn.mock.calls[0]![0])).toContain(session.id);
  });

  describe('room and idle sweep', () => {
    it('has room below maxSessions and none at it while every session is fresh', () => {
      registry = makeRegistry({ limits: { sessions: 2 } });
      expect(registry.hasRoom()).toBe(true);
      registry.create(handshake);
      expect(registry.hasRoom()).toBe(true);
      registry.create(handshake);
      expect(registry.hasRoom()).toBe(false);
      expect(registry.size).toBe(2);
    });

    it('makes room by ending sessions idle past the timeout', () => {
      registry = makeRegistry({ limits: { sessions: 2 }, sessions: { idleTimeoutMs: 60_000 } });
      const stale = registry.create(handshake);
      const fresh = registry.create(handshake);
      stale.lastActivity = Date.now() - 60_001;
      expect(registry.hasRoom()).toBe(true);
      expect(stale.endedBecause).toBe('idle');
      expect(fresh.ended).toBe(false);
      expect(registry.size).toBe(1);
    });

    it('sweeps only sessions idle for at least the timeout and returns how many ended', () => {
      registry = makeRegistry({ sessions: { idleTimeoutMs: 1_000 } });
      const now = 10_000_000;
      const old = registry.create(handshake);
      const exact = registry.create(handshake);
      const recent = registry.create(handshake);
      old.lastActivity = now - 5_000;
      exact.lastActivity = now - 1_000;
      recent.lastActivity = now - 999;
      expect(registry.sweep(now)).toBe(2);
      expect(old.endedBecause).toBe('idle');
      expect(exact.endedBecause).toBe('idle');
      expect(recent.ended).toBe(false);
      expect(registry.all()).toEqual([recent]);
    });

    it('does not sweep a session with an open stream; a running call alone does not keep one alive', () => {
      registry = makeRegistry({ sessions: { idleTimeoutMs: 1_000 } });
      const now = 10_000_000;
      const streaming = registry.create(handshake);
      const busy = registry.create(handshake);
      const idle = registry.create(handshake);
      for (const session of [streaming, busy, idle]) session.lastActivity = now - 60_000;
      const subscription = streaming.streams.attach().subscribe();
      const call = busy.beginCall(7);
      expect(registry.sweep(now)).toBe(2);
      expect(idle.endedBecause).toBe('idle');
      // A hung call must not pin its session forever: it is aborted with it.
      expect(busy.endedBecause).toBe('idle');
      expect(call.signal.aborted).toBe(true);
      expect(streaming.ended).toBe(false);

      subscription.unsubscribe();
      expect(registry.sweep(now)).toBe(1);
      expect(registry.size).toBe(0);
    });

    it('restarts the idle clock when a call ends', () => {
      registry = makeRegistry({ sessions: { idleTimeoutMs: 1_000 } });
      const session = registry.create(handshake);
      session.lastActivity = Date.now() - 60_000;
      session.endCall(1, session.beginCall(1));
      expect(registry.sweep()).toBe(0);
      expect(session.ended).toBe(false);
    });

    it('still refuses when the sessions at the limit are streaming', () => {
      registry = makeRegistry({ limits: { sessions: 2 }, sessions: { idleTimeoutMs: 1_000 } });
      const a = registry.create(handshake);
      const b = registry.create(handshake);
      a.lastActivity = b.lastActivity = Date.now() - 60_000;
      a.streams.attach().subscribe();
      b.streams.attach().subscribe();
      expect(registry.hasRoom()).toBe(false);
      expect(registry.size).toBe(2);
    });

    it('makes room by ending a session whose only activity is a call that never returns', () => {
      registry = makeRegistry({ limits: { sessions: 1 }, sessions: { idleTimeoutMs: 1_000 } });
      const hung = registry.create(handshake);
      hung.beginCall(1);
      hung.lastActivity = Date.now() - 60_000;
      expect(registry.hasRoom()).toBe(true);
      expect(hung.endedBecause).toBe('idle');
    });
  });

  describe('lifecycle', () => {
    it('sweeps on an unref’d timer every quarter of the idle timeout, capped at one minute', () => {
      jest.useFakeTimers();
      registry = makeRegistry({ sessions: { idleTimeoutMs: 30 * 60_000 } });
      const sweep = jest.spyOn(registry, 'sweep');
      registry.onApplicationBootstrap();
      jest.advanceTimersByTime(59_999);
      expect(sweep).not.toHaveBeenCalled();
      jest.advanceTimersByTime(1);
      expect(sweep).toHaveBeenCalledTimes(1);
      jest.advanceTimersByTime(60_000);
      expect(sweep).toHaveBeenCalledTimes(2);
    });

    it('sweeps at least every second for short timeouts, and ends idle sessions from the timer', () => {
      jest.useFakeTimers();
      registry = makeRegistry({ sessions: { idleTimeoutMs: 2_000 } });
      registry.onApplicationBootstrap();
      const session = registry.create(handshake);
      jest.advanceTimersByTime(1_000);
      expect(session.ended).toBe(false);
      jest.advanceTimersByTime(1_000); // 2 s idle: due
      expect(session.endedBecause).toBe('idle');
      expect(registry.size).toBe(0);
    });

    it('does not keep the process alive with its timer', () => {
      const setIntervalSpy = jest.spyOn(globalThis, 'setInterval');
      registry = makeRegistry();
      registry.onApplicationBootstrap();
      expect(setIntervalSpy).toHaveBeenCalledTimes(1);
      const timer = setIntervalSpy.mock.results[0]!.value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
    });

    it('on module destroy, clears the timer and ends every session with reason "shutdown"', () => {
      jest.useFakeTimers();
      registry = makeRegistry({ sessions: { idleTimeoutMs: 4_000 } });
      registry.onApplicationBootstrap();
      const sessions = [registry.create(handshake), registry.create(handshake)];
      const streamDone = jest.fn();
      sessions[0]!.streams.attach().subscribe({ complete: streamDone });
      const call = sessions[1]!.beginCall('call');
      const sweep = jest.spyOn(registry, 'sweep');

      registry.onModuleDestroy();
      expect(sessions.map((session) => session.endedBecause)).toEqual(['shutdown', 'shutdown']);
      expect(streamDone).toHaveBeenCalledTimes(1);
      expect(call.signal.aborted).toBe(true);
      expect(registry.size).toBe(0);
      expect(jest.getTimerCount()).toBe(0);
      jest.advanceTimersByTime(10_000);
      expect(sweep).not.toHaveBeenCalled();
    });
  });

  describe('options handed to sessions', () => {
    it('starts each session at the default log level', () => {
      registry = makeRegistry({ sessions: { defaultLogLevel: 'error' } });
      const session = registry.create(handshake);
      expect(session.logLevel).toBe('error');
      expect(session.wantsLog('warning')).toBe(false);
      expect(makeRegistry().create(handshake).logLevel).toBe('info');
    });

    it('keeps events in the configured store, and logs its failures', () => {
      const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      const appended: Array<[string, McpStoredEvent]> = [];
      const store: McpEventStore = {
        append: (sessionId, event) => {
          appended.push([sessionId, event]);
          if (event.seq === 2) throw new Error('store is full');
        },
        replay: () => [],
        deleteStream: () => undefined,
        deleteSession: () => undefined,
      };
      registry = makeRegistry({ resumability: { eventStore: store } });
      const session = registry.create(handshake);
      session.streams.attach().subscribe();
      session.send(notificationMessage('a'));
      expect(appended).toEqual([[session.id, { streamId: 'g', seq: 1, data: '{"jsonrpc":"2.0","method":"a"}' }]]);
      expect(error).not.toHaveBeenCalled();
      session.send(notificationMessage('b'));
      expect(error).toHaveBeenCalledTimes(1);
      expect(String(error.mock.calls[0]![0])).toBe('The MCP event store failed');
      expect(String(error.mock.calls[0]![1])).toContain('store is full');
      expect(session.ended).toBe(false);
    });

    it('logs a message that cannot be serialised, naming the session', () => {
      const error = jest.spyOn(Logger.prototype, 'error').mockImplementation(() => undefined);
      registry = makeRegistry();
      const session = registry.create(handshake);
      expect(session.notify('x', { n: 1n as unknown as number })).toBe(false);
      expect(error).toHaveBeenCalledTimes(1);
      expect(String(error.mock.calls[0]![0])).toContain(session.id);
    });
  });

  describe('notifyAll and logAll', () => {
    /** Attaches a GET stream and collects the messages it delivers. */
    function connected(session: ClientSession): JsonRpcMessage[] {
      const received: JsonRpcMessage[] = [];
      session.streams.attach().subscribe((event) => received.push(JSON.parse(event.data) as JsonRpcMessage));
      return received;
    }

    it('notifies every live session, queueing for those without a stream', () => {
      registry = makeRegistry();
      const a = registry.create(handshake);
      const b = registry.create(handshake);
      const onA = connected(a);
      expect(registry.notifyAll('notifications/custom', { x: 1 })).toBe(2);
      expect(onA).toEqual([{ jsonrpc: '2.0', method: 'notifications/custom', params: { x: 1 } }]);
      expect(b.undeliveredMessages).toBe(1);
    });

    it('notifies only sessions with an open stream when connectedOnly', () => {
      registry = makeRegistry();
      const a = registry.create(handshake);
      const b = registry.create(handshake);
      const onA = connected(a);
      expect(registry.notifyAll('notifications/tools/list_changed', undefined, { connectedOnly: true })).toBe(1);
      expect(onA).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
      expect(b.undeliveredMessages).toBe(0);
    });

    it('skips ended sessions and counts only those it reached', () => {
      registry = makeRegistry({ limits: { outboxMessages: 1 } });
      const first = registry.create(handshake);
      const second = registry.create(handshake);
      // Ends `second` while the notification goes round: it was not reached.
      first.streams.attach().subscribe(() => second.end('deleted'));
      expect(registry.notifyAll('notifications/custom')).toBe(1);
      expect(second.ended).toBe(true);
      // A full backlog drops its oldest message: the session is still reached.
      first.send(notificationMessage('more'));
      expect(registry.notifyAll('notifications/custom')).toBe(1);
    });

    it('logs to the sessions whose level lets the message through', () => {
      registry = makeRegistry();
      const chatty = registry.create(handshake);
      const quiet = registry.create(handshake);
      chatty.logLevel = 'debug';
      quiet.logLevel = 'error';
      const onChatty = connected(chatty);
      const onQuiet = connected(quiet);
      expect(registry.logAll('info', { cache: 'warm' }, 'cache')).toBe(1);
      expect(registry.logAll('critical', 'down')).toBe(2);
      expect(onChatty).toEqual([
        {
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: 'info', logger: 'cache', data: { cache: 'warm' } },
        },
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'critical', data: 'down' } },
      ]);
      expect(onQuiet).toEqual([
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'critical', data: 'down' } },
      ]);
    });
  });
});
