// The public API of mcp42/oauth: the MCP endpoint as an OAuth 2.1 resource server. Everything else
// in this folder is internal (never write that tag in a comment here: the export below it would go too).

export { McpOAuthModule } from './oauth.module.js';
export { MCP_OAUTH_MODULE_OPTIONS } from './oauth.module-definition.js';
export { McpOAuthGuard } from './mcp-oauth.guard.js';
export { MCP_RESOURCE_METADATA_URL } from '../mcp.constants.js';
export type {
  McpOAuthOptions,
  McpOAuthIssuer,
  McpOAuthIntrospection,
  McpOAuthModuleExtras,
} from './oauth-options.interface.js';
export type { McpOAuthUser } from './oauth-user.js';
export type { ProtectedResourceMetadata } from './protected-resource-metadata.js';
