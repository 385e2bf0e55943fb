import { Buffer } from 'node:buffer';
import type {
  AudioContent,
  ContentAnnotations,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  Role,
  TextContent,
} from '../protocol/mcp.types.js';

/**
 * Binary content: the bytes themselves (a `Buffer` is a `Uint8Array`), or a string that already holds
 * them in standard, padded base64.
 */
export type BinaryData = Buffer | Uint8Array | string;

/** What {@link resourceLink} needs to describe a resource. */
export interface ResourceLinkInit {
  /** The URI the client can read the resource at. */
  readonly uri: string;
  /** The resource's programmatic name. */
  readonly name: string;
  /** A human-readable name to display. */
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** The size in bytes, before any encoding, when known. */
  readonly size?: number;
  readonly annotations?: ContentAnnotations;
}

/** Options of an embedded resource. */
export interface EmbeddedResourceOptions {
  readonly mimeType?: string;
  readonly annotations?: ContentAnnotations;
}

/**
 * A text content block.
 *
 * @throws RangeError when an annotation is out of range.
 *
 * @example
 * ```ts
 * return [text('Sunny, 24 °C'), text('Raw station data follows', { audience: ['assistant'] })];
 * ```
 */
export function text(text: string, annotations?: ContentAnnotations): TextContent {
  requireString(text, 'text');
  return withAnnotations({ type: 'text', text }, annotations);
}

/**
 * An image content block.
 *
 * @param data The image bytes, or the image already encoded as standard base64.
 * @param mimeType Such as `image/png`.
 * @throws RangeError when a base64 string is malformed or an annotation is out of range.
 *
 * @example
 * ```ts
 * return [image(await readFile('chart.png'), 'image/png', { priority: 0.8 })];
 * ```
 */
export function image(data: BinaryData, mimeType: string, annotations?: ContentAnnotations): ImageContent {
  return withAnnotations(
    { type: 'image', data: toBase64(data, 'image data'), mimeType: mimeOf(mimeType) },
    annotations,
  );
}

/**
 * An audio content block.
 *
 * @param data The audio bytes, or the audio already encoded as standard base64.
 * @param mimeType Such as `audio/wav`.
 * @throws RangeError when a base64 string is malformed or an annotation is out of range.
 *
 * @example
 * ```ts
 * return [audio(speech, 'audio/mpeg')];
 * ```
 */
export function audio(data: BinaryData, mimeType: string, annotations?: ContentAnnotations): AudioContent {
  return withAnnotations(
    { type: 'audio', data: toBase64(data, 'audio data'), mimeType: mimeOf(mimeType) },
    annotations,
  );
}

/**
 * A link to a resource the client may read, without its contents.
 *
 * @throws RangeError when `uri` or `name` is empty, `size` is not a non-negative integer, or an
 * annotation is out of range.
 *
 * @example
 * ```ts
 * return [resourceLink({ uri: 'file:///reports/q3.pdf', name: 'q3.pdf', mimeType: 'application/pdf' })];
 * ```
 */
export function resourceLink(link: ResourceLinkInit): ResourceLink {
  requireObject(link, 'resourceLink()');
  const { uri, name, title, description, mimeType, size, annotations } = link;
  const block: { -readonly [K in keyof ResourceLink]: ResourceLink[K] } = {
    type: 'resource_link',
    uri: nonEmpty(uri, 'uri'),
    name: nonEmpty(name, 'name'),
  };
  if (title !== undefined) block.title = requireString(title, 'title');
  if (description !== undefined) block.description = requireString(description, 'description');
  if (mimeType !== undefined) block.mimeType = mimeOf(mimeType);
  if (size !== undefined) {
    if (typeof size !== 'number') throw new TypeError(`size must be a number, got ${typeof size}`);
    if (!Number.isSafeInteger(size) || size < 0) throw new RangeError(`size must be a byte count, got ${size}`);
    block.size = size;
  }
  return withAnnotations(block, annotations);
}

/**
 * A text resource embedded with its contents.
 *
 * @throws RangeError when `uri` is empty or an annotation is out of range.
 *
 * @example
 * ```ts
 * return [embeddedText('config://app/settings.json', JSON.stringify(settings), { mimeType: 'application/json' })];
 * ```
 */
export function embeddedText(uri: string, text: string, options: EmbeddedResourceOptions = {}): EmbeddedResource {
  requireObject(options, 'embeddedText() options');
  const resource = { uri: nonEmpty(uri, 'uri'), text: requireString(text, 'text') };
  return embedded(resource, options);
}

/**
 * A binary resource embedded with its contents.
 *
 * @param data The bytes, or the bytes already encoded as standard base64.
 * @throws RangeError when `uri` is empty, a base64 string is malformed or an annotation is out of range.
 *
 * @example
 * ```ts
 * return [embeddedBlob('file:///exports/data.parquet', bytes, { mimeType: 'application/vnd.apache.parquet' })];
 * ```
 */
export function embeddedBlob(uri: string, data: BinaryData, options: EmbeddedResourceOptions = {}): EmbeddedResource {
  requireObject(options, 'embeddedBlob() options');
  const resource = { uri: nonEmpty(uri, 'uri'), blob: toBase64(data, 'blob data') };
  return embedded(resource, options);
}

function embedded(
  resource: { uri: string; text: string } | { uri: string; blob: string },
  { mimeType, annotations }: EmbeddedResourceOptions,
): EmbeddedResource {
  // The MIME type belongs to the contents, where clients look for it, not to the block.
  const contents = mimeType === undefined ? resource : { ...resource, mimeType: mimeOf(mimeType) };
  return withAnnotations({ type: 'resource', resource: contents }, annotations);
}

function withAnnotations<B extends object>(block: B, annotations: ContentAnnotations | undefined): B {
  if (annotations === undefined) return block;
  const checked = checkAnnotations(annotations);
  return Object.keys(checked).length === 0 ? block : { ...block, annotations: checked };
}

const ROLES: ReadonlySet<string> = new Set<Role>(['user', 'assistant']);

/**
 * Copies the annotations a client understands, so that later changes to the caller's object do not leak in.
 * @internal
 * @throws TypeError or RangeError for a malformed annotation.
 */
export function checkAnnotations(annotations: ContentAnnotations): ContentAnnotations {
  requireObject(annotations, 'annotations');
  const { audience, priority, lastModified } = annotations;
  const checked: { -readonly [K in keyof ContentAnnotations]: ContentAnnotations[K] } = {};
  if (audience !== undefined) {
    if (!Array.isArray(audience)) throw new TypeError('annotations.audience must be an array of roles');
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

/** Standard base64, padded: what `Buffer#toString('base64')` writes and every client decodes. */
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/** Whether `data` is standard padded base64. */
function isBase64(data: string): boolean {
  return data.length % 4 === 0 && BASE64.test(data);
}

/** Base64 as clients' decoders (`atob`) take it: ASCII whitespace ignored, padding optional. */
const DECODABLE_BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;

/**
 * Whether clients can decode `data` as base64 (what `atob` accepts: line breaks and missing padding
 * included). Blocks a handler built itself are checked with this, not with the helpers' strictness:
 * refusing what every client reads would break results that work.
 * @internal
 */
export function isDecodableBase64(data: string): boolean {
  let compact = '';
  for (const char of data)
    if (char !== ' ' && char !== '\n' && char !== '\r' && char !== '\t' && char !== '\f') compact += char;
  return compact.length % 4 !== 1 && DECODABLE_BASE64.test(compact);
}

/**
 * Bytes (or a base64 string, checked) as standard padded base64.
 * @internal
 */
export function toBase64(data: BinaryData, what: string): string {
  if (data instanceof Uint8Array) return Buffer.from(data.buffer, data.byteOffset, data.byteLength).toString('base64');
  if (typeof data !== 'string') throw new TypeError(`${what} must be bytes or a base64 string, got ${typeof data}`);
  if (!isBase64(data)) {
    throw new RangeError(`${what} is not standard padded base64: pass the bytes, or encode them with base64`);
  }
  return data;
}

function mimeOf(mimeType: unknown): string {
  return nonEmpty(mimeType, 'mimeType');
}

function nonEmpty(value: unknown, what: string): string {
  if (requireString(value, what) === '') throw new RangeError(`${what} must not be empty`);
  return value as string;
}

function requireString(value: unknown, what: string): string {
  if (typeof value !== 'string') throw new TypeError(`${what} must be a string, got ${typeOf(value)}`);
  return value;
}

function requireObject(value: unknown, what: string): void {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw new TypeError(`${what} must be an object, got ${typeOf(value)}`);
  }
}

const typeOf = (value: unknown): string => (value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value);
