import type { SchemaValidator } from './json-schema.validator.js';
import { checkAnnotations, isDecodableBase64 } from '../content/content.helpers.js';
import type { CallToolResult, ContentAnnotations, ContentBlock } from '../protocol/mcp.types.js';

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

type Fields = Record<string, unknown>;

const isString = (value: unknown): value is string => typeof value === 'string';
const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

const isOptional =
  <T>(check: (value: unknown) => value is T) =>
  (value: unknown): boolean =>
    value === undefined || check(value);
const optionalString = isOptional(isString);
const isRecord = (value: unknown): value is Fields => isObject(value) && !Array.isArray(value);
const optionalRecord = isOptional(isRecord);

/** What clients' schemas check on a field of a block beyond its presence: a bad one fails the whole result. */
function hasValidAnnotations(block: Fields): boolean {
  if (block.annotations === undefined) return true;
  try {
    checkAnnotations(block.annotations as ContentAnnotations);
    return true;
  } catch {
    return false;
  }
}

const isResourceContents = (resource: unknown): boolean =>
  isRecord(resource) &&
  isString(resource.uri) &&
  optionalString(resource.mimeType) &&
  optionalRecord(resource._meta) &&
  (isString(resource.text) || (isString(resource.blob) && isDecodableBase64(resource.blob)));

/** The fields of each block type, checked so that a malformed block never reaches a client. */
const BLOCK_RULES: Readonly<Record<string, (block: Fields) => boolean>> = {
  text: (block) => isString(block.text),
  image: (block) => isString(block.data) && isDecodableBase64(block.data) && isString(block.mimeType),
  audio: (block) => isString(block.data) && isDecodableBase64(block.data) && isString(block.mimeType),
  resource_link: (block) =>
    isString(block.uri) &&
    isString(block.name) &&
    optionalString(block.title) &&
    optionalString(block.description) &&
    optionalString(block.mimeType) &&
    (block.size === undefined || (typeof block.size === 'number' && Number.isFinite(block.size))),
  resource: (block) => isResourceContents(block.resource),
};

/**
 * Whether `value` is a well-formed content block (text, image, audio, resource link, embedded
 * resource): its type's fields, base64 data, annotations in range and `_meta` an object.
 */
export function isContentBlock(value: unknown): value is ContentBlock {
  if (!isRecord(value) || !isString(value.type)) return false;
  const rule = BLOCK_RULES[value.type];
  return (
    rule !== undefined &&
    Object.hasOwn(BLOCK_RULES, value.type) &&
    rule(value) &&
    optionalRecord(value._meta) &&
    hasValidAnnotations(value)
  );
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
