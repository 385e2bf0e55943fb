import fc from 'fast-check';
import { decodeHeaderValue, encodeHeaderValue, readHeader } from './header-value.js';

const PREFIX = '=?base64?';
const SUFFIX = '?=';
/** What RFC 9110 lets a field value hold: visible ASCII, space and tab. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;

/** Any UTF-16 code unit, lone surrogates included. */
const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
/** Strings of well-formed Unicode: any code point, astral ones included, but no lone surrogate. */
const unicode = fc.string({ unit: 'binary', maxLength: 60 });
const fieldChar = fc.constantFrom(...'\t !"#$%&\'()*+,-./09:;<=>?@AZ[\\]^_`az{|}~');
const BASE64_ALPHABET = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/';
/** The base64 of a value's UTF-8, with one character changed: its pad bits, often (two spellings of the same bytes). */
const tamperedBase64 = fc.tuple(unicode, fc.nat(), fc.constantFrom(...BASE64_ALPHABET)).map(([value, at, char]) => {
  const encoded = Buffer.from(value, 'utf8').toString('base64');
  const data = encoded.replace(/=+$/, '');
  if (data.length === 0) return encoded;
  // The last data character carries the pad bits; any other position is picked now and then.
  const position = at % 3 === 0 ? at % data.length : data.length - 1;
  return data.slice(0, position) + char + encoded.slice(position + 1);
});
/** A sentinel, well formed or nearly so: the shapes a client (or an attacker) may send. */
const sentinel = fc
  .oneof(
    unicode.map((value) => Buffer.from(value, 'utf8').toString('base64')),
    tamperedBase64,
    fc.base64String({ maxLength: 40 }),
    fc.string({ unit: fc.constantFrom(...'AQZaqz09+/=-_ ?'), maxLength: 40 }),
    fc.uint8Array({ maxLength: 30 }).map((bytes) => Buffer.from(bytes).toString('base64')),
  )
  .map((encoded) => `${PREFIX}${encoded}${SUFFIX}`);
const anyRaw = fc.oneof(
  fc.string({ unit: codeUnit, maxLength: 60 }),
  fc.string({ unit: fieldChar, maxLength: 60 }),
  sentinel,
  fc.string({ unit: fc.constantFrom('=', '?', 'b', 'a', 's', 'e', '6', '4'), maxLength: 20 }),
);

describe('header value properties', () => {
  it('decodeHeaderValue never throws on any string: a string or undefined', () => {
    fc.assert(
      fc.property(anyRaw, (raw) => {
        const decoded = decodeHeaderValue(raw);
        expect(decoded === undefined || typeof decoded === 'string').toBe(true);
      }),
      { numRuns: 200 },
    );
  });

  it('a value with a character a field value may not hold never decodes', () => {
    fc.assert(
      fc.property(anyRaw, codeUnit, fc.nat(), (raw, char, at) => {
        fc.pre(!FIELD_VALUE.test(char));
        const position = at % (raw.length + 1);
        expect(decodeHeaderValue(raw.slice(0, position) + char + raw.slice(position))).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('encodeHeaderValue always writes a valid field value, without leading or trailing whitespace', () => {
    fc.assert(
      fc.property(fc.oneof(unicode, fc.string({ unit: codeUnit, maxLength: 60 })), (value) => {
        const header = encodeHeaderValue(value);
        expect(header).toMatch(FIELD_VALUE);
        expect(header).toBe(header.trim());
      }),
      { numRuns: 200 },
    );
  });

  it('decode(encode(v)) === v for any well-formed Unicode string', () => {
    fc.assert(
      fc.property(fc.oneof(unicode, fc.string({ unit: fieldChar, maxLength: 60 }), sentinel), (value) => {
        expect(decodeHeaderValue(encodeHeaderValue(value))).toBe(value);
      }),
      { numRuns: 200 },
    );
  });

  it('a sentinel decodes only from its canonical spelling: re-encoding what it gives spells it again', () => {
    fc.assert(
      fc.property(sentinel, (raw) => {
        const decoded = decodeHeaderValue(raw);
        if (decoded === undefined) return;
        const canonical = `${PREFIX}${Buffer.from(decoded, 'utf8').toString('base64')}${SUFFIX}`;
        expect(raw).toBe(canonical);
      }),
      { numRuns: 200 },
    );
  });

  it('readHeader never throws, and joins repeated values so that a second one never matches one of them alone', () => {
    const value = fc.string({ unit: fieldChar, minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(
        fc.string({ maxLength: 10 }),
        fc.oneof(fc.constant(undefined), value, fc.array(value, { minLength: 2, maxLength: 4 })),
        (name, sent) => {
          const read = readHeader({ [name]: sent }, name);
          if (Array.isArray(sent)) {
            expect(read).toBe(sent.join(', '));
            expect(sent).not.toContain(read);
          } else {
            expect(read).toBe(sent);
          }
        },
      ),
      { numRuns: 200 },
    );
  });
});
