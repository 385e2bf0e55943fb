import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { ToolDefinition } from '../protocol/mcp.types.js';
import type { SchemaValidator } from '../schemas/json-schema.validator.js';
import type { ArgumentsChecker } from '../schemas/arguments-checker.js';

/** A tool ready to serve: its advertised definition, its checks, and how to reach its handler. */
export interface RegisteredTool {
  readonly definition: ToolDefinition;
  /** `Class.method` (or `runtime tool <name>`), for messages and logs. */
  readonly owner: string;
  /** Milliseconds after which the call's signal aborts and it is answered with an error result. */
  readonly timeoutMs?: number;
  /** Checks (and transforms) the arguments of a call. */
  readonly checkArguments: ArgumentsChecker;
  /** Checks structured results, when the tool declares an output schema. */
  readonly checkOutput?: SchemaValidator;
  /**
   * The handler behind its pipeline, for the caller of one HTTP request: the same object for a
   * static provider, a fresh one per request for a request-scoped provider.
   */
  readonly target: (request: unknown) => PipelineTarget | Promise<PipelineTarget>;
}
