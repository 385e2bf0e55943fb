import { jest } from '@jest/globals';
import type { Subscription } from 'rxjs';
import { notificationMessage } from '../protocol/json-rpc.codec.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.types.js';
import { McpSession, type McpSessionInit, type SessionEndReason } from './mcp-session.js';

const note = (n: number): JsonRpcMessage => notificationMessage('notifications/message', { n });

function makeSession(overrides: Partial<McpSessionInit> = {}): {
  session: McpSession;
  onEnd: jest.Mock<(session: McpSession, reason: SessionEndReason) => void>;
} {
  const onEnd = jest.fn<(session: McpSession, reason: SessionEndReason) => void>();
  const session = new McpSession({
    id: 'session-1',
    protocolVersion: '2025-06-18',
    clientInfo: { name: 'client', version: '0.0.1' },
    clientCapabilities: { sampling: {} },
    outboxLimit: 3,
    now: 1_000,
    onEnd,
    ...overrides,
  });
  return { session, onEnd };
}

/** Subscribes to the session's stream and records what it delivers. */
function listen(session: McpSession): { received: JsonRpcMessage[]; completed: () => boolean; sub: Subscription } {
  const received: JsonRpcMessage[] = [];
  let done = false;
  const sub = session.attachStream().subscribe({
    next: (message) => received.push(message),
    complete: () => {
      done = true;
    },
  });
  return { received, completed: () => done, sub };
}

describe('McpSession', () => {
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

    it('ends the session with reason "overflow" when the backlog passes outboxLimit, calling onEnd once', () => {
      const { session, onEnd } = makeSession({ outboxLimit: 3 });
      for (const n of [1, 2, 3]) session.send(note(n));
      expect(session.send(note(4))).toBe(false);
      expect(session.ended).toBe(true);
      expect(session.endedBecause).toBe('overflow');
      expect(onEnd).toHaveBeenCalledTimes(1);
      expect(onEnd).toHaveBeenCalledWith(session, 'overflow');
      expect(session.send(note(5))).toBe(false);
      expect(onEnd).toHaveBeenCalledTimes(1);
      // The dropped backlog is not delivered to a stream attached afterwards.
      const late = listen(session);
      expect(late.received).toEqual([]);
      expect(late.completed()).toBe(true);
    });

    it('counts what the attached stream reports as pending against the limit', () => {
      const { session, onEnd } = makeSession({ outboxLimit: 3 });
      listen(session);
      session.reportStreamPending(3);
      expect(session.ended).toBe(false);
      session.reportStreamPending(4);
      expect(session.ended).toBe(true);
      expect(session.endedBecause).toBe('overflow');
      expect(onEnd).toHaveBeenCalledTimes(1);
    });

    it('replaces, not adds up, the pending count on each report', () => {
      const { session } = makeSession({ outboxLimit: 3 });
      listen(session);
      session.reportStreamPending(2);
      session.reportStreamPending(3);
      session.reportStreamPending(1);
      session.reportStreamPending(3);
      expect(session.ended).toBe(false);
    });

    it('adds the stream pending count to the backlog', () => {
      const { session } = makeSession({ outboxLimit: 3 });
      const { sub } = listen(session);
      session.reportStreamPending(2);
      // The report is what the stream holds at the moment it detaches; detaching forgets it.
      sub.unsubscribe();
      for (const n of [1, 2, 3]) expect(session.send(note(n))).toBe(true);
      expect(session.ended).toBe(false);
      const again = makeSession({ outboxLimit: 3 }).session;
      again.send(note(1));
      again.send(note(2));
      again.reportStreamPending(2);
      expect(again.endedBecause).toBe('overflow');
    });
  });

  describe('calls in flight', () => {
    it('is busy while calls run and idle once they end', () => {
      const { session } = makeSession();
      session.beginCall(1);
      session.beginCall('two');
      expect(session.busy).toBe(true);
      session.endCall(1);
      expect(session.busy).toBe(true);
      session.endCall('two');
      expect(session.busy).toBe(false);
      session.endCall('never-started');
      expect(session.busy).toBe(false);
    });

    it('aborts the signals of running calls when the session ends, with the reason', () => {
      const { session } = makeSession();
      const running = session.beginCall(1);
      const finished = session.beginCall(2);
      session.endCall(2);
      session.end('deleted');
      expect(running.aborted).toBe(true);
      expect(String((running.reason as Error).message)).toContain('deleted');
      expect(finished.aborted).toBe(false);
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

describe('McpSession.isRunning', () => {
  it('is false for an id never begun', () => {
    const { session } = makeSession();
    expect(session.isRunning(1)).toBe(false);
    expect(session.isRunning('1')).toBe(false);
  });

  it('is true from beginCall to endCall, for that id only', () => {
    const { session } = makeSession();
    session.beginCall(1);
    expect(session.isRunning(1)).toBe(true);
    expect(session.isRunning('1')).toBe(false); // ids are compared exactly: 1 and "1" differ
    expect(session.isRunning(2)).toBe(false);
    session.beginCall('a');
    expect(session.isRunning('a')).toBe(true);
    session.endCall(1);
    expect(session.isRunning(1)).toBe(false);
    expect(session.isRunning('a')).toBe(true);
    session.endCall('a');
    expect(session.isRunning('a')).toBe(false);
  });

  it('lets an id be reused once its call ended', () => {
    const { session } = makeSession();
    const first = session.beginCall(7);
    session.endCall(7);
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
    expect(() => session.endCall(2)).not.toThrow();
    expect(session.isRunning(1)).toBe(true);
  });
});
