/** Sessions a broadcast reaches before it checks the clock. */
const CHUNK = 64;
/** How long one slice of broadcasting may hold the event loop. */
const SLICE_MS = 2;
/** A broadcast to this many targets or fewer goes out at once, unless others wait before it. */
const AT_ONCE = 256;
/**
 * What may wait at most, in sends and in characters of messages: past it, the oldest waiting sends
 * go out at once until the new broadcast fits. A tool broadcasting faster than slices drain is
 * then held back by as many sends as it adds, as it would be without slices, instead of queueing
 * without bound.
 */
// A waiting send costs a reference in its broadcast's list of targets (the message is one string
// for all): a million is about 8 MB, enough that a tool broadcasting a few hundred messages to a
// thousand sessions at once never waits for its own sends.
const MAX_WAITING_SENDS = 1024 * 1024;
const MAX_WAITING_CHARS = 8 * 1024 * 1024;

/** What may wait (see {@link MAX_WAITING_SENDS}); smaller in tests. */
export interface FanoutBounds {
  readonly maxWaitingSends: number;
  readonly maxWaitingChars: number;
}

interface Broadcast<T> {
  readonly targets: readonly T[];
  readonly send: (target: T) => boolean;
  readonly chars: number;
  next: number;
}

/**
 * Sends broadcasts to many targets in slices of a couple of milliseconds that yield to the event
 * loop (`setImmediate`), so that a broadcast to ten thousand sessions does not hold every other
 * request for its whole length. Broadcasts go out in the order they were made, each to its targets
 * in order; a small one with nothing waiting before it goes out at once, as a plain loop would.
 */
export class FanoutSlices<T> {
  private readonly waiting: Broadcast<T>[] = [];
  private waitingSends = 0;
  private waitingChars = 0;
  private scheduled: NodeJS.Immediate | undefined;

  constructor(
    private readonly bounds: FanoutBounds = { maxWaitingSends: MAX_WAITING_SENDS, maxWaitingChars: MAX_WAITING_CHARS },
  ) {}

  /**
   * Sends `send(target)` to every target, now or in later slices.
   * @param chars the size of the message, which waits with the broadcast.
   * @returns how many targets it reached, when it went out at once; else how many it goes to.
   */
  fanOut(targets: readonly T[], send: (target: T) => boolean, chars: number): number {
    const fits = (): boolean =>
      this.waitingSends + targets.length <= this.bounds.maxWaitingSends &&
      this.waitingChars + chars <= this.bounds.maxWaitingChars;
    if (!fits()) this.sendWaiting(Infinity, fits);
    if (this.waiting.length === 0 && (targets.length <= AT_ONCE || !fits())) {
      let sent = 0;
      for (const target of targets) if (send(target)) sent++;
      return sent;
    }
    this.waiting.push({ targets, send, chars, next: 0 });
    this.waitingSends += targets.length;
    this.waitingChars += chars;
    this.scheduled ??= setImmediate(this.slice);
    return targets.length;
  }

  /** Drops what waits (the server is shutting down). */
  clear(): void {
    this.waiting.length = 0;
    this.waitingSends = 0;
    this.waitingChars = 0;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
  }

  private readonly slice = (): void => {
    this.scheduled = undefined;
    this.sendWaiting(performance.now() + SLICE_MS);
    if (this.waiting.length > 0) this.scheduled = setImmediate(this.slice);
  };

  /**
   * Sends what waits, in order, until `deadline` (a `performance.now()` time) has passed, or `enough`
   * says so (checked between chunks).
   */
  private sendWaiting(deadline: number, enough: () => boolean = () => false): void {
    while (this.waiting.length > 0 && !enough()) {
      const broadcast = this.waiting[0]!;
      const end = Math.min(broadcast.next + CHUNK, broadcast.targets.length);
      for (; broadcast.next < end; broadcast.next++) {
        this.waitingSends--;
        try {
          broadcast.send(broadcast.targets[broadcast.next]!);
        } catch {
          // One target's failure must not stop the others' broadcast (sending reports its own errors).
        }
      }
      if (broadcast.next >= broadcast.targets.length) {
        this.waiting.shift();
        this.waitingChars -= broadcast.chars;
      }
      if (performance.now() >= deadline) return;
    }
  }
}
