import { setImmediate as nextImmediate } from 'node:timers/promises';
import { FanoutSlices } from './fanout-slices.js';

const range = (count: number): number[] => Array.from({ length: count }, (_, index) => index);
const noReport = (): void => undefined;
const busy = (ms: number): void => {
  const until = performance.now() + ms;
  while (performance.now() < until);
};

/** Other work on the loop: 1 ms of it in each of `turns` turns; resolves with the turns made. */
const otherWork = (turns: number): Promise<number> =>
  new Promise((resolve) => {
    let made = 0;
    const other = (): void => {
      busy(1);
      if (++made < turns) setImmediate(other);
      else resolve(made);
    };
    setImmediate(other);
  });

describe('FanoutSlices', () => {
  it('sends a small broadcast at once, and says how many targets took it', () => {
    const slices = new FanoutSlices<number>(noReport);
    const got: number[] = [];
    expect(slices.fanOut(range(10), (n) => (got.push(n), n % 2 === 0), 5)).toBe(5);
    expect(got).toEqual(range(10));
  });

  it('sends a large one in slices that yield to the event loop, in order', async () => {
    const slices = new FanoutSlices<number>(noReport);
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
    const slices = new FanoutSlices<number>(noReport);
    const got: string[] = [];
    slices.fanOut(range(1000), (n) => (got.push(`a${n}`), true), 1);
    slices.fanOut(range(2), (n) => (got.push(`b${n}`), true), 1);
    expect(got).toEqual([]);
    while (got.length < 1002) await nextImmediate();
    expect(got.slice(-3)).toEqual(['a999', 'b0', 'b1']);
  });

  it('past its bound, refuses a new broadcast (what waits is not touched) and reports it once a second', () => {
    const refusals: number[] = [];
    const slices = new FanoutSlices<number>((count) => refusals.push(count), {
      maxWaitingSends: 65_536,
      maxWaitingChars: 8 * 1024 * 1024,
    });
    let sent = 0;
    const send = (): boolean => (sent++, true);
    // 65 broadcasts to 1000 targets: 65,000 sends may wait (the bound is 65,536 here).
    for (let round = 0; round < 65; round++) expect(slices.fanOut(range(1000), send, 10)).toBe(1000);
    expect(slices.fanOut(range(1000), send, 10)).toBe(0);
    expect(slices.fanOut(range(1000), send, 10)).toBe(0);
    // Asked before a broadcast is even made: refused (and counted) as cheaply as that.
    expect(slices.accepts(1000)).toBe(false);
    expect(slices.accepts(500)).toBe(true);
    // Nothing went out on the broadcaster's call: it is refused, not held up.
    expect(sent).toBe(0);
    expect(slices.pending).toBe(65_000);
    // The first refusal is reported at once, the next one with those that follow it within the second.
    expect(refusals).toEqual([1]);
    // By size too: a large message does not wait behind others past the characters' bound.
    const bySize = new FanoutSlices<number>(noReport, { maxWaitingSends: 65_536, maxWaitingChars: 1024 });
    expect(bySize.fanOut(range(1000), send, 1000)).toBe(1000);
    expect(bySize.fanOut(range(1000), send, 1000)).toBe(0);
    slices.clear();
    bySize.clear();
  });

  it('takes a small share of a loop that is busy with other work, and short slices of an idle one', async () => {
    const slices = new FanoutSlices<number>(noReport);
    let sent = 0;
    let sending = 0;
    const send = (): boolean => {
      const started = performance.now();
      busy(0.001);
      sending += performance.now() - started;
      sent++;
      return true;
    };
    slices.fanOut(range(1_000_000), send, 10);
    const turns = await otherWork(100);
    const perBusyTurn = sent / turns;
    // Slices of 2 ms (the most) would send about 2,000 per turn; a tenth of the others' 1 ms about 100.
    expect(perBusyTurn).toBeLessThan(500);
    expect(perBusyTurn).toBeGreaterThan(0);
    // Alone on the loop, it takes most of the loop's time, in slices short enough that a request
    // arriving meanwhile waits little: whole 2 ms slices would send about 2,000 per turn.
    sent = 0;
    sending = 0;
    const started = performance.now();
    for (let turn = 0; turn < 100; turn++) await nextImmediate();
    expect(sending / (performance.now() - started)).toBeGreaterThan(0.5);
    expect(sent / 100).toBeLessThan(500);
    slices.clear();
  });

  it("keeps its share when a send's cost comes after the slice (a socket's write, made on the next tick)", async () => {
    const slices = new FanoutSlices<number>(noReport);
    let sent = 0;
    // Each send's cost, 20 µs, falls on the next tick, as a corked socket's write does.
    const send = (): boolean => (process.nextTick(busy, 0.02), sent++, true);
    slices.fanOut(range(1_000_000), send, 10);
    const turns = await otherWork(100);
    // A tenth of the others' 1 ms is about 5 sends of 20 µs; a slice counting only its own clock
    // would make hundreds per turn (the sends themselves cost nothing) and hold the loop for milliseconds.
    expect(sent / turns).toBeLessThan(30);
    expect(sent).toBeGreaterThan(0);
    slices.clear();
  });

  it('takes one broadcast larger than its bounds when nothing waits, and flushes what waits on demand', () => {
    const slices = new FanoutSlices<number>(noReport, { maxWaitingSends: 100, maxWaitingChars: 100 });
    let sent = 0;
    expect(slices.fanOut(range(1000), () => (sent++, true), 1000)).toBe(1000);
    expect(slices.fits(1, 1)).toBe(false);
    slices.flush();
    expect(sent).toBe(1000);
    expect(slices.pending).toBe(0);
  });

  it('goes on to the other targets when one throws, on a broadcast sent at once', () => {
    const slices = new FanoutSlices<number>(noReport);
    const got: number[] = [];
    const send = (n: number): boolean => {
      if (n === 1) throw new Error('one target fails');
      got.push(n);
      return true;
    };
    expect(slices.fanOut(range(3), send, 1)).toBe(2);
    expect(got).toEqual([0, 2]);
  });

  it('drops what waits when cleared', async () => {
    const slices = new FanoutSlices<number>(noReport);
    let sent = 0;
    slices.fanOut(range(1000), () => (sent++, true), 1);
    slices.clear();
    await nextImmediate();
    await nextImmediate();
    expect(sent).toBe(0);
  });
});
