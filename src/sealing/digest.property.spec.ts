import fc from 'fast-check';
import { ErrorCode, JsonRpcError } from '../protocol/json-rpc.errors.js';
import { canonicalJson, digestOf, MAX_DIGEST_DEPTH } from './digest.js';

const json = fc.jsonValue({ maxDepth: 4 });

/** The same value with the keys of every object in another order (integer-like keys stay first, as JS orders them). */
function reordered(value: unknown, order: (keys: string[]) => string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => reordered(item, order));
  if (typeof value !== 'object' || value === null) return value;
  const record = value as Record<string, unknown>;
  return Object.fromEntries(order(Object.keys(record)).map((key) => [key, reordered(record[key], order)]));
}

/** `levels` arrays and objects nested alternately around a 0. */
function nested(levels: number): unknown {
  let value: unknown = 0;
  for (let level = 0; level < levels; level++) value = level % 2 === 0 ? [value] : { a: value };
  return value;
}

describe('digest properties', () => {
  it('canonicalJson is JSON of the same value: it parses back to it', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(JSON.parse(canonicalJson(value))).toStrictEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 200 },
    );
  });

  it('the digest does not depend on the order of object keys', () => {
    fc.assert(
      fc.property(json, fc.nat(), (value, seed) => {
        const rotate = (keys: string[]): string[] => {
          const by = keys.length === 0 ? 0 : seed % keys.length;
          return [...keys.slice(by), ...keys.slice(0, by)];
        };
        const reversed = (keys: string[]): string[] => [...keys].reverse();
        expect(digestOf(reordered(value, rotate))).toBe(digestOf(value));
        expect(digestOf(reordered(value, reversed))).toBe(digestOf(value));
      }),
      { numRuns: 200 },
    );
  });

  it('any nesting is digested up to the limit, and refused past it with -32602 only (never a stack overflow)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: 50_000 }), (levels) => {
        let outcome: unknown;
        try {
          outcome = digestOf(nested(levels));
        } catch (error) {
          outcome = error;
        }
        if (levels <= MAX_DIGEST_DEPTH) {
          expect(typeof outcome).toBe('string');
        } else {
          expect(outcome).toBeInstanceOf(JsonRpcError);
          expect((outcome as JsonRpcError).code).toBe(ErrorCode.InvalidParams);
        }
      }),
      { numRuns: 100, examples: [[MAX_DIGEST_DEPTH], [MAX_DIGEST_DEPTH + 1], [50_000]] },
    );
  });
});
