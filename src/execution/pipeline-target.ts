import type { ExecutionArgs } from './invocation.js';

/** An item's handler behind its Nest pipeline, for one caller. */
export interface PipelineTarget {
  /**
   * Whether any guard (global, class or method) applies: without one, every caller is admitted
   * at once, and nothing needs asking or bounding.
   */
  readonly guarded: boolean;
  /**
   * Runs the item's guards (global, class, method).
   * @returns false when one denies or throws: the caller may neither see nor use the item.
   */
  canActivate(args: ExecutionArgs): Promise<boolean>;
  /** Runs interceptors, pipes, the handler and, on failure, exception filters. */
  execute(args: ExecutionArgs): Promise<unknown>;
  /** Whether failures that escape `execute` were logged already (Nest's exception handler does). */
  readonly reportsErrors: boolean;
}
