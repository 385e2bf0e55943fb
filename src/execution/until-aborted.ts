/** Stands for "the signal aborted first" in a race with a handler. */
export const ABORTED = Symbol('aborted');

/**
 * The handler's value, or {@link ABORTED} as soon as the signal aborts, whichever comes first.
 * A handler still running then is left to finish on its own; its late failure goes to `onLate`.
 */
export function untilAborted(
  run: () => Promise<unknown>,
  signal: AbortSignal,
  onLate: (error: unknown) => void,
): Promise<unknown> {
  const work = Promise.resolve().then(run);
  if (signal.aborted) {
    work.catch(onLate);
    return Promise.resolve(ABORTED);
  }
  return new Promise<unknown>((resolve, reject) => {
    const onAbort = (): void => {
      work.catch(onLate);
      resolve(ABORTED);
    };
    signal.addEventListener('abort', onAbort, { once: true });
    work.then(
      (value) => {
        signal.removeEventListener('abort', onAbort);
        resolve(value);
      },
      (error: unknown) => {
        signal.removeEventListener('abort', onAbort);
        reject(error);
      },
    );
  });
}
