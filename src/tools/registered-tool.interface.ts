import type { ServedHandler } from '../execution/served-handler.js';
import type { ToolDefinition } from '../protocol/mcp.types.js';
import type { ParamHeader } from '../protocol/param-headers.js';
import type { ArgumentsChecker } from '../schemas/arguments-checker.js';
import type { SchemaValidator } from '../schemas/json-schema.validator.js';

/** A tool ready to serve: its advertised definition, its checks, and how to reach its handler. */
export interface RegisteredTool extends ServedHandler {
  readonly definition: ToolDefinition;
  /** Checks (and transforms) the arguments of a call. */
  readonly checkArguments: ArgumentsChecker;
  /** Checks structured results, when the tool declares an output schema. */
  readonly checkOutput?: SchemaValidator;
  /** The arguments its input schema marks with `x-mcp-header` (2026-07-28 clients mirror them into headers). */
  readonly paramHeaders: readonly ParamHeader[];
  /** When a call that runs as a task becomes one: at its start, or when its handler calls `ctx.startTask()`. */
  readonly taskStart?: 'call' | 'handler';
}
