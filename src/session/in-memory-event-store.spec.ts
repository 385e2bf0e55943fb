import { jest } from '@jest/globals';
import type { McpStoredEvent } from '../interfaces/mcp-event-store.interface.js';
import { InMemoryEventStore } from './in-memory-event-store.js';

const event = (streamId: string, seq: number, data = `{"n":${seq}}`): McpStoredEvent => ({ streamId, seq, data });

/** A store on a clock the test moves. */
function storeWith(
  maxEventsPerSession: number,
  maxEventAgeMs: number,
): { store: InMemoryEventStore; clock: { t: number } } {
  const clock = { t: 1_000_000 };
  return { store: new InMemoryEventStore({ maxEventsPerSession, maxEventAgeMs, now: () => clock.t }), clock };
}

describe('InMemoryEventStore', () => {
  it('starts empty and replays nothing for an unknown session', () => {
    const { store } = storeWith(10, 60_000);
    expect(store.size).toBe(0);
    expect(store.sessionCount).toBe(0);
    expect(store.replay('nobody', 'g', 0)).toEqual([]);
    expect(store.sessionCount).toBe(0);
  });

  it('replays the events of one stream after a position, in seq order, as plain events', () => {
    const { store } = storeWith(10, 60_000);
    store.append('s', event('g', 1));
    store.append('s', event('p1', 2));
    store.append('s', event('g', 3));
    store.append('s', event('p1', 4));
    store.append('s', event('g', 5));
    expect(store.replay('s', 'g', 0)).toStrictEqual([event('g', 1), event('g', 3), event('g', 5)]);
    expect(store.replay('s', 'g', 1)).toStrictEqual([event('g', 3), event('g', 5)]);
    expect(store.replay('s', 'g', 3)).toStrictEqual([event('g', 5)]);
    expect(store.replay('s', 'g', 5)).toStrictEqual([]);
    expect(store.replay('s', 'p1', 2)).toStrictEqual([event('p1', 4)]);
    expect(store.replay('s', 'p2', 0)).toStrictEqual([]);
  });

  it('keeps at most maxCharsPerSession characters of data per session, dropping the oldest events', () => {
    const store = new InMemoryEventStore({ maxEventsPerSession: 100, maxEventAgeMs: 60_000, maxCharsPerSession: 10 });
    store.append('s', event('g', 1, 'aaaa'));
    store.append('s', event('p1', 2, 'bbbb'));
    store.append('other', event('g', 1, 'cccccccc'));
    expect(store.replay('s', 'g', 0)).toStrictEqual([event('g', 1, 'aaaa')]);
    // 4 + 4 + 4 > 10: the oldest goes, whatever its stream.
    store.append('s', event('g', 3, 'dddd'));
    expect(store.replay('s', 'g', 0)).toStrictEqual([event('g', 3, 'dddd')]);
    expect(store.replay('s', 'p1', 0)).toStrictEqual([event('p1', 2, 'bbbb')]);
    // Exactly at the bound is kept.
    store.append('s', event('g', 4, 'ee'));
    expect(store.replay('s', 'p1', 0)).toStrictEqual([event('p1', 2, 'bbbb')]);
    // One event larger than the bound pushes out everything older, but is itself kept: it may be a
    // result nothing else holds.
    store.append('s', event('g', 5, 'x'.repeat(11)));
    expect(store.replay('s', 'g', 0)).toStrictEqual([event('g', 5, 'x'.repeat(11))]);
    expect(store.replay('s', 'p1', 0)).toStrictEqual([]);
    // Other sessions have their own bound.
    expect(store.replay('other', 'g', 0)).toStrictEqual([event('g', 1, 'cccccccc')]);
  });

  it('counts characters again after deleteStream: the space of a deleted stream is free', () => {
    const store = new InMemoryEventStore({ maxEventsPerSession: 100, maxEventAgeMs: 60_000, maxCharsPerSession: 10 });
    store.append('s', event('g', 1, 'aaaa'));
    store.append('s', event('p1', 2, 'bbbbbb'));
    store.deleteStream('s', 'p1');
    store.append('s', event('g', 3, 'cccccc'));
    expect(store.replay('s', 'g', 0)).toStrictEqual([event('g', 1, 'aaaa'), event('g', 3, 'cccccc')]);
    store.deleteSession('s');
    store.append('s', event('g', 4, 'x'.repeat(10)));
    expect(store.replay('s', 'g', 0)).toStrictEqual([event('g', 4, 'x'.repeat(10))]);
  });

  it('keeps sessions apart: a replay never crosses into another session', () => {
    const { store } = storeWith(10, 60_000);
    store.append('a', event('g', 1, 'from a'));
    store.append('b', event('g', 1, 'from b'));
    store.append('b', event('g', 2, 'from b'));
    expect(store.replay('a', 'g', 0)).toStrictEqual([event('g', 1, 'from a')]);
    expect(store.replay('b', 'g', 0).map((e) => e.data)).toEqual(['from b', 'from b']);
    expect(store.size).toBe(3);
    expect(store.sessionCount).toBe(2);
  });

  it('copies what it is given: changing the appended object later does not change what it replays', () => {
    const { store } = storeWith(10, 60_000);
    const appended = { streamId: 'g', seq: 1, data: 'original' };
    store.append('s', appended);
    appended.data = 'changed';
    expect(store.replay('s', 'g', 0)).toStrictEqual([event('g', 1, 'original')]);
  });

  it('keeps at most maxEventsPerSession per session, dropping the oldest, whatever their stream', () => {
    const { store } = storeWith(3, 60_000);
    store.append('s', event('g', 1));
    store.append('s', event('p1', 2));
    store.append('s', event('g', 3));
    store.append('other', event('g', 1));
    expect(store.size).toBe(4);
    store.append('s', event('p1', 4));
    expect(store.size).toBe(4);
    expect(store.replay('s', 'g', 0)).toStrictEqual([event('g', 3)]);
    expect(store.replay('s', 'p1', 0)).toStrictEqual([event('p1', 2), event('p1', 4)]);
    store.append('s', event('g', 5));
    store.append('s', event('g', 6));
    expect(store.replay('s', 'p1', 0)).toStrictEqual([event('p1', 4)]);
    expect(store.replay('s', 'g', 0)).toStrictEqual([event('g', 5), event('g', 6)]);
    // The other session's one event was never counted against this one.
    expect(store.replay('other', 'g', 0)).toStrictEqual([event('g', 1)]);
    expect(store.size).toBe(4);
  });

  it('drops events older than maxEventAgeMs when replaying', () => {
    const { store, clock } = storeWith(100, 1_000);
    store.append('s', event('g', 1));
    clock.t += 600;
    store.append('s', event('g', 2));
    clock.t += 400; // event 1 is exactly 1000 ms old: still kept
    expect(store.replay('s', 'g', 0).map((e) => e.seq)).toEqual([1, 2]);
    clock.t += 1; // now 1001 ms old
    expect(store.replay('s', 'g', 0).map((e) => e.seq)).toEqual([2]);
    expect(store.size).toBe(1);
    clock.t += 600;
    expect(store.replay('s', 'g', 0)).toEqual([]);
    expect(store.size).toBe(0);
  });

  it('drops old events when new ones arrive, without a replay', () => {
    const { store, clock } = storeWith(100, 1_000);
    store.append('s', event('g', 1));
    store.append('s', event('g', 2));
    clock.t += 5_000;
    store.append('s', event('g', 3));
    expect(store.size).toBe(1);
    expect(store.replay('s', 'g', 0).map((e) => e.seq)).toEqual([3]);
  });

  it('applies both bounds together', () => {
    const { store, clock } = storeWith(2, 1_000);
    store.append('s', event('g', 1));
    clock.t += 900;
    store.append('s', event('g', 2));
    store.append('s', event('g', 3)); // count drops 1
    expect(store.replay('s', 'g', 0).map((e) => e.seq)).toEqual([2, 3]);
    clock.t += 1_001; // age drops 2 and 3
    expect(store.replay('s', 'g', 0)).toEqual([]);
  });

  it('deleteStream forgets one stream of one session only', () => {
    const { store } = storeWith(10, 60_000);
    store.append('s', event('g', 1));
    store.append('s', event('p1', 2));
    store.append('s', event('p2', 3));
    store.append('s', event('p1', 4));
    store.append('t', event('p1', 1));
    store.deleteStream('s', 'p1');
    expect(store.replay('s', 'p1', 0)).toEqual([]);
    expect(store.replay('s', 'g', 0)).toStrictEqual([event('g', 1)]);
    expect(store.replay('s', 'p2', 0)).toStrictEqual([event('p2', 3)]);
    expect(store.replay('t', 'p1', 0)).toStrictEqual([event('p1', 1)]);
    expect(store.size).toBe(3);
  });

  it('deleteStream of a session’s last stream forgets the session; unknown ones are no-ops', () => {
    const { store } = storeWith(10, 60_000);
    store.append('s', event('p1', 1));
    store.deleteStream('s', 'p9');
    store.deleteStream('nobody', 'p1');
    expect(store.sessionCount).toBe(1);
    store.deleteStream('s', 'p1');
    expect(store.sessionCount).toBe(0);
    expect(store.size).toBe(0);
  });

  it('a stream deleted keeps counting right: new events after it are kept', () => {
    const { store } = storeWith(2, 60_000);
    store.append('s', event('p1', 1));
    store.append('s', event('g', 2));
    store.deleteStream('s', 'p1');
    store.append('s', event('g', 3));
    expect(store.replay('s', 'g', 0).map((e) => e.seq)).toEqual([2, 3]);
  });

  it('deleteSession forgets every stream of that session only', () => {
    const { store } = storeWith(10, 60_000);
    store.append('s', event('g', 1));
    store.append('s', event('p1', 2));
    store.append('t', event('g', 1));
    store.deleteSession('s');
    expect(store.replay('s', 'g', 0)).toEqual([]);
    expect(store.replay('s', 'p1', 0)).toEqual([]);
    expect(store.replay('t', 'g', 0)).toStrictEqual([event('g', 1)]);
    expect(store.size).toBe(1);
    expect(store.sessionCount).toBe(1);
    expect(() => store.deleteSession('s')).not.toThrow();
  });

  it('uses Date.now when no clock is given', () => {
    jest.useFakeTimers({ now: 5_000_000 });
    try {
      const store = new InMemoryEventStore({ maxEventsPerSession: 10, maxEventAgeMs: 60_000 });
      store.append('s', event('g', 1));
      jest.setSystemTime(5_060_000);
      expect(store.replay('s', 'g', 0)).toStrictEqual([event('g', 1)]);
      jest.setSystemTime(5_060_001);
      expect(store.replay('s', 'g', 0)).toEqual([]);
    } finally {
      jest.useRealTimers();
    }
  });
});

describe('InMemoryEventStore meters', () => {
  it('tells every meter what each session gains and loses, until it stops', () => {
    const store = new InMemoryEventStore({ maxEventsPerSession: 2, maxEventAgeMs: 60_000 });
    const first: [string, number][] = [];
    const second: [string, number][] = [];
    const stopFirst = store.meter((id, chars) => first.push([id, chars]));
    store.meter((id, chars) => second.push([id, chars]));
    store.append('s1', { streamId: 'g', seq: 1, data: 'abc' });
    store.append('s1', { streamId: 'g', seq: 2, data: 'de' });
    // A third event drops the first: the session gains 1 and loses 3.
    store.append('s1', { streamId: 'g', seq: 3, data: 'f' });
    stopFirst();
    store.deleteSession('s1');
    expect(first).toEqual([
      ['s1', 3],
      ['s1', 2],
      ['s1', -2],
    ]);
    expect(second).toEqual([...first, ['s1', -3]]);
  });
});
