/**
 * The MCP shapes this library produces and consumes, written from the specification's schema
 * (`schema/<version>/schema.ts`). Only what the server side needs.
 */

import type { RequestId } from './json-rpc.types.js';
import type { LoggingLevel } from './logging-level.js';

/** `_meta`: reserved for protocol-level metadata on most MCP objects. */
export type Meta = Record<string, unknown>;

/** Name and version of an MCP implementation (client or server). */
export interface Implementation {
  readonly name: string;
  readonly version: string;
  /** Human-readable display name (2025-06-18+). */
  readonly title?: string;
  readonly [key: string]: unknown;
}

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

/** Behavioural hints about a tool; clients must treat them as untrusted. */
export interface ToolAnnotations {
  readonly title?: string;
  readonly readOnlyHint?: boolean;
  readonly destructiveHint?: boolean;
  readonly idempotentHint?: boolean;
  readonly openWorldHint?: boolean;
}

/** A JSON Schema object, as advertised in `inputSchema` / `outputSchema`. */
export type JsonSchemaObject = { readonly type: 'object' } & Record<string, unknown>;

/** An icon a client may show for a tool, resource or prompt (2025-11-25). */
export interface Icon {
  /** An `https:` or `data:` URI of the image. */
  readonly src: string;
  readonly mimeType?: string;
  /** Sizes the image suits, such as `48x48` or `any`. */
  readonly sizes?: readonly string[];
  /** The colour theme the icon is drawn for. */
  readonly theme?: 'light' | 'dark';
}

/** A tool as `tools/list` advertises it. */
export interface ToolDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly inputSchema: JsonSchemaObject;
  readonly outputSchema?: JsonSchemaObject;
  readonly annotations?: ToolAnnotations;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
}

/** The result of `tools/list`: one page of tools, and the cursor of the next page if there is one. */
export interface ListToolsResult {
  readonly tools: readonly ToolDefinition[];
  readonly nextCursor?: string;
}

/** The params of `tools/call`. */
export interface CallToolParams {
  readonly name: string;
  readonly arguments?: Record<string, unknown>;
  readonly _meta?: Meta & { readonly progressToken?: string | number };
}

/** A resource as `resources/list` advertises it. */
export interface ResourceDefinition {
  readonly uri: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly mimeType?: string;
  /** Size in bytes of the raw contents, if known. */
  readonly size?: number;
  readonly annotations?: ContentAnnotations;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
}

/** A resource template as `resources/templates/list` advertises it. */
export interface ResourceTemplateDefinition {
  /** An RFC 6570 URI template. */
  readonly uriTemplate: string;
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  /** The MIME type of every resource the template matches, when they share one. */
  readonly mimeType?: string;
  readonly annotations?: ContentAnnotations;
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
}

/** The result of `resources/list`. */
export interface ListResourcesResult {
  readonly resources: readonly ResourceDefinition[];
  readonly nextCursor?: string;
}

/** The result of `resources/templates/list`. */
export interface ListResourceTemplatesResult {
  readonly resourceTemplates: readonly ResourceTemplateDefinition[];
  readonly nextCursor?: string;
}

/** The params of `resources/read`, `resources/subscribe` and `resources/unsubscribe`. */
export interface ResourceUriParams {
  readonly uri: string;
  readonly _meta?: Meta & { readonly progressToken?: string | number };
}

/** The result of `resources/read`. */
export interface ReadResourceResult {
  readonly contents: readonly (TextResourceContents | BlobResourceContents)[];
  readonly _meta?: Meta;
}

/** An argument a prompt takes (always a string). */
export interface PromptArgument {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly required?: boolean;
}

/** A prompt as `prompts/list` advertises it. */
export interface PromptDefinition {
  readonly name: string;
  readonly title?: string;
  readonly description?: string;
  readonly arguments?: readonly PromptArgument[];
  readonly icons?: readonly Icon[];
  readonly _meta?: Meta;
}

/** The result of `prompts/list`. */
export interface ListPromptsResult {
  readonly prompts: readonly PromptDefinition[];
  readonly nextCursor?: string;
}

/** The params of `prompts/get`. */
export interface GetPromptParams {
  readonly name: string;
  readonly arguments?: Readonly<Record<string, string>>;
  readonly _meta?: Meta & { readonly progressToken?: string | number };
}

/** One message of a prompt. */
export interface PromptMessage {
  readonly role: Role;
  readonly content: ContentBlock;
}

/** The result of `prompts/get`. */
export interface GetPromptResult {
  readonly description?: string;
  readonly messages: readonly PromptMessage[];
  readonly _meta?: Meta;
}

/** What `completion/complete` completes: an argument of a prompt, or a variable of a resource template. */
export type CompletionReference =
  { readonly type: 'ref/prompt'; readonly name: string } | { readonly type: 'ref/resource'; readonly uri: string };

/** The params of `completion/complete`. */
export interface CompleteParams {
  readonly ref: CompletionReference;
  readonly argument: { readonly name: string; readonly value: string };
  /** Arguments the user filled in already (2025-06-18+). */
  readonly context?: { readonly arguments?: Readonly<Record<string, string>> };
  readonly _meta?: Meta;
}

/** The result of `completion/complete`. */
export interface CompleteResult {
  readonly completion: {
    /** At most 100 candidates. */
    readonly values: readonly string[];
    /** How many candidates there are in all, when known. */
    readonly total?: number;
    /** Whether there are more candidates than `values` holds. */
    readonly hasMore?: boolean;
  };
  readonly _meta?: Meta;
}

/** What the server offers, as announced in `initialize`. */
export interface ServerCapabilities {
  readonly tools?: { readonly listChanged?: boolean };
  readonly logging?: Record<string, never>;
  readonly completions?: Record<string, never>;
  readonly prompts?: { readonly listChanged?: boolean };
  readonly resources?: { readonly subscribe?: boolean; readonly listChanged?: boolean };
  readonly experimental?: Record<string, unknown>;
}

/** What the client declared in `initialize`; kept as sent. */
export type ClientCapabilities = Record<string, unknown>;

/** The result of `initialize`. */
export interface InitializeResult {
  readonly protocolVersion: string;
  readonly capabilities: ServerCapabilities;
  readonly serverInfo: Implementation;
  readonly instructions?: string;
}

/** A progress token: the client picks it in a request's `_meta.progressToken`. */
export type ProgressToken = string | number;

/** The params of `notifications/progress`. */
export interface ProgressNotificationParams {
  readonly progressToken: ProgressToken;
  /** Grows with every notification of one request. */
  readonly progress: number;
  readonly total?: number;
  readonly message?: string;
}

/** The params of `notifications/message` (a log message for the client). */
export interface LoggingMessageParams {
  readonly level: LoggingLevel;
  readonly logger?: string;
  readonly data: unknown;
}

/** The params of `notifications/cancelled`. */
export interface CancelledNotificationParams {
  readonly requestId: RequestId;
  readonly reason?: string;
}

/** A restricted JSON Schema for an elicitation form: flat, primitive properties only. */
export interface ElicitationSchema {
  readonly type: 'object';
  readonly properties: Record<string, Record<string, unknown>>;
  readonly required?: readonly string[];
  readonly [key: string]: unknown;
}

/** The params of `elicitation/create`: a form (the default), or a URL the user opens (2025-11-25 `mode: 'url'`). */
export type ElicitRequestParams =
  | {
      readonly mode?: 'form';
      readonly message: string;
      readonly requestedSchema: ElicitationSchema;
      readonly _meta?: Meta;
    }
  | {
      readonly mode: 'url';
      readonly message: string;
      readonly url: string;
      readonly elicitationId: string;
      readonly _meta?: Meta;
    };

/** The client's answer to `elicitation/create`. */
export interface ElicitResult {
  readonly action: 'accept' | 'decline' | 'cancel';
  /** The submitted form, when the user accepted a form elicitation. */
  readonly content?: Record<string, string | number | boolean | readonly string[]>;
  readonly _meta?: Meta;
}

/** A message of a sampling conversation. */
export interface SamplingMessage {
  readonly role: Role;
  readonly content: TextContent | ImageContent | AudioContent | readonly (TextContent | ImageContent | AudioContent)[];
  readonly _meta?: Meta;
}

/** The params of `sampling/createMessage`. */
export interface CreateMessageRequestParams {
  readonly messages: readonly SamplingMessage[];
  readonly maxTokens: number;
  readonly systemPrompt?: string;
  readonly modelPreferences?: Record<string, unknown>;
  readonly includeContext?: 'none' | 'thisServer' | 'allServers';
  readonly temperature?: number;
  readonly stopSequences?: readonly string[];
  readonly metadata?: Record<string, unknown>;
  readonly [key: string]: unknown;
}

/** The client's answer to `sampling/createMessage`. */
export interface CreateMessageResult {
  readonly role: Role;
  readonly content: unknown;
  readonly model: string;
  readonly stopReason?: string;
  readonly _meta?: Meta;
  readonly [key: string]: unknown;
}

/** A root the client exposes (a directory or file the server may work in). */
export interface Root {
  readonly uri: string;
  readonly name?: string;
  readonly _meta?: Meta;
}

/** The client's answer to `roots/list`. */
export interface ListRootsResult {
  readonly roots: readonly Root[];
  readonly _meta?: Meta;
}
