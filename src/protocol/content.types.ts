/**
 * The content MCP results carry (text, images, audio, resource links, embedded resources), and
 * `_meta`, written from the specification's schema (`schema/<version>/schema.ts`).
 */

/** `_meta`: reserved for protocol-level metadata on most MCP objects. */
export type Meta = Record<string, unknown>;

/** Who a piece of content is for, or who said it. */
export type Role = 'user' | 'assistant';

/** Hints to the client about how to use or display a content block. */
export interface ContentAnnotations {
  readonly audience?: readonly Role[];
  /** 0 (least important) to 1 (most important). */
  readonly priority?: number;
  /** ISO 8601 timestamp. */
  readonly lastModified?: string;
}

/** A text content block. */
export interface TextContent {
  readonly type: 'text';
  readonly text: string;
  readonly annotations?: ContentAnnotations;
  readonly _meta?: Meta;
}

/** An image content block. */
export interface ImageContent {
  readonly type: 'image';
  /** Base64-encoded image bytes. */
  readonly data: string;
  readonly mimeType: string;
  readonly annotations?: ContentAnnotations;
  readonly _meta?: Meta;
}

/** An audio content block. */
export interface AudioContent {
  readonly type: 'audio';
  /** Base64-encoded audio bytes. */
  readonly data: string;
  readonly mimeType: string;
  readonly annotations?: ContentAnnotations;
  readonly _meta?: Meta;
}

/** A link to a resource the client may read (2025-06-18+). */
export interface ResourceLink {
  readonly type: 'resource_link';
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  readonly size?: number;
  readonly annotations?: ContentAnnotations;
  readonly _meta?: Meta;
}

/** The contents of a text resource. */
export interface TextResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  readonly text: string;
  readonly _meta?: Meta;
}

/** The contents of a binary resource. */
export interface BlobResourceContents {
  readonly uri: string;
  readonly mimeType?: string;
  /** Base64-encoded bytes. */
  readonly blob: string;
  readonly _meta?: Meta;
}

/** A resource embedded in a content block, with its contents. */
export interface EmbeddedResource {
  readonly type: 'resource';
  readonly resource: TextResourceContents | BlobResourceContents;
  readonly annotations?: ContentAnnotations;
  readonly _meta?: Meta;
}

/** Any block a tool result may carry. */
export type ContentBlock = TextContent | ImageContent | AudioContent | ResourceLink | EmbeddedResource;

/** The result of `tools/call`. Tool failures are results with `isError: true`, not JSON-RPC errors. */
export interface CallToolResult {
  readonly content: readonly ContentBlock[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
  readonly _meta?: Meta;
}
