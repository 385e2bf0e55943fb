/**
 * The MCP shapes this library produces and consumes, written from the specification's schema
 * (`schema/<version>/schema.ts`). Only what the server side needs.
 */

import type {
  BlobResourceContents,
  ContentAnnotations,
  ContentBlock,
  Meta,
  Role,
  TextResourceContents,
} from './content.types.js';
import type { RequestId } from './json-rpc.types.js';
import type { InputParams } from './modern.types.js';
import type { LoggingLevel } from './logging-level.js';

export type * from './content.types.js';
export type * from './client-request.types.js';
export type * from './modern.types.js';
export { INTERIM_RESULT } from './modern.types.js';

/** Name and version of an MCP implementation (client or server). */
export interface Implementation {
  readonly name: string;
  readonly version: string;
  /** Human-readable display name (2025-06-18+). */
  readonly title?: string;
  readonly [key: string]: unknown;
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
  /** How the tool runs: whether calls may be tasks (2025-11-25 `execution.taskSupport`). */
  readonly execution?: { readonly taskSupport?: 'forbidden' | 'optional' | 'required' };
  readonly _meta?: Meta;
}

/** The result of `tools/list`: one page of tools, and the cursor of the next page if there is one. */
export interface ListToolsResult {
  readonly tools: readonly ToolDefinition[];
  readonly nextCursor?: string;
}

/** The params of `tools/call`. */
export interface CallToolParams extends InputParams {
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
export interface ResourceUriParams extends InputParams {
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
export interface GetPromptParams extends InputParams {
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
  /** 2025-11-25 tasks: what may run as a task, and whether tasks may be listed and cancelled. */
  readonly tasks?: Readonly<Record<string, unknown>>;
  /** 2026-07-28 extensions the server supports, by identifier (`io.modelcontextprotocol/tasks`). */
  readonly extensions?: Readonly<Record<string, Readonly<Record<string, unknown>>>>;
}

/** The result of `server/discover` (2026-07-28), before the era stamps its `resultType`, caching hints and server identity. */
export interface DiscoverResult {
  readonly supportedVersions: readonly string[];
  readonly capabilities: ServerCapabilities;
  readonly instructions?: string;
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
