import type { ResolvedOAuthOptions } from './resolved-oauth-options.js';

/**
 * The RFC 9728 Protected Resource Metadata document of this server.
 * @category OAuth
 */
export interface ProtectedResourceMetadata {
  readonly resource: string;
  readonly authorization_servers: readonly string[];
  readonly scopes_supported?: readonly string[];
  readonly bearer_methods_supported: readonly string[];
  readonly resource_name?: string;
  readonly resource_documentation?: string;
}

/**
 * Builds the document: the resource, its issuers, the advertised scopes (omitted when there are none:
 * clients then ask for no scope rather than for an empty list) and the one bearer method accepted,
 * the header (tokens in query strings are forbidden by MCP; form bodies do not apply to MCP's JSON).
 */
export function protectedResourceMetadata(
  options: ResolvedOAuthOptions,
  scopes: readonly string[],
): ProtectedResourceMetadata {
  return {
    resource: options.resource,
    authorization_servers: [...options.issuers.keys()],
    ...(scopes.length === 0 ? {} : { scopes_supported: [...scopes] }),
    bearer_methods_supported: ['header'],
    ...(options.resourceName === undefined ? {} : { resource_name: options.resourceName }),
    ...(options.resourceDocumentation === undefined ? {} : { resource_documentation: options.resourceDocumentation }),
  };
}
