import { jest } from '@jest/globals';
import { GuardClock } from './guard-clock.js';

const never = (): Promise<boolean> => new Promise<boolean>(() => undefined);

describe('GuardClock.within', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });

  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
  });

  it('gives the verdict of guards that answer in time, and tells nobody they were late', async () => {
    const clock = new GuardClock();
    const late = jest.fn();
    expect(await clock.within(Promise.resolve(true), 100, late)).toBe(true);
    expect(await clock.within(Promise.resolve(false), 100, late)).toBe(false);
    jest.advanceTimersByTime(200);
    expect(late).not.toHaveBeenCalled();
  });

  it('passes a guard that throws on as a rejection', async () => {
    const failure = new Error('guard broke');
    await expect(new GuardClock().within(Promise.reject(failure), 100, () => undefined)).rejects.toBe(failure);
  });

  it('denies, once, guards that have not answered by the deadline, and ignores their late verdict', async () => {
    const clock = new GuardClock();
    const late = jest.fn();
    let answer!: (verdict: boolean) => void;
    const verdict = clock.within(new Promise<boolean>((resolve) => (answer = resolve)), 100, late);
    jest.advanceTimersByTime(99);
    await Promise.resolve();
    expect(late).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    expect(await verdict).toBe(false);
    answer(true);
    await Promise.resolve();
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('keeps one timer for every pending deadline, and expires each at its own time, shorter ones first', async () => {
    const clock = new GuardClock();
    const order: string[] = [];
    void clock.within(never(), 10_000, () => order.push('10 s, first'));
    jest.advanceTimersByTime(1_000);
    void clock.within(never(), 10_000, () => order.push('10 s, second'));
    void clock.within(never(), 50, () => order.push('50 ms'));
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(50);
    expect(order).toEqual(['50 ms']);
    jest.advanceTimersByTime(8_950);
    expect(order).toEqual(['50 ms', '10 s, first']);
    jest.advanceTimersByTime(999);
    expect(order).toEqual(['50 ms', '10 s, first']);
    jest.advanceTimersByTime(1);
    expect(order).toEqual(['50 ms', '10 s, first', '10 s, second']);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('arms no timer per request: verdicts that settle leave the timer set for the first deadline alone', async () => {
    const clock = new GuardClock();
    for (let i = 0; i < 100; i++) await clock.within(Promise.resolve(true), 10_000, () => undefined);
    expect(jest.getTimerCount()).toBe(1);
    jest.advanceTimersByTime(10_000);
    // Nothing was pending: the timer fired once and is not armed again.
    expect(jest.getTimerCount()).toBe(0);
  });

  it('still denies, and expires the rest, when telling of a late guard throws', async () => {
    const clock = new GuardClock();
    const first = clock.within(never(), 100, () => {
      throw new Error('the logger broke');
    });
    const second = clock.within(never(), 100, () => undefined);
    jest.advanceTimersByTime(100);
    expect(await first).toBe(false);
    expect(await second).toBe(false);
  });
});

describe('GuardClock.deadline', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });

  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
  });

  it('passes once its time is up, and never once cancelled', async () => {
    const clock = new GuardClock();
    const passed = jest.fn();
    const cancelledOne = jest.fn();
    void clock.deadline(100).passed.then(passed);
    const cancelled = clock.deadline(100);
    void cancelled.passed.then(cancelledOne);
    cancelled.cancel();
    jest.advanceTimersByTime(99);
    await Promise.resolve();
    expect(passed).not.toHaveBeenCalled();
    jest.advanceTimersByTime(1);
    for (let turn = 0; turn < 3; turn++) await Promise.resolve();
    expect(passed).toHaveBeenCalledTimes(1);
    expect(cancelledOne).not.toHaveBeenCalled();
  });
});
