import { encodeResponse, encodeResponseInParts, jsonText, successResponse } from './json-rpc.codec.js';
import { encodeWithKnownJson, joinJsonParts, withKnownJson, type JsonInParts } from './known-json.js';
import type { JsonRpcSuccess } from './json-rpc.types.js';

const tools = () =>
  Object.freeze([
    Object.freeze({ name: 'echo', description: 'Says "it" back\n', inputSchema: { type: 'object' } }),
    Object.freeze({ name: 'ünïcode ☃', description: '\u2028 and \u0000', inputSchema: { type: 'object' } }),
  ]);

/** A page whose JSON is recorded, as the list pages of the server are. */
const known = () => {
  const page = tools();
  return withKnownJson(page, JSON.stringify(page)).value;
};

/** The bytes of JSON in parts, as a transport writes them. */
const bytesOf = ({ head, known: middle, tail }: JsonInParts): Buffer =>
  Buffer.concat([Buffer.from(head), middle, Buffer.from(tail)]);

describe('encodeWithKnownJson', () => {
  it.each<[string, Record<string, unknown>]>([
    ['the known member alone', { tools: known() }],
    ['a cursor after it', { tools: known(), nextCursor: 'abc.def' }],
    [
      'what the modern era stamps on a result',
      {
        tools: known(),
        nextCursor: 'x',
        resultType: 'complete',
        _meta: { 'io.modelcontextprotocol/serverInfo': { name: 's', version: '1' } },
        ttlMs: 0,
        cacheScope: 'private',
      },
    ],
    ['members JSON leaves out', { tools: known(), gone: undefined, fn: () => 1, [Symbol('s')]: 1 }],
  ])('gives exactly the bytes of JSON.stringify: %s', (_label, result) => {
    for (const id of [1, 'a"b', 0, 9007199254740991]) {
      const response = successResponse(id, result);
      const parts = encodeWithKnownJson(response)!;
      expect(bytesOf(parts).equals(Buffer.from(JSON.stringify(response)))).toBe(true);
      expect(joinJsonParts(parts)).toBe(JSON.stringify(response));
      expect(encodeResponseInParts(response)).toEqual(parts);
      expect(jsonText(encodeResponseInParts(response))).toBe(JSON.stringify(response));
      expect(encodeResponse(response)).toBe(JSON.stringify(response));
    }
  });

  it('does not apply when the first member has no known text', () => {
    expect(encodeWithKnownJson(successResponse(1, { tools: tools() }))).toBeUndefined();
    expect(encodeWithKnownJson(successResponse(1, { nextCursor: 'c', tools: known() }))).toBeUndefined();
    expect(encodeWithKnownJson(successResponse(1, {}))).toBeUndefined();
    expect(encodeWithKnownJson(successResponse(1, known()))).toBeUndefined();
  });

  it('does not apply to what JSON.stringify would encode otherwise', () => {
    const page = known();
    const selfEncoding = { tools: page, toJSON: () => ({ other: true }) };
    expect(encodeWithKnownJson(successResponse(1, selfEncoding))).toBeUndefined();
    expect(encodeResponse(successResponse(1, selfEncoding))).toBe('{"jsonrpc":"2.0","id":1,"result":{"other":true}}');
    const extra = { jsonrpc: '2.0', id: 1, result: { tools: page }, more: 1 } as unknown as JsonRpcSuccess;
    expect(encodeWithKnownJson(extra)).toBeUndefined();
    const reordered = { id: 1, jsonrpc: '2.0', result: { tools: page } } as unknown as JsonRpcSuccess;
    expect(encodeWithKnownJson(reordered)).toBeUndefined();
  });

  it('records how many bytes the JSON has', () => {
    const page = tools();
    const json = JSON.stringify(page);
    expect(withKnownJson(page, json)).toEqual({ value: page, bytes: Buffer.byteLength(json) });
  });

  it('fails as JSON.stringify does when the rest cannot be encoded, and encodeResponse answers -32603', () => {
    const response = successResponse(7, { tools: known(), size: 10n });
    expect(() => encodeWithKnownJson(response)).toThrow(TypeError);
    const failures: unknown[] = [];
    expect(JSON.parse(encodeResponse(response, (error) => failures.push(error)))).toEqual({
      jsonrpc: '2.0',
      id: 7,
      error: { code: -32603, message: 'Internal error' },
    });
    expect(failures).toHaveLength(1);
  });
});
