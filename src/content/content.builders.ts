import type {
  AudioContent,
  ContentAnnotations,
  EmbeddedResource,
  ImageContent,
  ResourceLink,
  TextContent,
} from '../protocol/mcp.types.js';
import { checkAnnotations, requireObject, toBase64, typeOf } from './content.checks.js';

/**
 * Binary content: the bytes themselves (a `Buffer` is a `Uint8Array`), or a string that already holds
 * them in standard, padded base64.
 * @category Content helpers
 */
export type BinaryData = Buffer | Uint8Array | string;

/**
 * What {@link resourceLink} needs to describe a resource.
 * @category Content helpers
 */
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

/**
 * Options of an embedded resource.
 * @category Content helpers
 */
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
 * @category Content helpers
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
 * @category Content helpers
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
 * @category Content helpers
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
 * @category Content helpers
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
 * @category Content helpers
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
 * @category Content helpers
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
