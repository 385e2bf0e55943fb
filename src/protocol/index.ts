// The public API of mcp42/protocol: the Model Context Protocol's wire types and constants, as the
// messages carry them, for applications that name them (a handler building an elicitation schema,
// a test reading a result). Everything else in this folder is internal (never write that tag in a
// comment here: the export below it would go too). Named exports only: any name added here becomes
// public API.

export {
  SUPPORTED_PROTOCOL_VERSIONS,
  MODERN_PROTOCOL_VERSIONS,
  LEGACY_PROTOCOL_VERSIONS,
  LATEST_PROTOCOL_VERSION,
  type ProtocolVersion,
  type ModernProtocolVersion,
  type LegacyProtocolVersion,
} from './protocol-version.js';
export type { McpEra, McpEras } from './era-classifier.js';
export { LOGGING_LEVELS, type LoggingLevel } from './logging-level.js';
export { ErrorCode, JsonRpcError } from './json-rpc.errors.js';
export type { RequestId, JsonRpcParams, JsonRpcErrorObject } from './json-rpc.types.js';
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
} from './mcp.types.js';
