import type { CallAbortHandle } from '../interfaces/caller.interface.js';

/** Stands for "the signal aborted first" in a race with a handler. */
export const ABORTED = Symbol('aborted');

const NOTHING_TO_STOP = (): void => undefined;

/**
 * The handler's value, or {@link ABORTED} as soon as the call aborts, whichever comes first.
 * `run` starts a microtask later, as a reaction would, so that a cancellation that follows the
 * request at once (in one batch) finds it not started. A handler still running when the call
 * aborts is left to finish on its own; its late failure goes to `onLate`. One promise of its own
 * and one reaction to the work: every call goes through here.
 */
export function untilAborted(
  run: () => Promise<unknown>,
  abort: Pick<CallAbortHandle, 'aborted' | 'onAbort'>,
  onLate: (error: unknown) => void,
): Promise<unknown> {
  return new Promise<unknown>((resolve, reject) => {
    let aborted = abort.aborted;
    const stopListening = aborted
      ? NOTHING_TO_STOP
      : abort.onAbort(() => {
          aborted = true;
          resolve(ABORTED);
        });
    if (aborted) resolve(ABORTED);
    queueMicrotask(() => {
      let work: Promise<unknown>;
      try {
        // A native promise is taken as it is (no promise made); anything else is wrapped.
        work = Promise.resolve(run());
      } catch (error) {
        work = Promise.reject(error as Error);
      }
      work.then(
        (value) => {
          stopListening();
          resolve(value);
        },
        (error: unknown) => {
          stopListening();
          if (aborted) onLate(error);
          else reject(error);
        },
      );
    });
  });
}
