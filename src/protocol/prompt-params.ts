import { invalidParams } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import type { GetPromptParams } from './mcp.types.js';
import { isStringMap } from './string-map.js';

/**
 * The params of `prompts/get`.
 * @throws JsonRpcError -32602 when `name` is missing, or `arguments` is not an object of strings.
 */
export function readGetPromptParams(params: JsonRpcParams): GetPromptParams {
  if (typeof params.name !== 'string' || params.name.length === 0)
    throw invalidParams('prompts/get needs a prompt name');
  if (params.arguments !== undefined && !isStringMap(params.arguments)) {
    throw invalidParams('arguments must be an object whose values are strings');
  }
  return params as unknown as GetPromptParams;
}
