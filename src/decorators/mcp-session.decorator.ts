import { ParamType } from '../execution/param-type.js';
import { mcpParamDecorator } from '../execution/param.metadata.js';

/**
 * Gives a tool method parameter the calling session (`McpSessionHandle`): its id, negotiated
 * version, client, and a way to reach it later outside the call. `undefined` for a stateless
 * 2026-07-28 request, which has no session (use the `McpContext` for what it says of its client).
 * In request-scoped providers, inject the `MCP_SESSION` token instead.
 *
 * @example
 * ```ts
 * @McpTool({ description: 'Who am I talking to?' })
 * whoAmI(@McpSession() session: McpSessionHandle | undefined, @McpCtx() ctx: McpContext) {
 *   return session?.clientInfo.name ?? ctx.clientInfo?.name ?? 'a client that did not say';
 * }
 * ```
 * @category Decorators
 */
export function McpSession(): ParameterDecorator {
  return mcpParamDecorator(ParamType.Session);
}
