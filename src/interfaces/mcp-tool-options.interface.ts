import type { Type } from '@nestjs/common';
import type { Icon, JsonSchemaObject, Meta, ToolAnnotations } from '../protocol/mcp.types.js';

/**
 * Options of {@link McpTool}.
 * @typeParam I the arguments' DTO, when `input` is one.
 * @category Options
 */
export interface McpToolOptions {
  /**
   * Tool name: 1 to 128 characters of `A-Za-z0-9_-.`, unique in the application.
   * @default the method's name
   */
  name?: string;
  /** Human-readable display name. */
  title?: string;
  /** What the tool does, written for a model: it decides whether to call the tool from this text. */
  description: string;
  /**
   * The arguments, as either
   * - a class-validator DTO: its JSON Schema is advertised as `inputSchema`, and arguments are
   *   transformed into an instance and validated with it (unknown properties rejected); or
   * - a JSON Schema object (`type: 'object'`), for what class-validator cannot express: advertised
   *   unchanged (`$schema`, `$defs`, `additionalProperties` kept) and enforced with Ajv (2020-12 by
   *   default, draft-07 when `$schema` says so), compiled once.
   * Without it the tool takes no arguments.
   */
  input?: Type<object> | JsonSchemaObject;
  /**
   * The structured result, as a class-validator DTO or a JSON Schema object: advertised as
   * `outputSchema`. The object the handler returns is then checked against it and sent as
   * `structuredContent`, with its JSON as a text block for clients that read only content. A result
   * that does not conform becomes an error result naming the violation, and is logged as a bug.
   */
  output?: Type<object> | JsonSchemaObject;
  /** Behavioural hints (read-only, destructive, idempotent, open-world). */
  annotations?: ToolAnnotations;
  /** Icons a client may show for the tool (2025-11-25). */
  icons?: readonly Icon[];
  /**
   * Milliseconds a call may run: past it, the call's `ctx.signal` aborts and the call is answered
   * with an error result saying it timed out, whether or not the handler stops.
   * @default no limit
   */
  timeoutMs?: number;
  /**
   * Whether a call may run as a task (long-running tools: reports, builds, batch jobs):
   * - `'optional'`: a call runs as a task when the client can take one (2026-07-28: the request
   *   declares the `io.modelcontextprotocol/tasks` extension; 2025-11-25: it sends `params.task`),
   *   and as a plain call otherwise;
   * - `'required'`: always as a task; a client that cannot take one is refused (2026-07-28: -32021
   *   naming the extension; 2025-11-25: -32601).
   *
   * The handler is the same function either way: in a task, `ctx.progress` becomes the task's
   * `statusMessage`, `ctx.elicit` puts it in `input_required` until the client answers, and
   * `ctx.signal` aborts on `tasks/cancel`. Advertised as `execution.taskSupport` (2025-11-25).
   * See the module's `tasks` options for TTLs and limits.
   *
   * The object form `{ support, start: 'handler' }` lets the handler ask for input before the task
   * exists: the call runs in its request (2026-07-28 multi round-trip requests answer its
   * `ctx.elicit`), and becomes a task when the handler calls `ctx.startTask()` (see there).
   * @default no task: every call is answered in its request
   */
  task?: 'optional' | 'required' | McpToolTaskOptions;
  /** Extra metadata advertised with the tool. */
  _meta?: Meta;
}

/**
 * The object form of {@link McpToolOptions.task}.
 * @category Options
 */
export interface McpToolTaskOptions {
  /** Whether a call may (`optional`) or must (`required`) run as a task. */
  support: 'optional' | 'required';
  /**
   * When the task is created: at the start of the call (`'call'`), or when the handler calls
   * `ctx.startTask()` (`'handler'`), after what it asked in the request's own rounds.
   * @default 'call'
   */
  start?: 'call' | 'handler';
}
