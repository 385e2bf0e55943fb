import fc from 'fast-check';
import {
  decodeBody,
  decodeMessage,
  decodeValue,
  encodeMessage,
  encodeResponse,
  encodeResponseInParts,
  jsonText,
  notificationMessage,
  requestMessage,
  successResponse,
  type DecodedBody,
  type DecodedMessage,
} from './json-rpc.codec.js';
import { ErrorCode } from './json-rpc.errors.js';
import type { JsonRpcFailure, JsonRpcMessage, JsonRpcResponse, RequestId } from './json-rpc.types.js';
import { withKnownJson } from './known-json.js';

/** Any UTF-16 code unit, lone surrogates included: what a body decoded from broken UTF-8 may hold. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const anyText = fc.oneof(
  fc.string({ unit: codeUnit, maxLength: 120 }),
  fc.string({ unit: 'binary', maxLength: 120 }),
  fc.json({ maxDepth: 4 }),
);
/** Values a host body parser may hand over, and worse: boxed values, Maps, null prototypes. */
const anyValue = fc.anything({
  maxDepth: 4,
  withBoxedValues: true,
  withMap: true,
  withSet: true,
  withNullPrototype: true,
  withObjectString: true,
  withSparseArray: true,
});
const json = fc.jsonValue({ maxDepth: 3 });
const requestId: fc.Arbitrary<RequestId> = fc.oneof(fc.string({ maxLength: 20 }), fc.maxSafeInteger());
const params = fc.option(fc.dictionary(fc.string({ maxLength: 10 }), json, { maxKeys: 5 }), { nil: undefined });
const method = fc.string({ maxLength: 30 });

const request = fc.tuple(requestId, method, params).map(([id, name, p]) => requestMessage(id, name, p));
const notification = fc.tuple(method, params).map(([name, p]) => notificationMessage(name, p));
const success = fc.tuple(requestId, json).map(([id, result]) => successResponse(id, result));
const failure: fc.Arbitrary<JsonRpcFailure> = fc
  .record({
    id: fc.option(requestId, { nil: null }),
    code: fc.integer(),
    message: fc.string({ maxLength: 30 }),
    data: fc.option(json, { nil: undefined }),
  })
  .map(({ id, code, message, data }) => ({
    jsonrpc: '2.0',
    id,
    error: data === undefined ? { code, message } : { code, message, data },
  }));
const message: fc.Arbitrary<JsonRpcMessage> = fc.oneof(request, notification, success, failure);

const kindOf = (m: JsonRpcMessage): DecodedMessage['kind'] =>
  'method' in m ? ('id' in m ? 'request' : 'notification') : 'response';

/** Every error a decoding earns: -32700 for the body, -32600 for a message. */
function errorsOf(body: DecodedBody): JsonRpcFailure[] {
  if (body.kind === 'error') return [body.error];
  const entries = body.kind === 'single' ? [body.entry] : body.entries;
  return entries.flatMap((entry) => (entry.kind === 'invalid' ? [entry.error] : []));
}

const isWellFormedError = (error: JsonRpcFailure): boolean =>
  error.jsonrpc === '2.0' &&
  (error.error.code === ErrorCode.ParseError || error.error.code === ErrorCode.InvalidRequest) &&
  (error.id === null || typeof error.id === 'string' || Number.isSafeInteger(error.id));

describe('JSON-RPC codec properties', () => {
  it('decodeBody never throws on any text, and every error it earns is -32700 or -32600 with a readable id', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        const body = decodeBody(text);
        expect(['single', 'batch', 'error']).toContain(body.kind);
        expect(errorsOf(body).every(isWellFormedError)).toBe(true);
        // What JSON.parse refuses, and only that, is a parse error.
        let parses = true;
        try {
          JSON.parse(text);
        } catch {
          parses = false;
        }
        expect(body.kind === 'error' && body.error.error.code === ErrorCode.ParseError).toBe(!parses);
      }),
      { numRuns: 200 },
    );
  });

  it('decodeValue never throws on any value a body parser could hand over, and never answers with an unsafe id', () => {
    fc.assert(
      fc.property(anyValue, (value) => {
        const body = decodeValue(value);
        expect(errorsOf(body).every(isWellFormedError)).toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('decodeMessage keeps a valid message as it is, and answers an invalid one with its own id or null, never another', () => {
    fc.assert(
      fc.property(fc.oneof(anyValue, message), (value) => {
        const entry = decodeMessage(value);
        if (entry.kind !== 'invalid') {
          expect(entry.message).toBe(value);
          return;
        }
        const { id } = entry.error;
        if (id !== null) expect(id).toBe((value as { id: unknown }).id);
      }),
      { numRuns: 200 },
    );
  });

  it('decode(encode(m)) round-trips every valid message, its id and kind included', () => {
    fc.assert(
      fc.property(message, (m) => {
        const body = decodeBody(encodeMessage(m));
        expect(body.kind).toBe('single');
        const { entry } = body as Extract<DecodedBody, { kind: 'single' }>;
        expect(entry.kind).toBe(kindOf(m));
        expect((entry as { message: JsonRpcMessage }).message).toStrictEqual(JSON.parse(JSON.stringify(m)));
        if ('id' in m) expect((entry as { message: { id: unknown } }).message.id).toBe(m.id);
      }),
      { numRuns: 200 },
    );
  });

  it('a non-empty batch round-trips entry by entry, in order', () => {
    fc.assert(
      fc.property(fc.array(message, { minLength: 1, maxLength: 8 }), (batch) => {
        const body = decodeBody(encodeMessage(batch));
        expect(body.kind).toBe('batch');
        const { entries } = body as Extract<DecodedBody, { kind: 'batch' }>;
        expect(entries.map((entry) => entry.kind)).toStrictEqual(batch.map(kindOf));
      }),
      { numRuns: 150 },
    );
  });

  it('an id that is not a safe integer or a string is never echoed', () => {
    const unsafeId = fc.oneof(
      fc.double().filter((n) => !Number.isSafeInteger(n)),
      fc.constantFrom(null, true, false),
      fc.constant(2 ** 53),
      fc.array(fc.integer(), { maxLength: 2 }),
    );
    fc.assert(
      fc.property(unsafeId, method, (id, name) => {
        const entry = decodeMessage({ jsonrpc: '2.0', id, method: name });
        expect(entry.kind).toBe('invalid');
        expect((entry as Extract<DecodedMessage, { kind: 'invalid' }>).error.id).toBeNull();
      }),
      { numRuns: 200 },
    );
  });

  it('encodeResponse of any JSON result parses back to the response', () => {
    fc.assert(
      fc.property(fc.oneof(success, failure), (response: JsonRpcResponse) => {
        expect(JSON.parse(encodeResponse(response))).toStrictEqual(JSON.parse(JSON.stringify(response)));
      }),
      { numRuns: 200 },
    );
  });

  it('encodeResponse never throws on a result JSON cannot hold: it answers an internal error for the same id', () => {
    const unencodable = fc.oneof(
      fc.bigInt().map((n) => ({ n })),
      fc.constantFrom<unknown>(undefined, () => 1, Symbol('s')),
      fc.constant(null).map(() => {
        const cycle: Record<string, unknown> = {};
        cycle.self = cycle;
        return cycle;
      }),
    );
    fc.assert(
      fc.property(requestId, unencodable, (id, result) => {
        const failures: unknown[] = [];
        const text = encodeResponse(successResponse(id, result), (error) => failures.push(error));
        expect(JSON.parse(text)).toStrictEqual({
          jsonrpc: '2.0',
          id,
          error: { code: ErrorCode.InternalError, message: 'Internal error' },
        });
        expect(failures).toHaveLength(1);
      }),
      { numRuns: 100 },
    );
  });

  it('a response whose result holds a value of known JSON encodes, in parts, to the bytes JSON.stringify gives', () => {
    const known = fc
      .array(fc.dictionary(fc.string({ maxLength: 6 }), json, { maxKeys: 3 }), { maxLength: 4 })
      .map((items) => withKnownJson(Object.freeze(items), JSON.stringify(items)).value);
    const rest = fc.dictionary(fc.string({ maxLength: 8 }), json, { maxKeys: 3 });
    fc.assert(
      fc.property(requestId, fc.string({ maxLength: 8 }), known, rest, (id, key, items, others) => {
        const response = successResponse(id, { [key]: items, ...others });
        expect(jsonText(encodeResponseInParts(response))).toBe(JSON.stringify(response));
      }),
      { numRuns: 200 },
    );
  });
});
