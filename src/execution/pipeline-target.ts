import type { McpExecutionArgs } from './mcp-invocation.js';

/** A tool's handler behind its Nest pipeline, for one caller. */
export interface PipelineTarget {
  /**
   * Runs the tool's guards (global, class, method).
   * @returns false when one denies or throws: the caller may neither see nor call the tool.
   */
  canActivate(args: McpExecutionArgs): Promise<boolean>;
  /** Runs interceptors, pipes, the handler and, on failure, exception filters. */
  execute(args: McpExecutionArgs): Promise<unknown>;
  /** Whether failures that escape `execute` were logged already (Nest's exception handler does). */
  readonly reportsErrors: boolean;
}
