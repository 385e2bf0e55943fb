import type { Type } from '@nestjs/common';
import type { Icon, Meta } from '../protocol/mcp.types.js';
import type { McpCompleters } from './mcp-completion.interface.js';

/**
 * One argument of a prompt, declared without a DTO.
 * @category Options
 */
export interface McpPromptArgumentOptions {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

/**
 * Options of {@link McpPrompt}.
 * @category Options
 */
export interface McpPromptOptions {
  /**
   * Prompt name, unique in the application: 1 to 256 characters, no control characters.
   * @default the method's name
   */
  name?: string;
  /** Human-readable display name. */
  title?: string;
  /** What the prompt is for, shown to the user choosing it. */
  description: string;
  /**
   * The prompt's arguments (always strings on the wire), either
   * - a class-validator DTO: each property is an argument (required unless `@IsOptional()`; its
   *   description from `@JSONSchema({ description })`), and arguments are validated with it, so
   *   invalid ones are refused with -32602 before the handler runs; or
   * - a list of argument declarations: required ones must be present and undeclared ones are
   *   refused (-32602).
   * Without it the prompt takes no arguments.
   */
  args?: Type<object> | readonly McpPromptArgumentOptions[];
  /** Completion candidates per argument, for `completion/complete`. */
  complete?: McpCompleters;
  /** Icons a client may show (2025-11-25). */
  icons?: readonly Icon[];
  /** Extra metadata advertised with the prompt. */
  _meta?: Meta;
  /**
   * Milliseconds a `prompts/get` may run before it is answered with a timeout error (-32001).
   * @default no limit
   */
  timeoutMs?: number;
}
