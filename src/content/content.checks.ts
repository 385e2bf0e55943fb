import { Buffer } from 'node:buffer';
import type { ContentAnnotations, ContentBlock, Role } from '../protocol/mcp.types.js';

// The internal checks of content: what the public builders enforce, and what results built by hand
// are held to before they reach a client. Not exported from the package.

const ROLES: ReadonlySet<string> = new Set<Role>(['user', 'assistant']);

/**
 * Copies the annotations a client understands, so that later changes to the caller's object do not leak in.
 * @throws TypeError or RangeError for a malformed annotation.
 */
export function checkAnnotations(annotations: ContentAnnotations): ContentAnnotations {
  requireObject(annotations, 'annotations');
  const { audience, priority, lastModified } = annotations;
  const checked: { -readonly [K in keyof ContentAnnotations]: ContentAnnotations[K] } = {};
  if (audience !== undefined) {
    // `as unknown`: on a readonly array type, Array.isArray would leave `audience` typed `any[]`.
    if (!Array.isArray(audience as unknown)) throw new TypeError('annotations.audience must be an array of roles');
    for (const role of audience) {
      if (!ROLES.has(role)) {
        throw new RangeError(`annotations.audience holds ${JSON.stringify(role)}: roles are 'user' and 'assistant'`);
      }
    }
    checked.audience = [...audience];
  }
  if (priority !== undefined) {
    if (typeof priority !== 'number')
      throw new TypeError(`annotations.priority must be a number, got ${typeof priority}`);
    if (!(priority >= 0 && priority <= 1)) {
      throw new RangeError(`annotations.priority must be between 0 and 1, got ${priority}`);
    }
    checked.priority = priority;
  }
  if (lastModified !== undefined) {
    if (!isIsoDateTime(lastModified)) {
      throw new RangeError(
        `annotations.lastModified must be an ISO 8601 date-time with a time zone, such as 2025-01-12T15:00:58Z; got ${JSON.stringify(lastModified)}`,
      );
    }
    checked.lastModified = lastModified;
  }
  return checked;
}

/**
 * The shape the reference SDK's clients require (RFC 3339: full date, time, `Z` or an offset); anything
 * looser makes them reject the whole result, not just the annotation.
 */
const DATE_TIME = /^(\d{4})-(\d{2})-(\d{2})T([01]\d|2[0-3]):[0-5]\d(?::[0-5]\d(?:\.\d+)?)?(?:Z|[+-]\d{2}:\d{2})$/;

function isIsoDateTime(value: unknown): boolean {
  if (typeof value !== 'string') return false;
  const match = DATE_TIME.exec(value);
  if (match === null) return false;
  const [year, month, day] = [Number(match[1]), Number(match[2]), Number(match[3])];
  // `Date.parse` alone accepts 30 February (rolling it into March) and free-form dates alike.
  return month >= 1 && month <= 12 && day >= 1 && day <= daysIn(year, month) && !Number.isNaN(Date.parse(value));
}

function daysIn(year: number, month: number): number {
  if (month === 2) return year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0) ? 29 : 28;
  return [4, 6, 9, 11].includes(month) ? 30 : 31;
}

/** The base64 alphabet, then at most two `=` of padding: both checks below read base64 with it. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether `data` is standard padded base64: what `Buffer#toString('base64')` writes and every client decodes. */
function isBase64(data: string): boolean {
  return data.length % 4 === 0 && BASE64.test(data);
}

/**
 * Whether clients can decode `data` as base64, as their decoders (`atob`) take it: ASCII whitespace
 * ignored, padding optional. Blocks a handler built itself are checked with this, not with the helpers' strictness:
 * refusing what every client reads would break results that work.
 */
export function isDecodableBase64(data: string): boolean {
  let compact = '';
  for (const char of data)
    if (char !== ' ' && char !== '\n' && char !== '\r' && char !== '\t' && char !== '\f') compact += char;
  return compact.length % 4 !== 1 && BASE64.test(compact);
}

/**
 * Bytes (or a base64 string, checked) as standard padded base64.
 */
export function toBase64(data: Uint8Array | string, what: string): string {
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  if (typeof data !== 'string') throw new TypeError(`${what} must be bytes or a base64 string, got ${typeof data}`);
  if (!isBase64(data)) {
    throw new RangeError(`${what} is not standard padded base64: pass the bytes, or encode them with base64`);
  }
  return data;
}

/** @throws TypeError unless `value` is a plain object (not null, not an array). */
export function requireObject(value: unknown, what: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${what} must be an object, got ${typeOf(value)}`);
  }
}

/** `null`, `array` or the `typeof`, for messages. */
export const typeOf = (value: unknown): string =>
  value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;

type Fields = Record<string, unknown>;

const isString = (value: unknown): value is string => typeof value === 'string';
export const isObject = (value: unknown): value is Fields => typeof value === 'object' && value !== null;

const isOptional =
  (check: (value: unknown) => boolean) =>
  (value: unknown): boolean =>
    value === undefined || check(value);
const optionalString = isOptional(isString);
export const isRecord = (value: unknown): value is Fields => isObject(value) && !Array.isArray(value);
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
