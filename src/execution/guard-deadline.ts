import type { Logger } from '@nestjs/common';

/** How long one request (a listing, a call) waits for an item's guards before treating them as a denial. */
export const GUARD_DEADLINE_MS = 10_000;

/** A promise that settles after a delay, and the way to drop its timer once it is not needed. */
export interface Deadline {
  readonly passed: Promise<void>;
  cancel(): void;
}

/**
 * A deadline of {@link GUARD_DEADLINE_MS}, or `shorterMs` when that is shorter (an item's own
 * `timeoutMs`). One per listing, not one per item: a timer is not free.
 */
export function guardDeadline(shorterMs?: number): Deadline {
  let timer: NodeJS.Timeout | undefined;
  const passed = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, Math.min(GUARD_DEADLINE_MS, shorterMs ?? GUARD_DEADLINE_MS));
    timer.unref();
  });
  return { passed, cancel: () => clearTimeout(timer) };
}

/**
 * The guards' verdict, or `false` once `deadline` passes first: a guard that never settles hides
 * its item rather than holding the request. The late guard is named in the log.
 */
export async function verdictWithin(
  verdict: Promise<boolean>,
  deadline: Promise<void>,
  logger: Logger,
  late: string,
): Promise<boolean> {
  let answered = false;
  const settled = verdict.finally(() => (answered = true));
  const timedOut = deadline.then(() => {
    if (!answered) logger.error(late);
    return false;
  });
  return Promise.race([settled, timedOut]);
}
