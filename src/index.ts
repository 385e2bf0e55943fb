export { McpModule } from './mcp.module.js';
export { MCP_MODULE_OPTIONS } from './mcp.module-definition.js';
export { MCP_OPTION_DEFAULTS, MCP_EXTRAS_DEFAULTS, type ResolvedMcpOptions } from './mcp-options.defaults.js';
export { defaultSessionOwner } from './session/session-owner.js';
export type { McpModuleOptions, McpModuleExtras, McpGuard } from './interfaces/mcp-module-options.interface.js';
export type { McpToolOptions } from './interfaces/mcp-tool-options.interface.js';
export type {
  McpContext,
  McpProgress,
  McpLogFunction,
  McpClientRequestOptions,
} from './interfaces/mcp-context.interface.js';
export { McpTool } from './decorators/mcp-tool.decorator.js';
export { McpToolError } from './errors/mcp-tool.error.js';
export { McpToolDefinitionError } from './errors/mcp-tool-definition.error.js';
export { McpClientRequestError } from './errors/mcp-client-request.error.js';
export { McpCallAbortedError, type McpCallAbortKind } from './errors/mcp-call-aborted.error.js';
export { McpToolRegistry, type McpRuntimeToolOptions, type McpToolHandler } from './tools/tool.registry.js';
export type { McpEventStore, McpStoredEvent } from './session/event-store.interface.js';
export { InMemoryEventStore, type InMemoryEventStoreOptions } from './session/in-memory-event-store.js';
export { LOGGING_LEVELS, type LoggingLevel } from './protocol/logging-level.js';
export { McpSessionRegistry } from './session/session.registry.js';
export type { McpSession, SessionEndReason } from './session/mcp-session.js';
export {
  SUPPORTED_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
  type ProtocolVersion,
} from './protocol/protocol-version.js';
export { ErrorCode, JsonRpcError } from './protocol/json-rpc.errors.js';
export type * from './protocol/json-rpc.types.js';
export type * from './protocol/mcp.types.js';
export type { Handshake } from './protocol/initialize.js';
