import type { CallToolResult, ContentBlock } from '../protocol/mcp.types.js';

const BLOCK_TYPES: ReadonlySet<string> = new Set(['text', 'image', 'audio', 'resource_link', 'resource']);

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
  return textResult(JSON.stringify(value));
}

function isContentBlock(value: unknown): value is ContentBlock {
  return (
    typeof value === 'object' &&
    value !== null &&
    typeof (value as { type?: unknown }).type === 'string' &&
    BLOCK_TYPES.has((value as { type: string }).type)
  );
}

function isCallToolResult(value: unknown): value is CallToolResult {
  return (
    typeof value === 'object' &&
    value !== null &&
    Array.isArray((value as { content?: unknown }).content) &&
    (value as { content: unknown[] }).content.every(isContentBlock)
  );
}
