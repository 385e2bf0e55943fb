import type { ServedHandler } from '../execution/served-handler.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpCompleter, McpCompleters } from '../interfaces/mcp-completion.interface.js';
import type { JsonSchemaObject } from '../protocol/mcp.types.js';

/** Where the completions of one argument come from: a plain function, or a decorated method behind its pipeline. */
export type ItemCompleter =
  | {
      readonly kind: 'function';
      readonly owner: string;
      readonly complete: McpCompleter;
      /** Derived from the schema's `enum`: an `@McpCompletion()` method may take its place. */
      readonly auto?: boolean;
    }
  | { readonly kind: 'handler'; readonly handler: ServedHandler };

/** The completers of one prompt or template, by argument name; `@McpCompletion()` methods join after discovery. */
export type CompleterTable = Map<string, ItemCompleter>;

/** Offers the candidates that start with what the user typed, case-insensitively, in their order. */
export function listCompleter(candidates: readonly string[]): McpCompleter {
  const list = Object.freeze([...candidates]);
  return ({ value }) => {
    const prefix = value.toLowerCase();
    return prefix === '' ? list : list.filter((candidate) => candidate.toLowerCase().startsWith(prefix));
  };
}

/**
 * The completer table of a prompt or template: the `complete` option's entries, and, for arguments
 * without one whose schema lists allowed strings (`@IsIn()`, `@IsEnum()`: `enum`), those strings.
 * @param declared the argument (variable) names the item has.
 * @param schema the arguments' JSON Schema, when there is one.
 * @throws McpDefinitionError for an entry naming an argument the item does not have, or that is
 *   neither a function nor a list of strings.
 */
export function completerTable(
  complete: McpCompleters | undefined,
  declared: readonly string[],
  schema: JsonSchemaObject | undefined,
  label: string,
  owner: string,
): CompleterTable {
  const table: CompleterTable = new Map();
  for (const [argument, source] of Object.entries(complete ?? {})) {
    if (!declared.includes(argument)) {
      throw new McpDefinitionError(
        `${label}: complete.${argument} names no argument (it has: ${declared.join(', ') || 'none'})`,
      );
    }
    if (typeof source === 'function') {
      table.set(argument, { kind: 'function', owner, complete: source });
    } else if (Array.isArray(source) && source.every((candidate) => typeof candidate === 'string')) {
      table.set(argument, { kind: 'function', owner, complete: listCompleter(source as readonly string[]) });
    } else {
      throw new McpDefinitionError(`${label}: complete.${argument} must be a function or a list of strings`);
    }
  }
  const properties = (schema?.properties ?? {}) as Record<string, { enum?: unknown }>;
  for (const argument of declared) {
    const allowed = properties[argument]?.enum;
    if (table.has(argument) || !Array.isArray(allowed) || !allowed.every((value) => typeof value === 'string'))
      continue;
    table.set(argument, { kind: 'function', owner, complete: listCompleter(allowed as string[]), auto: true });
  }
  return table;
}

/** Whether a completer may be replaced by an `@McpCompletion()` method: only one derived from an `enum`. */
export function isReplaceable(completer: ItemCompleter | undefined): boolean {
  return completer === undefined || (completer.kind === 'function' && completer.auto === true);
}
