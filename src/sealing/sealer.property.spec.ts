import fc from 'fast-check';
import { MIN_SECRET_BYTES, Sealer } from './sealer.js';

const BASE64URL = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
const json = fc.jsonValue({ maxDepth: 3 });
const purpose = fc.string({ maxLength: 16 });
const secret = fc.oneof(
  fc.uint8Array({ minLength: MIN_SECRET_BYTES, maxLength: 48 }),
  fc.string({ unit: 'binary', minLength: MIN_SECRET_BYTES, maxLength: 40 }),
);
const bytesOf = (value: string | Uint8Array): Buffer =>
  typeof value === 'string' ? Buffer.from(value, 'utf8') : Buffer.from(value);
/** Two secrets that derive different keys. */
const twoSecrets = fc.tuple(secret, secret).filter(([a, b]) => !bytesOf(a).equals(bytesOf(b)));

/**
 * One edit of a sealed text: a character replaced (by one of base64url or by anything), inserted or
 * removed, the text cut short or lengthened. Never the text itself.
 */
type Tamper = (sealed: string) => string;
const tamper: fc.Arbitrary<Tamper> = fc.oneof(
  fc
    .tuple(fc.nat(), fc.oneof(fc.constantFrom(...BASE64URL, '=', '+', '/', '.'), codeUnit))
    .map(([at, char]): Tamper => (sealed) => {
      const i = at % sealed.length;
      const replacement = char === sealed[i] ? (char === 'A' ? 'B' : 'A') : char;
      return sealed.slice(0, i) + replacement + sealed.slice(i + 1);
    }),
  fc
    .tuple(fc.nat(), fc.oneof(fc.constantFrom(...BASE64URL, '=', ' ', '\n'), codeUnit))
    .map(([at, char]): Tamper => (sealed) => {
      const i = at % (sealed.length + 1);
      return sealed.slice(0, i) + char + sealed.slice(i);
    }),
  fc.nat().map((at): Tamper => (sealed) => {
    const i = at % sealed.length;
    return sealed.slice(0, i) + sealed.slice(i + 1);
  }),
  fc.nat().map(
    (keep): Tamper =>
      (sealed) =>
        sealed.slice(0, keep % sealed.length),
  ),
  fc.string({ unit: fc.constantFrom(...BASE64URL), minLength: 1, maxLength: 4 }).map(
    (tail): Tamper =>
      (sealed) =>
        sealed + tail,
  ),
);

const asJson = (value: unknown): unknown => JSON.parse(JSON.stringify(value));

describe('Sealer properties', () => {
  const sealer = Sealer.fromSecret('a property-test secret, 32 bytes');

  it('open(seal(v)) round-trips any JSON value, for any purpose', () => {
    fc.assert(
      fc.property(purpose, json, (p, value) => {
        expect(sealer.open(p, sealer.seal(p, value))).toStrictEqual(asJson(value));
      }),
      { numRuns: 200 },
    );
  });

  it('any single edit of a seal never opens, and never throws', () => {
    fc.assert(
      fc.property(purpose, json, tamper, (p, value, edit) => {
        const sealed = sealer.seal(p, value);
        const tampered = edit(sealed);
        fc.pre(tampered !== sealed);
        expect(sealer.open(p, tampered)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('any flipped bit of the sealed bytes never opens', () => {
    fc.assert(
      fc.property(json, fc.nat(), fc.integer({ min: 0, max: 7 }), (value, at, bit) => {
        const bytes = Buffer.from(sealer.seal('p', value), 'base64url');
        bytes[at % bytes.length]! ^= 1 << bit;
        expect(sealer.open('p', bytes.toString('base64url'))).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('open never throws on any text, and opens none of it', () => {
    const text = fc.oneof(
      fc.string({ unit: codeUnit, maxLength: 80 }),
      fc.string({ unit: fc.constantFrom(...BASE64URL), maxLength: 120 }),
      fc.uint8Array({ maxLength: 80 }).map((bytes) => Buffer.from([1, ...bytes]).toString('base64url')),
    );
    fc.assert(
      fc.property(purpose, text, (p, sealed) => {
        expect(sealer.open(p, sealed)).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('a seal of one purpose never opens as another', () => {
    fc.assert(
      fc.property(purpose, purpose, json, (p, q, value) => {
        fc.pre(p !== q);
        expect(sealer.open(q, sealer.seal(p, value))).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('a seal made with one secret never opens with another', () => {
    fc.assert(
      fc.property(twoSecrets, json, ([a, b], value) => {
        expect(Sealer.fromSecret(b).open('p', Sealer.fromSecret(a).seal('p', value))).toBeUndefined();
      }),
      { numRuns: 100 },
    );
  });

  it('rotation: a seal of any secret of the list opens with the list, and the list seals with its first', () => {
    fc.assert(
      fc.property(fc.array(secret, { minLength: 1, maxLength: 4 }), fc.nat(), json, (secrets, pick, value) => {
        const rotated = Sealer.fromSecret(secrets);
        const old = secrets[pick % secrets.length]!;
        expect(rotated.open('p', Sealer.fromSecret(old).seal('p', value))).toStrictEqual(asJson(value));
        expect(Sealer.fromSecret(secrets[0]!).open('p', rotated.seal('p', value))).toStrictEqual(asJson(value));
      }),
      { numRuns: 100 },
    );
  });

  it('fromSecret refuses every secret shorter than 32 bytes with RangeError, and nothing else', () => {
    fc.assert(
      fc.property(
        fc.array(fc.oneof(secret, fc.uint8Array({ maxLength: 40 }), fc.string({ maxLength: 40 })), { maxLength: 4 }),
        (list) => {
          const short = list.length === 0 || list.some((s) => bytesOf(s).length < MIN_SECRET_BYTES);
          if (short) expect(() => Sealer.fromSecret(list)).toThrow(RangeError);
          else expect(() => Sealer.fromSecret(list)).not.toThrow();
        },
      ),
      { numRuns: 100 },
    );
  });
});
