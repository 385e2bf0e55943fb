import type { CallAbortHandle } from '../interfaces/caller.interface.js';

/** Stands for "the signal aborted first" in a race with a handler. */
export const ABORTED = Symbol('aborted');

/**
 * The handler's value, or {@link ABORTED} as soon as the call aborts, whichever comes first.
 * A handler still running then is left to finish on its own; its late failure goes to `onLate`.
 */
export function untilAborted(
  run: () => Promise<unknown>,
  abort: Pick<CallAbortHandle, 'aborted' | 'onAbort'>,
  onLate: (error: unknown) => void,
): Promise<unknown> {
  const work = Promise.resolve().then(run);
  if (abort.aborted) {
    work.catch(onLate);
    return Promise.resolve(ABORTED);
  }
  return new Promise<unknown>((resolve, reject) => {
    const stopListening = abort.onAbort(() => {
      work.catch(onLate);
      resolve(ABORTED);
    });
    work.then(
      (value) => {
        stopListening();
        resolve(value);
      },
      (error: unknown) => {
        stopListening();
        reject(error);
      },
    );
  });
}
