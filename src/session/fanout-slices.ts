import { RateLimitedReport } from './rate-limited-report.js';

/** Sends a slice makes at most between looks at the clock (a send to a socket costs a few microseconds). */
const CHUNK = 16;
/** The longest one slice of broadcasting may hold the event loop. */
const MAX_SLICE_MS = 2;
/** The shortest slice: at least one send goes out, however busy the loop. */
const MIN_SLICE_MS = 0.05;
/**
 * A slice may last this share of the work the loop did for others since the previous one: a tenth,
 * so that broadcasts take at most about an eleventh of a busy loop. (A quarter, a fifth of the loop,
 * left the soak's normal client 0.52× its rate and 1.95× its p99 during broadcasts; a tenth 0.54×
 * and 1.77×: what else the broadcasts cost, their sockets' kernel work and garbage, weighs as much.)
 * A loop with nothing else to do gives broadcasts whole slices.
 */
const SHARE_OF_OTHERS = 0.1;
/** Less than this between slices means nothing else wanted the loop. */
const IDLE_GAP_MS = 0.05;
/**
 * The slice an otherwise idle loop gives broadcasts. Short, because a request that arrives during a
 * slice waits for its end: with whole 2 ms slices back to back, a client making one call after
 * another waited a millisecond on average for each, and the soak's normal client lost half its rate
 * (with the sockets' writes counted in the slices; a tenth of a millisecond measured no better than a
 * quarter). Back-to-back short slices still use the idle loop nearly whole (a turn of the loop
 * between two costs a few microseconds).
 */
const IDLE_SLICE_MS = 0.25;
/** A broadcast to this many targets or fewer goes out at once, unless others wait before it. */
const AT_ONCE = 256;
/**
 * What may wait at most, in sends and in characters of messages: past it, a new broadcast is
 * refused (nothing already promised is dropped). A tool broadcasting faster than the slices drain
 * is told so rather than given memory or the event loop: it gets 0 from its broadcast.
 */
// A waiting send costs a reference in its broadcast's list of targets (the message is one string
// for all): a million is about 8 MB, enough that a tool broadcasting a few hundred messages to a
// thousand sessions at once is never refused.
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
 * Sends broadcasts to many targets in slices that yield to the event loop (`setImmediate`), so that
 * a broadcast to ten thousand sessions does not hold every other request for its whole length.
 * While other work waits, a slice lasts a tenth of the time that work took (at most 2 ms), so
 * broadcasts get about an eleventh of a busy loop however fast a tool makes them; an otherwise idle
 * loop gives them all its time, in slices of a quarter millisecond so that a request arriving
 * meanwhile waits little. Broadcasts go out in the order they were made, each to its targets
 * in order; a small one with nothing waiting before it goes out at once, as a plain loop would,
 * unless small ones took a slice's length in this turn of the loop already.
 */
export class FanoutSlices<T> {
  private readonly waiting: Broadcast<T>[] = [];
  private waitingSends = 0;
  private waitingChars = 0;
  private scheduled: NodeJS.Immediate | undefined;
  /** When the previous slice's work ended (its sockets' writes included), for the next slice's share. */
  private sliceEnded = 0;
  /** When the current slice started, and how many sends it made: its cost per send is known once its writes are done. */
  private sliceStarted = 0;
  private sliceSends = 0;
  /**
   * What one send has cost lately, its socket's write included (milliseconds; 0 before the first
   * slice ended). A write made in a slice is done by Node on the next tick, after the slice looked at
   * the clock: sizing the next slice by this, not by the clock alone, keeps those writes in its length.
   */
  private costPerSend = 0;
  /** Time small broadcasts sent at once took in this turn of the loop. */
  private spentThisTurn = 0;
  private turnEnds: NodeJS.Immediate | undefined;
  private readonly refusals: RateLimitedReport;

  /**
   * @param onRefused told, at most once a second, how many broadcasts were refused since it was last
   *   told (what waits had reached its bound).
   */
  constructor(
    onRefused: (broadcasts: number) => void,
    private readonly bounds: FanoutBounds = { maxWaitingSends: MAX_WAITING_SENDS, maxWaitingChars: MAX_WAITING_CHARS },
  ) {
    this.refusals = new RateLimitedReport(onRefused);
  }

  /**
   * Sends `send(target)` to every target, now or in later slices.
   * @param chars the size of the message, which waits with the broadcast.
   * @returns how many targets it reached, when it went out at once; else how many it goes to; 0 when
   *   it was refused (too much waits already).
   */
  fanOut(targets: readonly T[], send: (target: T) => boolean, chars: number): number {
    // Many small broadcasts in one turn (a tool in a loop, a burst from the shared state) queue too,
    // once those sent at once took a slice's length.
    if (this.waiting.length === 0 && targets.length <= AT_ONCE && this.spentThisTurn < MAX_SLICE_MS) {
      const started = performance.now();
      let sent = 0;
      for (const target of targets) {
        try {
          if (send(target)) sent++;
        } catch {
          // One target's failure must not stop the others' broadcast (sending reports its own errors).
        }
      }
      this.spentThisTurn += performance.now() - started;
      this.turnEnds ??= setImmediate(this.nextTurn);
      return sent;
    }
    // Bounded while others wait: one broadcast larger than the bounds alone still goes, in slices.
    if (this.waiting.length > 0 && !this.fits(targets.length, chars)) {
      this.refusals.refuse();
      return 0;
    }
    this.waiting.push({ targets, send, chars, next: 0 });
    this.waitingSends += targets.length;
    this.waitingChars += chars;
    if (!this.scheduled) {
      this.sliceEnded = performance.now();
      this.scheduled = setImmediate(this.slice);
    }
    return targets.length;
  }

  /**
   * Whether a broadcast to at most `targets` targets would be taken now, else it is counted as
   * refused: asked before a broadcast is serialised and its targets gathered, so that a tool
   * broadcasting in a loop while the slices are full costs the loop nothing more than this check.
   */
  accepts(targets: number): boolean {
    if (this.waiting.length === 0 || this.fits(targets, 0)) return true;
    this.refusals.refuse();
    return false;
  }

  /** Whether a broadcast to `targets` of `chars` characters fits beside what waits (nothing is counted). */
  fits(targets: number, chars: number): boolean {
    return (
      this.waitingSends + targets <= this.bounds.maxWaitingSends &&
      this.waitingChars + chars <= this.bounds.maxWaitingChars &&
      this.waitingChars < this.bounds.maxWaitingChars
    );
  }

  /** Sends everything that waits, now (the server is shutting down: what waits is owed still). */
  flush(): void {
    this.sendWaiting(Infinity);
    this.clear();
  }

  /** Sends that wait for a slice. */
  get pending(): number {
    return this.waitingSends;
  }

  /** Drops what waits (the server is shutting down). */
  clear(): void {
    this.waiting.length = 0;
    this.waitingSends = 0;
    this.waitingChars = 0;
    if (this.scheduled) clearImmediate(this.scheduled);
    this.scheduled = undefined;
    if (this.turnEnds) clearImmediate(this.turnEnds);
    this.turnEnds = undefined;
    this.spentThisTurn = 0;
  }

  private readonly nextTurn = (): void => {
    this.turnEnds = undefined;
    this.spentThisTurn = 0;
  };

  private readonly slice = (): void => {
    this.scheduled = undefined;
    const started = performance.now();
    // With a slice pending the loop never blocks for I/O: the time since the last slice ended is
    // what the loop did for others meanwhile.
    const others = started - this.sliceEnded;
    const length =
      others < IDLE_GAP_MS ? IDLE_SLICE_MS : Math.min(MAX_SLICE_MS, Math.max(MIN_SLICE_MS, others * SHARE_OF_OTHERS));
    const sends = this.costPerSend > 0 ? Math.max(1, Math.floor(length / this.costPerSend)) : CHUNK;
    this.sliceStarted = started;
    this.sliceSends = this.sendWaiting(started + length, sends);
    // Writes to sockets made in the slice go out on the next tick (Node corks them until then): they
    // are the slice's cost, not the others', so its end is taken after them.
    process.nextTick(this.ended);
  };

  private readonly ended = (): void => {
    const now = performance.now();
    this.sliceEnded = now;
    if (this.sliceSends > 0) {
      const perSend = (now - this.sliceStarted) / this.sliceSends;
      // Smoothed: one slice that met a garbage collection does not starve the next ones.
      this.costPerSend = this.costPerSend === 0 ? perSend : 0.7 * this.costPerSend + 0.3 * perSend;
    }
    if (this.waiting.length > 0) this.scheduled ??= setImmediate(this.slice);
  };

  /**
   * Sends what waits, in order, until `deadline` (a `performance.now()` time) has passed or `most`
   * sends were made.
   * @returns how many sends were made.
   */
  private sendWaiting(deadline: number, most = Infinity): number {
    let made = 0;
    while (this.waiting.length > 0 && made < most) {
      const broadcast = this.waiting[0]!;
      const end = Math.min(broadcast.next + Math.min(CHUNK, most - made), broadcast.targets.length);
      made += end - broadcast.next;
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
      if (performance.now() >= deadline) break;
    }
    return made;
  }
}
