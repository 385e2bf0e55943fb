import { setImmediate as nextImmediate } from 'node:timers/promises';
import { FanoutSlices } from './fanout-slices.js';

const range = (count: number): number[] => Array.from({ length: count }, (_, index) => index);

describe('FanoutSlices', () => {
  it('sends a small broadcast at once, and says how many targets took it', () => {
    const slices = new FanoutSlices<number>();
    const got: number[] = [];
    expect(slices.fanOut(range(10), (n) => (got.push(n), n % 2 === 0), 5)).toBe(5);
    expect(got).toEqual(range(10));
  });

  it('sends a large one in slices that yield to the event loop, in order', async () => {
    const slices = new FanoutSlices<number>();
    const got: number[] = [];
    const slow = (n: number): boolean => {
      const until = performance.now() + 0.05;
      while (performance.now() < until);
      got.push(n);
      return true;
    };
    expect(slices.fanOut(range(2000), slow, 10)).toBe(2000);
    expect(got).toEqual([]);
    // Work queued after the broadcast gets its turn before the broadcast is done (2000 × 50 µs is 100 ms).
    let sentBeforeOtherWork = -1;
    setImmediate(() => (sentBeforeOtherWork = got.length));
    while (got.length < 2000) await nextImmediate();
    expect(got).toEqual(range(2000));
    expect(sentBeforeOtherWork).toBeGreaterThan(0);
    expect(sentBeforeOtherWork).toBeLessThan(2000);
  });

  it('keeps broadcasts in the order they were made, a small one behind a large one included', async () => {
    const slices = new FanoutSlices<number>();
    const got: string[] = [];
    slices.fanOut(range(1000), (n) => (got.push(`a${n}`), true), 1);
    slices.fanOut(range(2), (n) => (got.push(`b${n}`), true), 1);
    expect(got).toEqual([]);
    while (got.length < 1002) await nextImmediate();
    expect(got.slice(-3)).toEqual(['a999', 'b0', 'b1']);
  });

  it('past its bound, sends the oldest waiting at once until the new one fits (a tight loop is held back, not queued)', () => {
    const slices = new FanoutSlices<number>({ maxWaitingSends: 65_536, maxWaitingChars: 8 * 1024 * 1024 });
    let sent = 0;
    const send = (): boolean => (sent++, true);
    // 65 broadcasts to 1000 targets: 65,000 sends may wait (the bound is 65,536 here).
    for (let round = 0; round < 65; round++) slices.fanOut(range(1000), send, 10);
    expect(sent).toBe(0);
    slices.fanOut(range(1000), send, 10);
    // About as many as it adds (in chunks of 64), not everything that waits.
    expect(sent).toBeGreaterThanOrEqual(464);
    expect(sent).toBeLessThan(1000);
    // By size too (8 Mi characters): a few large messages do not wait behind one another without bound.
    slices.fanOut(range(1000), send, 5 * 1024 * 1024);
    const before = sent;
    slices.fanOut(range(1000), send, 5 * 1024 * 1024);
    // Characters are freed as whole broadcasts finish: everything up to the first large one went out.
    expect(sent).toBe(67_000);
    expect(sent - before).toBeGreaterThan(1000);
  });

  it('drops what waits when cleared', async () => {
    const slices = new FanoutSlices<number>();
    let sent = 0;
    slices.fanOut(range(1000), () => (sent++, true), 1);
    slices.clear();
    await nextImmediate();
    await nextImmediate();
    expect(sent).toBe(0);
  });
});
