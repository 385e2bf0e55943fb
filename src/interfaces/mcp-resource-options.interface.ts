import type { Type } from '@nestjs/common';
import type { ContentAnnotations, Icon, JsonSchemaObject, Meta } from '../protocol/mcp.types.js';
import type { McpCompleters } from './mcp-completion.interface.js';
import type { McpCacheHintOptions } from './mcp-module-options.interface.js';

/** What resources and resource templates share. */
interface McpResourceCommonOptions {
  /**
   * Shown to users and models: 1 to 1,024 characters. Not required to be unique: the URI (or URI
   * template) is the key.
   * @default the method's name
   */
  name?: string;
  /** Human-readable display name. */
  title?: string;
  /** What the resource holds, for the model and the user. */
  description?: string;
  /** The MIME type of the contents, used for contents that do not set their own. */
  mimeType?: string;
  /** Audience, priority and last modification of the resource. */
  annotations?: ContentAnnotations;
  /** Icons a client may show (2025-11-25). */
  icons?: readonly Icon[];
  /** Extra metadata advertised with the resource. */
  _meta?: Meta;
  /**
   * Milliseconds a read may run before it is answered with a timeout error (-32001).
   * @default no limit
   */
  timeoutMs?: number;
  /**
   * Caching hints of its reads for 2026-07-28 clients (`ttlMs`, `cacheScope`). Say `scope: 'public'`
   * only for contents that are the same for every caller.
   * @default the module's `cache.reads`, else `ttlMs` 0 and `private`
   */
  cache?: McpCacheHintOptions;
}

/**
 * Options of {@link McpResource}: a resource with a fixed URI.
 * @category Options
 */
export interface McpResourceOptions extends McpResourceCommonOptions {
  /** The resource's absolute URI, unique in the application (`weather://cities`, `file:///README.md`). */
  uri: string;
  /** Size in bytes of the raw contents, if known up front. */
  size?: number;
}

/**
 * Options of {@link McpResourceTemplate}: a family of resources whose URIs match an RFC 6570 template.
 * @category Options
 */
export interface McpResourceTemplateOptions extends McpResourceCommonOptions {
  /**
   * An RFC 6570 URI template (levels 1 to 4), unique in the application:
   * `weather://forecast/{city}`, `file:///{+path}`, `users://{id}{?fields}`.
   */
  uriTemplate: string;
  /**
   * The template's variables, validated like tool input before the handler runs: a class-validator
   * DTO (values arrive as strings, so convert with `@Type(() => Number)` where needed) or a JSON
   * Schema object. Its properties must be exactly the template's variables. Without it, the handler
   * gets the variables the URI filled, as strings (arrays for exploded ones).
   */
  variables?: Type<object> | JsonSchemaObject;
  /** Completion candidates per variable, for `completion/complete`. */
  complete?: McpCompleters;
}
