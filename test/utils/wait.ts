/**
 * Waiting in tests: for a while, for the event loop to turn, for a condition to hold, or for a
 * promise that must settle soon. Every wait that can fail names what it waited for.
 */

/** Resolves after `ms`. */
export const delay = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Resolves on the next turn of the event loop, after the I/O and callbacks already queued. */
export const nextTurn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

/** How often {@link until} and {@link untilFound} look again. */
const POLL_MS = 5;

/**
 * Polls `find` until it returns something other than `undefined`, and resolves with that; rejects
 * naming `what` once `timeoutMs` passed without.
 */
export async function untilFound<T>(
  find: () => T | undefined | Promise<T | undefined>,
  what: string,
  timeoutMs = 2000,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const found = await find();
    if (found !== undefined) return found;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for: ${what}`);
    await delay(POLL_MS);
  }
}

/** Polls `condition` until it holds; rejects naming `what` once `timeoutMs` passed without. */
export async function until(
  condition: () => boolean | Promise<boolean>,
  what: string,
  timeoutMs = 2000,
): Promise<void> {
  await untilFound(async () => ((await condition()) ? true : undefined), what, timeoutMs);
}

/**
 * `promise`, or a rejection naming `what` once `ms` passed: turns a hang into a clear failure
 * (not a timing check).
 */
export function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new Error(`${what} did not happen within ${ms} ms`)), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** What `promise` resolves to, or `'timeout'` once `ms` passed first (for waits that may run out). */
export function orTimeout<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/**
 * Waits on something that changes (a response receiving, a probe recording): each wait is checked
 * at once and again at every {@link changed}, and ends when its `find` returns something other
 * than `undefined`, when `find` throws, or with `failure()`'s message once `timeoutMs` passed.
 */
export class Changes {
  private readonly checks = new Set<() => void>();

  /** Checks every wait again: call it whenever what they look at changed. */
  changed(): void {
    for (const check of [...this.checks]) check();
  }

  when<T>(find: () => T | undefined, timeoutMs: number, failure: () => string): Promise<T> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        let found: T | undefined;
        try {
          found = find();
        } catch (error) {
          cleanup();
          reject(error as Error);
          return;
        }
        if (found === undefined) return;
        cleanup();
        resolve(found);
      };
      const timer = setTimeout(() => {
        cleanup();
        reject(new Error(failure()));
      }, timeoutMs);
      const cleanup = (): void => {
        clearTimeout(timer);
        this.checks.delete(check);
      };
      this.checks.add(check);
      check();
    });
  }
}
