import type { ServedHandler } from '../execution/served-handler.js';
import type { McpCacheHintOptions } from '../interfaces/mcp-module-options.interface.js';
import type { ResourceDefinition, ResourceTemplateDefinition } from '../protocol/mcp.types.js';
import type { CompleterTable } from '../items/completer.js';
import type { ArgumentsChecker } from '../schemas/arguments-checker.js';
import type { UriTemplate } from './uri-template.js';

/** What every served resource and template has beside its definition. */
interface ReadableItem extends ServedHandler {
  /** Its own caching hints for 2026-07-28 reads, if it set any. */
  readonly cache?: McpCacheHintOptions;
}

/** A resource with a fixed URI, ready to serve. */
export interface RegisteredResource extends ReadableItem {
  readonly definition: ResourceDefinition;
}

/** A resource template ready to serve: its definition, its compiled template, its checks and completers. */
export interface RegisteredResourceTemplate extends ReadableItem {
  readonly definition: ResourceTemplateDefinition;
  readonly template: UriTemplate;
  /** Checks (and, for a DTO, transforms) the variables a URI filled. */
  readonly checkVariables: ArgumentsChecker;
  /** Completers by variable name. */
  readonly completers: CompleterTable;
}
