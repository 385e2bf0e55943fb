// The public API of mcp42: what an application writes in its code, and the types that code names.
// Everything else (stores, the call lifecycle, sessions, the transport) is internal and may change
// in any release; `stripInternal` keeps members tagged internal out of the published declarations
// (never write that tag in a comment here: the export below it would go too).

// Module and options
export { McpModule } from './mcp.module.js';
export { MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
export type {
  McpModuleOptions,
  McpModuleExtras,
  McpGuard,
  McpCacheOptions,
  McpCacheHintOptions,
  McpCorsOptions,
} from './interfaces/mcp-module-options.interface.js';
export { defaultSessionOwner } from './session/session-owner.js';
export { defaultScopesOf } from './guards/scopes-of.js';

// Decorators and the options they take
export { McpTool } from './decorators/mcp-tool.decorator.js';
export { McpResource } from './decorators/mcp-resource.decorator.js';
export { McpResourceTemplate } from './decorators/mcp-resource-template.decorator.js';
export { McpPrompt } from './decorators/mcp-prompt.decorator.js';
export { McpCompletion } from './decorators/mcp-completion.decorator.js';
export { McpArgs } from './decorators/mcp-args.decorator.js';
export { McpCtx } from './decorators/mcp-ctx.decorator.js';
export { McpSession } from './decorators/mcp-session.decorator.js';
export { McpUri } from './decorators/mcp-uri.decorator.js';
export { McpParamHeader } from './decorators/mcp-param-header.decorator.js';
export { McpScopes } from './decorators/mcp-scopes.decorator.js';
export { McpPublic } from './decorators/mcp-public.decorator.js';
export type { McpToolOptions } from './interfaces/mcp-tool-options.interface.js';
export type { McpResourceOptions, McpResourceTemplateOptions } from './interfaces/mcp-resource-options.interface.js';
export type { McpPromptOptions, McpPromptArgumentOptions } from './interfaces/mcp-prompt-options.interface.js';
export type {
  McpCompletionOptions,
  McpCompletionRequest,
  McpCompletionResult,
  McpCompleter,
  McpCompleters,
} from './interfaces/mcp-completion.interface.js';

// The context of a handler, and Nest's execution context of guards and interceptors
export type {
  McpContext,
  McpProgress,
  McpLogFunction,
  McpClientRequestOptions,
} from './interfaces/mcp-context.interface.js';
export { McpExecutionContext, type McpContextType } from './execution/mcp-execution-context.js';
export type { McpItemKind } from './execution/mcp-invocation.js';
export { McpScopesGuard } from './guards/mcp-scopes.guard.js';
export {
  MCP_SESSION,
  MCP_CONTEXT_TYPE,
  MCP_PUBLIC_METADATA,
  MCP_SCOPES_METADATA,
  MCP_RESOURCE_METADATA_URL,
} from './mcp.constants.js';

// Registries: items and sessions at run time
export { McpItemRegistry } from './registries/item.registry.js';
export { McpToolRegistry, type McpRuntimeToolOptions, type McpToolHandler } from './registries/tool.registry.js';
export { McpResourceRegistry, type McpRuntimeResourceOptions } from './registries/resource.registry.js';
export {
  McpResourceTemplateRegistry,
  type McpResourceHandler,
  type McpRuntimeResourceTemplateOptions,
} from './registries/resource-template.registry.js';
export {
  McpPromptRegistry,
  type McpRuntimePromptOptions,
  type McpPromptHandler,
} from './registries/prompt.registry.js';
export { McpSessionRegistry } from './registries/session.registry.js';
export type { McpSessionHandle } from './interfaces/mcp-session-handle.interface.js';
export { MAX_SUBSCRIPTIONS_PER_SESSION, MAX_SUBSCRIBED_URI_CHARS } from './session/session-subscriptions.js';
export type { McpEventStore, McpStoredEvent } from './interfaces/mcp-event-store.interface.js';
export type { McpState } from './interfaces/mcp-shared-state.interface.js';
export { InMemoryEventStore, type InMemoryEventStoreOptions } from './session/in-memory-event-store.js';

// Content helpers
export * from './content/index.js';

// Errors
export { McpToolError } from './errors/mcp-tool.error.js';
export { McpDefinitionError } from './errors/mcp-definition.error.js';
export { McpToolDefinitionError } from './errors/mcp-tool-definition.error.js';
export { McpClientRequestError } from './errors/mcp-client-request.error.js';
export { McpCallAbortedError, type McpCallAbortKind } from './errors/mcp-call-aborted.error.js';
export { McpStateUnavailableError } from './errors/mcp-state-unavailable.error.js';
export { McpInsufficientScopeException } from './errors/mcp-insufficient-scope.exception.js';
export { ErrorCode, JsonRpcError } from './protocol/json-rpc.errors.js';

// Protocol: versions, log levels, and the shapes handlers return and read
export {
  SUPPORTED_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  LEGACY_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
  type ProtocolVersion,
  type ModernProtocolVersion,
  type LegacyProtocolVersion,
} from './protocol/protocol-version.js';
export type { McpEra, McpEras } from './protocol/era-classifier.js';
export { LOGGING_LEVELS, type LoggingLevel } from './protocol/logging-level.js';
export type { RequestId, JsonRpcParams, JsonRpcErrorObject } from './protocol/json-rpc.types.js';
export type {
  Meta,
  Implementation,
  ClientCapabilities,
  Role,
  ContentAnnotations,
  TextContent,
  ImageContent,
  AudioContent,
  ResourceLink,
  TextResourceContents,
  BlobResourceContents,
  EmbeddedResource,
  ContentBlock,
  CallToolResult,
  ToolAnnotations,
  ToolDefinition,
  JsonSchemaObject,
  Icon,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ReadResourceResult,
  PromptArgument,
  PromptDefinition,
  PromptMessage,
  GetPromptResult,
  CompleteResult,
  ListToolsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListPromptsResult,
  CacheScope,
  ElicitationSchema,
  ElicitRequestParams,
  ElicitResult,
  SamplingMessage,
  CreateMessageRequestParams,
  CreateMessageResult,
  Root,
  ListRootsResult,
} from './protocol/mcp.types.js';
