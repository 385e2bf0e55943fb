import { isPlainObject } from './json-rpc.codec.js';
import { invalidParams } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import type { CompleteParams } from './mcp.types.js';
import { isStringMap } from './string-map.js';
import { MAX_URI_LENGTH } from './uri.js';

/** The most candidates one `completion/complete` result may carry (the specification's limit). */
export const MAX_COMPLETION_VALUES = 100;

/**
 * The params of `completion/complete`.
 * @throws JsonRpcError -32602 for a reference that is neither `ref/prompt` with a name nor
 *   `ref/resource` with a URI template, an argument without a string `name` and `value`, or
 *   `context.arguments` that is not an object of strings.
 */
export function readCompleteParams(params: JsonRpcParams): CompleteParams {
  const { ref, argument, context } = params;
  if (!isPlainObject(ref)) throw invalidParams('ref must be an object');
  if (ref.type === 'ref/prompt') {
    if (typeof ref.name !== 'string' || ref.name.length === 0) throw invalidParams('ref/prompt needs a prompt name');
  } else if (ref.type === 'ref/resource') {
    if (typeof ref.uri !== 'string' || ref.uri.length === 0 || ref.uri.length > MAX_URI_LENGTH) {
      throw invalidParams('ref/resource needs the uri of a resource template');
    }
  } else {
    throw invalidParams('ref.type must be "ref/prompt" or "ref/resource"');
  }
  if (!isPlainObject(argument) || typeof argument.name !== 'string' || typeof argument.value !== 'string') {
    throw invalidParams('argument must be an object with string name and value');
  }
  if (context !== undefined && (!isPlainObject(context) || !isOptionalStringMap(context.arguments))) {
    throw invalidParams('context.arguments must be an object whose values are strings');
  }
  return params as unknown as CompleteParams;
}

function isOptionalStringMap(value: unknown): boolean {
  return value === undefined || isStringMap(value);
}
