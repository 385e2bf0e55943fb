import { toBase64 } from '../content/content.checks.js';
import type { BlobResourceContents, ReadResourceResult, TextResourceContents } from '../protocol/mcp.types.js';

type Contents = TextResourceContents | BlobResourceContents;
type Fields = Record<string, unknown>;

const isObject = (value: unknown): value is Fields =>
  typeof value === 'object' && value !== null && !Array.isArray(value) && !(value instanceof Uint8Array);

/**
 * Maps what a resource method returned to a `ReadResourceResult`, for the URI that was read:
 * - a string is text; a `Buffer` or `Uint8Array` is a base64 blob;
 * - `{ text }` or `{ blob }` (bytes or base64) is one contents item, `uri` and `mimeType` defaulting
 *   to the URI read and the declared MIME type; an array holding those or bytes is several (its
 *   strings are text items); an array of plain values is JSON;
 * - `{ contents: [...] }` is a result already (its items completed the same way);
 * - `undefined` and `null` mean there is no such resource: the caller answers -32002;
 * - any other value is sent as its JSON text (MIME type `application/json` unless one was declared).
 *
 * @throws TypeError (or RangeError) for contents that cannot be sent: a bug of the resource method.
 */
export function toReadResourceResult(value: unknown, uri: string, mimeType?: string): ReadResourceResult | undefined {
  if (value === undefined || value === null) return undefined;
  if (isObject(value) && Array.isArray(value.contents)) {
    const result: { contents: Contents[]; _meta?: Record<string, unknown> } = {
      contents: value.contents.map((item) => toContents(item, uri, mimeType, false)),
    };
    if (isObject(value._meta)) result._meta = value._meta;
    return result;
  }
  // An array holding contents objects or bytes is several contents; `['Lisbon', 'Oslo']` is JSON data.
  if (Array.isArray(value) && value.some((item) => isContentsLike(item) || item instanceof Uint8Array)) {
    return { contents: value.map((item) => toContents(item, uri, mimeType, false)) };
  }
  return { contents: [toContents(value, uri, mimeType, true)] };
}

function isContentsLike(value: unknown): boolean {
  return isObject(value) && (typeof value.text === 'string' || value.blob !== undefined);
}

function toContents(value: unknown, uri: string, mimeType: string | undefined, jsonFallback: boolean): Contents {
  if (typeof value === 'string') return withMime({ uri, text: value }, mimeType);
  if (value instanceof Uint8Array) return withMime({ uri, blob: toBase64(value, 'blob') }, mimeType);
  if (isContentsLike(value)) {
    const item = value as Fields;
    const itemUri = item.uri ?? uri;
    if (typeof itemUri !== 'string' || itemUri === '') throw new TypeError('contents uri must be a non-empty string');
    const itemMime = item.mimeType ?? mimeType;
    if (itemMime !== undefined && typeof itemMime !== 'string')
      throw new TypeError('contents mimeType must be a string');
    const base =
      typeof item.text === 'string'
        ? { uri: itemUri, text: item.text }
        : { uri: itemUri, blob: toBase64(item.blob as string, 'blob') };
    return {
      ...withMime(base, itemMime),
      ...(isObject(item._meta) ? { _meta: item._meta } : {}),
    } as Contents;
  }
  if (!jsonFallback) throw new TypeError('each contents item must be a string, bytes, or an object with text or blob');
  const json = JSON.stringify(value);
  if (json === undefined) throw new TypeError(`a resource cannot be a ${typeof value}`);
  return withMime({ uri, text: json }, mimeType ?? 'application/json');
}

function withMime<C extends Contents>(contents: C, mimeType: string | undefined): C {
  return mimeType === undefined ? contents : { ...contents, mimeType };
}
