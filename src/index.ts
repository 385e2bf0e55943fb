// The public API of mcp42: what an application writes in its code, and the types that code names.
// The protocol's wire types are in `mcp42/protocol`; integrations in `mcp42/redis`, `mcp42/oauth`,
// `mcp42/otel` and `mcp42/terminus`.
// Everything else (stores, the call lifecycle, sessions, the transport) is internal and may change
// in any release; `stripInternal` keeps members tagged internal out of the published declarations
// (never write that tag in a comment here: the export below it would go too). Named exports only:
// any name added here becomes public API.

// The module and its options
export { McpModule } from './mcp.module.js';
export type {
  McpModuleOptions,
  McpModuleExtras,
  McpServedItems,
  McpHttpOptions,
  McpCorsOptions,
  McpLimitsOptions,
  McpSessionsOptions,
  McpAuthOptions,
  McpResumabilityOptions,
  McpStateOptions,
  McpCacheOptions,
  McpTasksOptions,
  McpCacheHintOptions,
  McpRoutesOptions,
  McpStdioOptions,
} from './interfaces/mcp-module-options.interface.js';
export { defaultPrincipalOf } from './session/principal-of.js';
export { defaultScopesOf } from './guards/scopes-of.js';

// Decorators and the options they take
export { McpTool } from './decorators/mcp-tool.decorator.js';
export { McpRoute } from './decorators/mcp-route.decorator.js';
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
export type { McpRouteOptions } from './interfaces/mcp-route-options.interface.js';
export type { McpToolOptions, McpToolTaskOptions } from './interfaces/mcp-tool-options.interface.js';
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
export type { McpTransportKind, McpStdioRequest } from './interfaces/mcp-transport.interface.js';
export type { McpItemKind } from './execution/invocation.js';
export { MCP_SESSION, MCP_PUBLIC_METADATA, MCP_SCOPES_METADATA } from './mcp.constants.js';

// Registries: items and sessions at run time
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

// What an application may implement or plug in
export type { McpEventStore, McpStoredEvent } from './interfaces/mcp-event-store.interface.js';
export type { McpState } from './interfaces/mcp-shared-state.interface.js';
export type { McpTelemetry } from './interfaces/mcp-telemetry.interface.js';

// Content builders
export {
  text,
  image,
  audio,
  resourceLink,
  embeddedText,
  embeddedBlob,
  userMessage,
  assistantMessage,
  type BinaryData,
  type ResourceLinkInit,
  type EmbeddedResourceOptions,
} from './content/index.js';

// Errors
export { McpToolError } from './errors/mcp-tool.error.js';
export { McpDefinitionError } from './errors/mcp-definition.error.js';
export { McpClientRequestError } from './errors/mcp-client-request.error.js';
export { McpCallAbortedError, type McpCallAbortKind } from './errors/mcp-call-aborted.error.js';
export { McpStateUnavailableError } from './errors/mcp-state-unavailable.error.js';
export { McpInsufficientScopeException } from './errors/mcp-insufficient-scope.exception.js';
export { ErrorCode, JsonRpcError } from './protocol/json-rpc.errors.js';

// The wire types the exports above name, and those they name in turn (results handlers return, what
// the context sends and gets, what the registries list): an application's declarations must be able
// to name them from here, the module it imports: TypeScript's declaration emit (`declaration: true`,
// as `nest new` sets it) cannot reach them through another entry (TS2883). Every wire type, these
// and the rest (the list results, versions, log levels), is in mcp42/protocol.
export type {
  CallToolResult,
  ContentBlock,
  TextContent,
  ImageContent,
  AudioContent,
  ResourceLink,
  EmbeddedResource,
  TextResourceContents,
  BlobResourceContents,
  ContentAnnotations,
  Role,
  Meta,
  Icon,
  JsonSchemaObject,
  ToolAnnotations,
  ToolDefinition,
  ResourceDefinition,
  ResourceTemplateDefinition,
  ReadResourceResult,
  PromptDefinition,
  PromptMessage,
  GetPromptResult,
  CacheScope,
  Implementation,
  ClientCapabilities,
  PromptArgument,
  ElicitRequestParams,
  ElicitationSchema,
  ElicitResult,
  CreateMessageRequestParams,
  SamplingMessage,
  CreateMessageResult,
  ListRootsResult,
  Root,
} from './protocol/mcp.types.js';
export type { RequestId, JsonRpcParams, JsonRpcErrorObject } from './protocol/json-rpc.types.js';
export type { LoggingLevel } from './protocol/logging-level.js';
export type { McpEra, McpEras } from './protocol/era-classifier.js';
