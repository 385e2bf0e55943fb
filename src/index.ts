export { McpModule } from './mcp.module.js';
export { MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
export { MCP_OPTION_DEFAULTS, MCP_EXTRAS_DEFAULTS } from './mcp-options.defaults.js';
export { defaultSessionOwner } from './session/session-owner.js';
export type { McpModuleOptions, McpModuleExtras, McpGuard } from './interfaces/mcp-module-options.interface.js';
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
export type {
  McpContext,
  McpProgress,
  McpLogFunction,
  McpClientRequestOptions,
} from './interfaces/mcp-context.interface.js';
export { McpTool } from './decorators/mcp-tool.decorator.js';
export { McpResource } from './decorators/mcp-resource.decorator.js';
export { McpResourceTemplate } from './decorators/mcp-resource-template.decorator.js';
export { McpPrompt } from './decorators/mcp-prompt.decorator.js';
export { McpCompletion } from './decorators/mcp-completion.decorator.js';
export { McpUri } from './decorators/mcp-uri.decorator.js';
export { McpArgs } from './decorators/mcp-args.decorator.js';
export { McpCtx } from './decorators/mcp-ctx.decorator.js';
export { McpSession } from './decorators/mcp-session.decorator.js';
export { McpScopes } from './decorators/mcp-scopes.decorator.js';
export { McpPublic } from './decorators/mcp-public.decorator.js';
export { McpScopesGuard } from './guards/mcp-scopes.guard.js';
export { defaultScopesOf } from './guards/scopes-of.js';
export { McpExecutionContext, type McpContextType } from './execution/mcp-execution-context.js';
export type { McpInvocation, McpExecutionArgs, McpItemKind } from './execution/mcp-invocation.js';
export type { McpSessionHandle } from './interfaces/mcp-session-handle.interface.js';
export { MCP_SESSION, MCP_CONTEXT_TYPE, MCP_PUBLIC_METADATA, MCP_SCOPES_METADATA } from './mcp.constants.js';
export * from './content/index.js';
export { McpToolError } from './errors/mcp-tool.error.js';
export { McpDefinitionError } from './errors/mcp-definition.error.js';
export { McpToolDefinitionError } from './errors/mcp-tool-definition.error.js';
export { McpClientRequestError } from './errors/mcp-client-request.error.js';
export { McpCallAbortedError, type McpCallAbortKind } from './errors/mcp-call-aborted.error.js';
export { McpToolRegistry, type McpRuntimeToolOptions, type McpToolHandler } from './tools/tool.registry.js';
export {
  McpResourceRegistry,
  type McpResourceHandler,
  type McpRuntimeResourceOptions,
  type McpRuntimeResourceTemplateOptions,
} from './resources/resource.registry.js';
export { McpPromptRegistry, type McpRuntimePromptOptions, type McpPromptHandler } from './prompts/prompt.registry.js';
export type { McpEventStore, McpStoredEvent } from './interfaces/mcp-event-store.interface.js';
export { InMemoryEventStore, type InMemoryEventStoreOptions } from './session/in-memory-event-store.js';
export { LOGGING_LEVELS, type LoggingLevel } from './protocol/logging-level.js';
export { McpSessionRegistry } from './session/session.registry.js';
export {
  MAX_SUBSCRIPTIONS_PER_SESSION,
  MAX_SUBSCRIBED_URI_CHARS,
  type SessionEndReason,
  type McpSession as McpSessionState,
} from './session/mcp-session.js';
export {
  SUPPORTED_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
  type ProtocolVersion,
} from './protocol/protocol-version.js';
export { ErrorCode, JsonRpcError } from './protocol/json-rpc.errors.js';
export type * from './protocol/json-rpc.types.js';
export type * from './protocol/mcp.types.js';
export type { Handshake } from './protocol/initialize.js';
