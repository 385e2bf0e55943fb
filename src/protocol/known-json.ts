import type { JsonRpcSuccess } from './json-rpc.types.js';

/**
 * Values whose JSON is known already, by identity, as UTF-8 bytes: a page of a list, encoded once
 * and then served to every caller who sees that page. A page of 100 tools with large schemas is
 * half a megabyte of JSON: `JSON.stringify` of it was most of what a listing cost, and measuring
 * and converting the text to bytes again on every write most of the rest. Only deep-frozen values
 * may be recorded: what is known of them can never go stale.
 */
const known = new WeakMap<object, Uint8Array>();
const utf8 = new TextEncoder();
const text = new TextDecoder();

/**
 * Records that `value` encodes to `json` (`JSON.stringify(value)`), and returns it.
 * @param value deep-frozen: nothing may change it once its JSON is recorded.
 * @returns the value, and how many bytes its JSON has.
 */
export function withKnownJson<T extends object>(value: T, json: string): { value: T; bytes: number } {
  const bytes = utf8.encode(json);
  known.set(value, bytes);
  return { value, bytes: bytes.length };
}

/**
 * A response's JSON in three parts: what precedes a member whose JSON is known, that JSON (bytes),
 * and what follows it. `head + known + tail` is the text `JSON.stringify` gives, byte for byte.
 */
export interface JsonInParts {
  readonly head: string;
  readonly known: Uint8Array;
  readonly tail: string;
}

/**
 * The JSON of `response` in parts, when its result's first member is a value whose JSON is known:
 * that member costs nothing to encode, the rest of the result (a `nextCursor`, what an era adds to
 * every result) is encoded as usual, after it, so the bytes are those of `JSON.stringify`, member
 * order included. `undefined` otherwise (or when the response is not the plain `{ jsonrpc, id,
 * result }` object this would encode the same).
 * @throws what `JSON.stringify` throws for the rest of the response.
 */
export function encodeWithKnownJson(response: JsonRpcSuccess): JsonInParts | undefined {
  const { result } = response;
  if (typeof result !== 'object' || result === null || Array.isArray(result) || 'toJSON' in result) return undefined;
  // The first own key without listing them all: this runs for every response, and most have none known.
  let first: string | undefined;
  for (const key in result) {
    if (Object.hasOwn(result, key)) first = key;
    break;
  }
  if (first === undefined) return undefined;
  const value = (result as Record<string, unknown>)[first];
  const bytes = typeof value === 'object' && value !== null ? known.get(value) : undefined;
  if (bytes === undefined || !isPlainSuccess(response)) return undefined;
  const { [first]: _known, ...rest } = result as Record<string, unknown>;
  const restJson = JSON.stringify(rest);
  return {
    head: `{"jsonrpc":${JSON.stringify(response.jsonrpc)},"id":${JSON.stringify(response.id)},"result":{${JSON.stringify(first)}:`,
    known: bytes,
    tail: `${restJson === '{}' ? '' : `,${restJson.slice(1, -1)}`}}}`,
  };
}

/** The whole text of a JSON in parts (for what must be one string: a batch, an SSE event). */
export function joinJsonParts({ head, known: bytes, tail }: JsonInParts): string {
  return head + text.decode(bytes) + tail;
}

/** Exactly the members `jsonrpc`, `id` and `result`, in that order, and nothing that encodes itself. */
function isPlainSuccess(response: JsonRpcSuccess): boolean {
  if ('toJSON' in response) return false;
  const keys = Object.keys(response);
  return keys.length === 3 && keys[0] === 'jsonrpc' && keys[1] === 'id' && keys[2] === 'result';
}
