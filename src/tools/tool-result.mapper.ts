import type { SchemaValidator } from '../schemas/json-schema.validator.js';
import { isContentBlock, isObject, isRecord } from '../content/content.checks.js';
import type { CallToolResult } from '../protocol/mcp.types.js';

/** A text-only result; `isError` marks a failure the model should read. */
export function textResult(text: string, isError = false): CallToolResult {
  return isError ? { content: [{ type: 'text', text }], isError: true } : { content: [{ type: 'text', text }] };
}

/**
 * Maps what a tool method returned to a `CallToolResult`:
 * a string is one text block; an array of content blocks is the content; an object with a
 * `content` array is taken as a result already; `undefined` and `null` are an empty result; anything else
 * is sent as its JSON text.
 */
export function toCallToolResult(value: unknown): CallToolResult {
  if (typeof value === 'string') return textResult(value);
  if (value === undefined || value === null) return { content: [] };
  if (Array.isArray(value) && value.every(isContentBlock)) return { content: value };
  if (isCallToolResult(value)) return value;
  const json = JSON.stringify(value);
  // Functions and symbols serialise to nothing: there is nothing to say about them.
  return json === undefined ? { content: [] } : textResult(json);
}

/**
 * Whether `value` claims to be a `CallToolResult` (an object with a `content` array and an `isError`
 * flag) but is not a well-formed one: a tool bug rather than data to send as JSON.
 */
export function isMalformedCallToolResult(value: unknown): boolean {
  return isRecord(value) && Array.isArray(value.content) && value.isError !== undefined && !isCallToolResult(value);
}

/** Whether `value` is a well-formed `CallToolResult` (every block checked). */
export function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    isObject(value) &&
    Array.isArray(value.content) &&
    value.content.every(isContentBlock) &&
    (value.isError === undefined || typeof value.isError === 'boolean') &&
    (value.structuredContent === undefined || isPlainRecord(value.structuredContent)) &&
    (value._meta === undefined || isPlainRecord(value._meta))
  );
}

function isPlainRecord(value: unknown): boolean {
  return isObject(value) && !Array.isArray(value);
}

/** A structured result, or why the tool's return value cannot be one. */
export type StructuredOutcome = { readonly result: CallToolResult } | { readonly problems: readonly string[] };

/**
 * Maps what a tool with an output schema returned: an object becomes `structuredContent` (checked
 * as the client will receive it, after JSON serialisation) plus its JSON as a text block; a
 * `CallToolResult` keeps its own content and has its `structuredContent` checked; an error result
 * passes unchecked. Anything else cannot satisfy the schema.
 */
export function toStructuredResult(value: unknown, check: SchemaValidator): StructuredOutcome {
  if (isCallToolResult(value)) {
    if (value.isError) return { result: value };
    if (value.structuredContent === undefined) return { problems: ['the result has no structuredContent'] };
    const verdict = check(JSON.parse(JSON.stringify(value.structuredContent)));
    return verdict.ok ? { result: value } : { problems: verdict.problems };
  }
  if (!isPlainRecord(value)) {
    return { problems: [`the tool returned ${describe(value)}, not an object matching its outputSchema`] };
  }
  const text = JSON.stringify(value);
  const structured = JSON.parse(text) as Record<string, unknown>;
  const verdict = check(structured);
  if (!verdict.ok) return { problems: verdict.problems };
  return { result: { content: [{ type: 'text', text }], structuredContent: structured } };
}

function describe(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'an array';
  return typeof value === 'string' ? 'a string' : typeof value;
}
