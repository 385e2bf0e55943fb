import type { Invocation } from './invocation.js';
import type { PipelineTarget } from './pipeline-target.js';

/**
 * The target of an item added at run time with a plain function: no guards, interceptors, pipes
 * or filters (those belong to provider methods), the function called with the invocation.
 */
export function plainTarget(run: (invocation: Invocation) => unknown): PipelineTarget {
  return {
    guarded: false,
    canActivate: () => Promise.resolve(true),
    // eslint-disable-next-line @typescript-eslint/require-await -- async: a throw of `run` becomes a rejection
    execute: async ([, , , invocation]) => run(invocation),
    reportsErrors: false,
  };
}
