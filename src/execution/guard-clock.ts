import { Injectable } from '@nestjs/common';

/** How long one request (a listing, a call) waits for an item's guards before treating them as a denial. */
export const GUARD_DEADLINE_MS = 10_000;

/** One guard verdict waited for, and how it is answered once its deadline passes. */
interface Watch {
  readonly at: number;
  expire(): void;
}

/**
 * Bounds how long requests wait for guards, with one timer for the whole application rather than
 * one per request: arming and clearing a timer on every call cost a tool call a tenth of its time.
 * Deadlines of one length are kept in arrival order, so the earliest of each length is its first;
 * the timer is set for the earliest of all, and only ever moved earlier.
 */
@Injectable()
export class GuardClock {
  private readonly byLength = new Map<number, Set<Watch>>();
  private timer: NodeJS.Timeout | undefined;
  private timerAt = Infinity;

  /**
   * The guards' verdict, or `false` once `ms` passed first: a guard that never settles hides its
   * item rather than holding the request. `onLate` is told when that happens.
   */
  within(verdict: Promise<boolean>, ms: number, onLate: () => void): Promise<boolean> {
    return new Promise<boolean>((resolve, reject) => {
      let watches = this.byLength.get(ms);
      if (!watches) this.byLength.set(ms, (watches = new Set()));
      const pending = watches;
      let done = false;
      const watch: Watch = {
        at: performance.now() + ms,
        expire: () => {
          done = true;
          resolve(false);
          try {
            onLate();
          } catch {
            // Telling is best effort (a logger may throw): the verdict stands, and the clock goes on.
          }
        },
      };
      pending.add(watch);
      this.arm(watch.at);
      verdict.then(
        (admitted) => {
          if (done) return;
          done = true;
          pending.delete(watch);
          resolve(admitted);
        },
        (error: unknown) => {
          if (done) return;
          done = true;
          pending.delete(watch);
          reject(error);
        },
      );
    });
  }

  /**
   * A deadline `ms` from now, for what waits on many guards at once (a listing): it passes then,
   * unless cancelled first. Kept on the same clock, so a listing costs no timer either.
   */
  deadline(ms: number): { readonly passed: Promise<void>; cancel(): void } {
    let cancel!: () => void;
    const cancelled = new Promise<boolean>((resolve) => (cancel = () => resolve(true)));
    // Cancelled, it never passes: what raced it has settled already.
    const passed = this.within(cancelled, ms, () => undefined).then((wasCancelled) =>
      wasCancelled ? new Promise<void>(() => undefined) : undefined,
    );
    return { passed, cancel };
  }

  private arm(at: number): void {
    if (at >= this.timerAt) return;
    clearTimeout(this.timer);
    this.timerAt = at;
    this.timer = setTimeout(() => this.expireDue(), Math.max(0, at - performance.now()));
    this.timer.unref();
  }

  private expireDue(): void {
    this.timer = undefined;
    this.timerAt = Infinity;
    const now = performance.now();
    let next = Infinity;
    for (const [ms, watches] of this.byLength) {
      for (const watch of watches) {
        if (watch.at > now) {
          next = Math.min(next, watch.at);
          break;
        }
        watches.delete(watch);
        watch.expire();
      }
      if (watches.size === 0) this.byLength.delete(ms);
    }
    if (next !== Infinity) this.arm(next);
  }
}
