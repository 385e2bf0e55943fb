import { errorResponse, internalError, invalidRequest, parseError } from './json-rpc.errors.js';
import { encodeWithKnownJson, joinJsonParts, type JsonInParts } from './known-json.js';
import type {
  JsonRpcFailure,
  JsonRpcMessage,
  JsonRpcNotification,
  JsonRpcParams,
  JsonRpcRequest,
  JsonRpcResponse,
  JsonRpcSuccess,
  RequestId,
} from './json-rpc.types.js';

/** One message of a body, classified; `invalid` carries the error response it earns. */
export type DecodedMessage =
  | { readonly kind: 'request'; readonly message: JsonRpcRequest }
  | { readonly kind: 'notification'; readonly message: JsonRpcNotification }
  | { readonly kind: 'response'; readonly message: JsonRpcResponse }
  | { readonly kind: 'invalid'; readonly error: JsonRpcFailure };

/**
 * A whole POST body: one message, a non-empty batch, or an error that stands for the body
 * (unparseable JSON, an empty batch).
 */
export type DecodedBody =
  | { readonly kind: 'single'; readonly entry: DecodedMessage }
  | { readonly kind: 'batch'; readonly entries: readonly DecodedMessage[] }
  | { readonly kind: 'error'; readonly error: JsonRpcFailure };

/** Parses and classifies a body's text. */
export function decodeBody(text: string): DecodedBody {
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    // The parser's own message names positions in our buffer, which helps nobody: keep it generic.
    return { kind: 'error', error: errorResponse(null, parseError()) };
  }
  return decodeValue(value);
}

/** Classifies an already parsed body (a host body parser may have parsed it before us). */
export function decodeValue(value: unknown): DecodedBody {
  if (!Array.isArray(value)) return { kind: 'single', entry: decodeMessage(value) };
  if (value.length === 0) {
    return { kind: 'error', error: errorResponse(null, invalidRequest('empty batch')) };
  }
  return { kind: 'batch', entries: value.map(decodeMessage) };
}

/** Classifies one JSON value as a JSON-RPC 2.0 message. */
export function decodeMessage(value: unknown): DecodedMessage {
  if (!isPlainObject(value)) return invalid(null, 'a message must be a JSON object');
  const readableId = isRequestId(value.id) ? value.id : null;
  if (value.jsonrpc !== '2.0') return invalid(readableId, 'jsonrpc must be "2.0"');

  if ('method' in value) {
    if (typeof value.method !== 'string') return invalid(readableId, 'method must be a string');
    if ('params' in value && !isPlainObject(value.params)) {
      return invalid(readableId, 'params must be an object');
    }
    if (!('id' in value)) return { kind: 'notification', message: value as unknown as JsonRpcNotification };
    if (!isRequestId(value.id)) return invalid(null, idRule);
    return { kind: 'request', message: value as unknown as JsonRpcRequest };
  }

  const hasResult = 'result' in value;
  const hasError = 'error' in value;
  if (hasResult === hasError) return invalid(readableId, 'a message needs a method, a result or an error');
  if (hasResult) {
    if (!isRequestId(value.id)) return invalid(null, idRule);
    return { kind: 'response', message: value as unknown as JsonRpcSuccess };
  }
  // An error response may carry id null: it answers a message whose id could not be read.
  if (value.id !== null && !isRequestId(value.id)) return invalid(null, idRule);
  const error = value.error;
  if (!isPlainObject(error) || !Number.isInteger(error.code) || typeof error.message !== 'string') {
    return invalid(readableId, 'error must have an integer code and a string message');
  }
  return { kind: 'response', message: value as unknown as JsonRpcFailure };
}

const idRule = 'id must be a string or an integer (and never null)';

function invalid(id: RequestId | null, detail: string): DecodedMessage {
  return { kind: 'invalid', error: errorResponse(id, invalidRequest(detail)) };
}

/**
 * Integers only, and only those JSON.parse kept exactly: an id beyond 2^53 has already lost digits,
 * so echoing it would answer a request the client never sent.
 */
export function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

export function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * Serialises a response; one whose result cannot be serialised (a BigInt, a cycle, a value
 * `JSON.stringify` drops) becomes an internal error for the same id, so one bad result never costs
 * the client its answer or the rest of a batch.
 * @param onFailure told why, so the caller can log the server bug.
 */
export function encodeResponse(response: JsonRpcResponse, onFailure?: (error: unknown) => void): string {
  return jsonText(encodeResponseInParts(response, onFailure));
}

/** A response's JSON: one text, or in parts when its result holds a value whose JSON is known. */
export type EncodedResponse = string | JsonInParts;

/**
 * {@link encodeResponse}, but a result made of a value encoded before (a page of a list) comes in
 * parts, that value's JSON as the bytes kept of it: the response costs only the encoding of the rest,
 * and a transport that writes the parts as they are never measures or converts the long one.
 */
export function encodeResponseInParts(
  response: JsonRpcResponse,
  onFailure?: (error: unknown) => void,
): EncodedResponse {
  try {
    if ('result' in response) {
      if (droppedByJson(response.result)) throw new TypeError(`a ${typeof response.result} result has no JSON form`);
      const parts = encodeWithKnownJson(response);
      if (parts !== undefined) return parts;
    }
    return JSON.stringify(response);
  } catch (error) {
    onFailure?.(error);
    return JSON.stringify(errorResponse(response.id, internalError()));
  }
}

/** The whole text of an encoded response. */
export function jsonText(encoded: EncodedResponse): string {
  return typeof encoded === 'string' ? encoded : joinJsonParts(encoded);
}

/** The values `JSON.stringify` silently leaves out of an object. */
function droppedByJson(value: unknown): boolean {
  return value === undefined || typeof value === 'function' || typeof value === 'symbol';
}

/** Serialises one message or a batch of them. */
export function encodeMessage(message: JsonRpcMessage | readonly JsonRpcMessage[]): string {
  return JSON.stringify(message);
}

export function successResponse(id: RequestId, result: unknown): JsonRpcSuccess {
  return { jsonrpc: '2.0', id, result };
}

export function notificationMessage(method: string, params?: JsonRpcParams): JsonRpcNotification {
  return params === undefined ? { jsonrpc: '2.0', method } : { jsonrpc: '2.0', method, params };
}

export function requestMessage(id: RequestId, method: string, params?: JsonRpcParams): JsonRpcRequest {
  return params === undefined ? { jsonrpc: '2.0', id, method } : { jsonrpc: '2.0', id, method, params };
}
