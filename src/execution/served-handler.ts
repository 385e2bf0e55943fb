import type { PipelineTarget } from './pipeline-target.js';

/** An item served behind a Nest pipeline: a tool, a resource, a template, a prompt, a completer. */
export interface ServedHandler {
  /** `Class.method` (or a runtime label), for messages and logs. */
  readonly owner: string;
  /** Milliseconds a request may run, once admitted, before it is answered with an error. */
  readonly timeoutMs?: number;
  /** The handler behind its pipeline, for the caller of one HTTP request. */
  readonly target: (request: unknown) => PipelineTarget | Promise<PipelineTarget>;
}
