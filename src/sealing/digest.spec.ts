import { createHash } from 'node:crypto';
import { JsonRpcError } from '../protocol/json-rpc.errors.js';
import { canonicalJson, digestOf, MAX_DIGEST_DEPTH } from './digest.js';
import { thrownBy } from '../../test/utils/thrown.js';

const sha256 = (text: string): string => createHash('sha256').update(text).digest('base64url');

/** `levels` arrays and objects nested alternately around a 0: its innermost value is `levels` deep. */
function nested(levels: number): unknown {
  let value: unknown = 0;
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

describe('canonicalJson', () => {
  it('sorts object keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe(
      '{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}',
    );
  });

  it('keeps the order of arrays', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
  });

  it('writes scalars as JSON does', () => {
    expect(canonicalJson('a"b\n')).toBe('"a\\"b\\n"');
    expect(canonicalJson(1.5)).toBe('1.5');
    expect(canonicalJson(true)).toBe('true');
    expect(canonicalJson(null)).toBe('null');
    expect(canonicalJson('é')).toBe('"é"');
  });

  it('escapes keys as JSON does', () => {
    expect(canonicalJson({ 'a"b': 1, '\n': 2 })).toBe('{"\\n":2,"a\\"b":1}');
  });

  it('leaves out properties that are undefined', () => {
    expect(canonicalJson({ a: 1, b: undefined, c: { d: undefined } })).toBe('{"a":1,"c":{}}');
  });

  it('writes values JSON cannot hold as null', () => {
    expect(canonicalJson(undefined)).toBe('null');
    expect(canonicalJson([undefined, () => 1, Symbol('s')])).toBe('[null,null,null]');
    expect(canonicalJson(Number.NaN)).toBe('null');
  });

  it('writes empty containers', () => {
    expect(canonicalJson({})).toBe('{}');
    expect(canonicalJson([])).toBe('[]');
  });

  it(`writes values nested ${MAX_DIGEST_DEPTH} levels deep`, () => {
    expect(MAX_DIGEST_DEPTH).toBe(256);
    const deepest = nested(MAX_DIGEST_DEPTH);
    expect(canonicalJson(deepest)).toBe(JSON.stringify(deepest));
  });

  it('refuses one level deeper with -32602, arrays and objects alike', () => {
    for (const value of [nested(MAX_DIGEST_DEPTH + 1), { top: nested(MAX_DIGEST_DEPTH) }]) {
      const error = thrownBy(() => canonicalJson(value));
      expect(error).toBeInstanceOf(JsonRpcError);
      expect((error as JsonRpcError).code).toBe(-32602);
      expect(error.message).toBe('Invalid params: arguments are nested deeper than 256 levels');
    }
  });
});

describe('digestOf', () => {
  it('is the base64url SHA-256 of the canonical JSON', () => {
    expect(digestOf({ b: 1, a: 2 })).toBe(sha256('{"a":2,"b":1}'));
    expect(digestOf({})).toBe(sha256('{}'));
    expect(digestOf({})).toMatch(/^[A-Za-z0-9_-]{43}$/);
  });

  it('does not depend on the order of keys, at any depth', () => {
    const one = { city: 'Paris', options: { units: 'metric', days: 3, extra: { a: 1, b: [{ x: 1, y: 2 }] } } };
    const two = { options: { extra: { b: [{ y: 2, x: 1 }], a: 1 }, days: 3, units: 'metric' }, city: 'Paris' };
    expect(digestOf(one)).toBe(digestOf(two));
  });

  it('does not count properties that are undefined', () => {
    expect(digestOf({ a: 1, b: undefined })).toBe(digestOf({ a: 1 }));
  });

  it('depends on every value', () => {
    const base = digestOf({ city: 'Paris', days: 3 });
    expect(digestOf({ city: 'Paris', days: 4 })).not.toBe(base);
    expect(digestOf({ city: 'paris', days: 3 })).not.toBe(base);
    expect(digestOf({ city: 'Paris', days: '3' })).not.toBe(base);
    expect(digestOf({ city: 'Paris', days: 3, extra: null })).not.toBe(base);
    expect(digestOf({ city: 'Paris' })).not.toBe(base);
    expect(digestOf({ City: 'Paris', days: 3 })).not.toBe(base);
  });

  it('depends on the order of arrays', () => {
    expect(digestOf({ a: [1, 2] })).not.toBe(digestOf({ a: [2, 1] }));
  });

  it('refuses with -32602, not a stack overflow, arguments nested far deeper than any real call', () => {
    const error = thrownBy(() => digestOf({ deep: nested(100_000) }));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32602);
  });

  it('tells nesting apart from keys that look alike', () => {
    expect(digestOf({ 'a.b': 1 })).not.toBe(digestOf({ a: { b: 1 } }));
    expect(digestOf({ a: '1,"b":2' })).not.toBe(digestOf({ a: 1, b: 2 }));
  });
});
