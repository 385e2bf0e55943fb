import fc from 'fast-check';
import { ErrorCode, JsonRpcError } from '../protocol/json-rpc.errors.js';
import { Sealer } from '../sealing/sealer.js';
import { openRequestState, sealRequestState, type CarriedState, type StateBinding } from './request-state.js';

const sealer = Sealer.fromSecret('request-state property secret 32B');
const NOW = 1_700_000_000_000;
const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const json = fc.jsonValue({ maxDepth: 2 });

const binding: fc.Arbitrary<StateBinding> = fc.record({
  principal: fc.string({ unit: 'binary', maxLength: 16 }),
  item: fc.string({ unit: 'binary', maxLength: 24 }),
  args: fc.base64String({ minLength: 44, maxLength: 44 }),
});
const state: fc.Arbitrary<CarriedState> = fc.record({
  answers: fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 4 }),
  once: fc.dictionary(fc.string({ maxLength: 12 }), json, { maxKeys: 4 }),
  round: fc.nat({ max: 1000 }),
});
const ttl = fc.integer({ min: 1, max: 3_600_000 });

/** Opening: the carried state, or the one -32602 every refusal is (it never says which check failed). */
function opened(sealed: string, bound: StateBinding, now: number): CarriedState | 'refused' {
  try {
    return openRequestState(sealer, sealed, bound, now);
  } catch (error) {
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(ErrorCode.InvalidParams);
    expect((error as JsonRpcError).message).toBe(
      'Invalid params: requestState is not valid for this request (altered, expired, or of another request)',
    );
    return 'refused';
  }
}

describe('request state properties', () => {
  it('open(seal(s)) round-trips any state, for the same request before it expires', () => {
    fc.assert(
      fc.property(binding, state, ttl, fc.nat(), (bound, carried, life, wait) => {
        const sealed = sealRequestState(sealer, bound, carried, NOW + life);
        expect(opened(sealed, bound, NOW + (wait % life))).toStrictEqual(JSON.parse(JSON.stringify(carried)));
      }),
      { numRuns: 150 },
    );
  });

  it('a state never opens at or after its expiry', () => {
    fc.assert(
      fc.property(binding, state, ttl, fc.nat(), (bound, carried, life, late) => {
        const sealed = sealRequestState(sealer, bound, carried, NOW + life);
        expect(opened(sealed, bound, NOW + life + late)).toBe('refused');
      }),
      { numRuns: 100 },
    );
  });

  it('a state never opens for another principal, item or arguments', () => {
    fc.assert(
      fc.property(
        binding,
        binding,
        fc.constantFrom('principal', 'item', 'args'),
        state,
        (bound, other, field, carried) => {
          fc.pre(bound[field] !== other[field]);
          const sealed = sealRequestState(sealer, bound, carried, NOW + 60_000);
          expect(opened(sealed, { ...bound, [field]: other[field] }, NOW)).toBe('refused');
        },
      ),
      { numRuns: 200 },
    );
  });

  it('any single character of a sealed state changed, added or removed never opens', () => {
    const edit = fc.tuple(
      fc.constantFrom('replace', 'insert', 'remove'),
      fc.nat(),
      fc.oneof(fc.constantFrom(...BASE64URL), codeUnit),
    );
    fc.assert(
      fc.property(binding, state, edit, (bound, carried, [kind, at, char]) => {
        const sealed = sealRequestState(sealer, bound, carried, NOW + 60_000);
        const i = at % sealed.length;
        const tampered =
          kind === 'replace'
            ? sealed.slice(0, i) + char + sealed.slice(i + 1)
            : kind === 'insert'
              ? sealed.slice(0, i) + char + sealed.slice(i)
              : sealed.slice(0, i) + sealed.slice(i + 1);
        fc.pre(tampered !== sealed);
        expect(opened(tampered, bound, NOW)).toBe('refused');
      }),
      { numRuns: 200 },
    );
  });

  it('openRequestState throws nothing but the -32602 on any text a client may echo', () => {
    const text = fc.oneof(
      fc.string({ unit: codeUnit, maxLength: 80 }),
      fc.string({ unit: fc.constantFrom(...BASE64URL), maxLength: 200 }),
      // What the same deployment sealed for another purpose, or with a payload of another shape.
      json.map((value) => sealer.seal('request-state', value)),
      json.map((value) => sealer.seal('cursor', value)),
    );
    fc.assert(
      fc.property(text, binding, (sealed, bound) => {
        expect(opened(sealed, bound, NOW)).toBe('refused');
      }),
      { numRuns: 200 },
    );
  });
});
