import type { McpContext } from './mcp-context.interface.js';

/**
 * What a completer is asked: the argument being typed, what was typed so far, and the rest of the form.
 * @category Options
 */
export interface McpCompletionRequest {
  /** The prompt argument or template variable being completed. */
  readonly argument: string;
  /** What the user typed so far (may be empty). */
  readonly value: string;
  /** The other arguments the user filled in already (`context.arguments`, 2025-06-18+); empty when none. */
  readonly arguments: Readonly<Record<string, string>>;
}

/**
 * What a completer returns: the candidates (all of them, or the first ones with `total` and
 * `hasMore`). Only the first 100 are sent; `total` and `hasMore` are then set from the full list.
 * @category Options
 */
export type McpCompletionResult =
  readonly string[] | { readonly values: readonly string[]; readonly total?: number; readonly hasMore?: boolean };

/**
 * Supplies completion candidates for one argument.
 * @category Options
 */
export type McpCompleter = (
  request: McpCompletionRequest,
  context: McpContext,
) => McpCompletionResult | Promise<McpCompletionResult>;

/**
 * Completers by argument (prompt) or variable (template) name: a function, or a fixed list of
 * candidates, offered when they start with what the user typed (case-insensitively).
 * @category Options
 */
export type McpCompleters = Readonly<Record<string, McpCompleter | readonly string[]>>;

/**
 * Options of {@link McpCompletion}: what the decorated method completes. Name exactly one of
 * `prompt` or `resourceTemplate` (otherwise bootstrap fails with `McpDefinitionError`).
 * @category Options
 */
export interface McpCompletionOptions {
  /** The name of the prompt whose argument this completes. */
  readonly prompt?: string;
  /** The URI template (`uriTemplate`) of the resource template whose variable this completes. */
  readonly resourceTemplate?: string;
  /** The argument or variable completed. */
  readonly argument: string;
}
