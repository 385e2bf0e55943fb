import { invalidParams } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import type { ResourceUriParams } from './mcp.types.js';
import { isAbsoluteUri, MAX_URI_LENGTH } from './uri.js';

/**
 * The params of `resources/read`, `resources/subscribe` and `resources/unsubscribe`.
 * @throws JsonRpcError -32602 when `uri` is missing, not an absolute URI, or longer than {@link MAX_URI_LENGTH}.
 */
export function readResourceUriParams(params: JsonRpcParams): ResourceUriParams {
  if (!isAbsoluteUri(params.uri)) {
    throw invalidParams(`uri must be an absolute URI of at most ${MAX_URI_LENGTH} characters`);
  }
  return params as unknown as ResourceUriParams;
}
