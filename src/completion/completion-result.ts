import { MAX_COMPLETION_VALUES } from '../protocol/completion-params.js';
import type { CompleteResult } from '../protocol/mcp.types.js';

/** The result of a completion that has no candidates (no completer for the argument). */
export const NO_COMPLETIONS: CompleteResult = Object.freeze({
  completion: Object.freeze({ values: Object.freeze([]) }),
});

/**
 * The `completion/complete` result for what a completer returned (an `McpCompletionResult`, checked): at most
 * {@link MAX_COMPLETION_VALUES} values. A list is every candidate: `total` counts it and `hasMore`
 * says whether it was cut. A completer that returns `{ values, total?, hasMore? }` (it paged on its
 * side) keeps its own `total` and `hasMore`; a cut sets them too.
 * @throws TypeError when the value is not a list of strings or `{ values }` of strings: a bug of the completer.
 */
export function toCompleteResult(value: unknown): CompleteResult {
  const given = Array.isArray(value)
    ? { values: value as unknown[] }
    : (value as { values?: unknown } | null | undefined);
  const values = given?.values;
  if (!Array.isArray(values) || !values.every((candidate) => typeof candidate === 'string')) {
    throw new TypeError('a completer must return a list of strings, or { values: string[], total?, hasMore? }');
  }
  const { total, hasMore } = given as { total?: unknown; hasMore?: unknown };
  const cut = values.length > MAX_COMPLETION_VALUES;
  // A copy: the completer may keep and change its array after answering.
  const sent = values.slice(0, MAX_COMPLETION_VALUES);
  const knownTotal = Array.isArray(value)
    ? values.length
    : typeof total === 'number' && Number.isInteger(total) && total >= values.length
      ? total
      : undefined;
  const completion: { values: string[]; total?: number; hasMore?: boolean } = { values: sent as string[] };
  if (knownTotal !== undefined) completion.total = knownTotal;
  else if (cut) completion.total = values.length;
  if (cut || hasMore === true || (knownTotal !== undefined && knownTotal > sent.length)) completion.hasMore = true;
  else if (hasMore === false || knownTotal !== undefined) completion.hasMore = false;
  return { completion };
}
