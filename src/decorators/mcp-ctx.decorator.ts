import { ParamType } from '../execution/param-type.js';
import { mcpParamDecorator } from '../execution/param.metadata.js';

/**
 * Gives a tool method parameter the call's `McpContext` (progress, logging, cancellation,
 * elicitation...). Undecorated, the second parameter gets it anyway.
 * @category Decorators
 */
export function McpCtx(): ParameterDecorator {
  return mcpParamDecorator(ParamType.Context);
}
