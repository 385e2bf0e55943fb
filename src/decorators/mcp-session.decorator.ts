import { McpParamType } from '../execution/mcp-param-type.js';
import { mcpParamDecorator } from '../execution/mcp-param.metadata.js';

/**
 * Gives a tool method parameter the calling session (`McpSessionHandle`): its id, negotiated
 * version, client, and a way to reach it later outside the call. In request-scoped providers,
 * inject the `MCP_SESSION` token instead.
 *
 * @example
 * ```ts
 * @McpTool({ description: 'Who am I talking to?' })
 * whoAmI(@McpSession() session: McpSessionHandle) { return session.clientInfo.name; }
 * ```
 * @category Decorators
 */
export function McpSession(): ParameterDecorator {
  return mcpParamDecorator(McpParamType.Session);
}
