import { McpParamType } from '../execution/mcp-param-type.js';
import { mcpParamDecorator } from '../execution/mcp-param.metadata.js';

/**
 * Gives a tool method parameter the call's `McpContext` (progress, logging, cancellation,
 * elicitation...). Undecorated, the second parameter gets it anyway.
 * @category Decorators
 */
export function McpCtx(): ParameterDecorator {
  return mcpParamDecorator(McpParamType.Context);
}
