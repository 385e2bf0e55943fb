import { decodeHeaderValue, encodeHeaderValue } from './header-value.js';

/** The sentinel form of raw bytes, built here without the code under test. */
const sentinelOfBytes = (bytes: number[]): string => `=?base64?${Buffer.from(bytes).toString('base64')}?=`;

/** The "Encoding examples" table of streamable-http.mdx, "Value Encoding" (2026-07-28). */
const SPEC_EXAMPLES: ReadonlyArray<readonly [string, string, string]> = [
  ['plain ASCII', 'us-west1', 'us-west1'],
  ['non-ASCII', 'Hello, 世界', '=?base64?SGVsbG8sIOS4lueVjA==?='],
  ['leading and trailing spaces', ' padded ', '=?base64?IHBhZGRlZCA=?='],
  ['a newline', 'line1\nline2', '=?base64?bGluZTEKbGluZTI=?='],
  ['the sentinel pattern', '=?base64?literal?=', '=?base64?PT9iYXNlNjQ/bGl0ZXJhbD89?='],
];

describe('the spec examples', () => {
  it.each(SPEC_EXAMPLES)('encodes a value with %s as the spec shows', (_reason, value, header) => {
    expect(encodeHeaderValue(value)).toBe(header);
  });

  it.each(SPEC_EXAMPLES)('decodes the header of a value with %s back to it', (_reason, value, header) => {
    expect(decodeHeaderValue(header)).toBe(value);
  });
});

describe('decodeHeaderValue: plain values', () => {
  it.each([
    'us-west1',
    'get_weather',
    'file:///projects/myapp/config.json',
    'a b',
    'tab\tinside',
    '42',
    '!"#$%&\'()*+,-./:;<=>?@[\\]^_`{|}~',
    '',
  ])('takes %p as it is', (value) => {
    expect(decodeHeaderValue(value)).toBe(value);
  });

  it.each([
    ['without the prefix', 'SGVsbG8='],
    ['without the suffix', '=?base64?SGVsbG8='],
    ['without the prefix but with the suffix', 'SGVsbG8=?='],
    ['with the markers in upper case', '=?BASE64?SGVsbG8=?='],
    ['with a mixed-case marker', '=?Base64?SGVsbG8=?='],
    ['with a space before the prefix', ' =?base64?SGVsbG8=?='],
    ['with the suffix overlapping the prefix', '=?base64?='],
  ])('takes a sentinel-looking value %s literally', (_label, value) => {
    expect(decodeHeaderValue(value)).toBe(value);
  });

  it.each([
    ['a line feed', 'a\nb'],
    ['a carriage return', 'a\rb'],
    ['CR LF', 'a\r\nX-Injected: 1'],
    ['NUL', 'a\u0000b'],
    ['DEL', 'a\u007fb'],
    ['a C1 control', 'a\u0085b'],
    ['a non-ASCII letter', 'café'],
    ['CJK', '世界'],
    ['an astral character', '🙂'],
  ])('refuses a raw value holding %s', (_label, value) => {
    expect(decodeHeaderValue(value)).toBeUndefined();
  });
});

describe('decodeHeaderValue: the base64 sentinel', () => {
  it('decodes valid base64', () => {
    expect(decodeHeaderValue('=?base64?SGVsbG8=?=')).toBe('Hello');
    expect(decodeHeaderValue('=?base64?SGVsbA==?=')).toBe('Hell');
    expect(decodeHeaderValue('=?base64?SGVs?=')).toBe('Hel');
  });

  it('decodes an empty payload to the empty string', () => {
    expect(decodeHeaderValue('=?base64??=')).toBe('');
  });

  it('decodes to values a header cannot carry plainly', () => {
    expect(decodeHeaderValue(sentinelOfBytes([0x09, 0x41, 0x0a, 0x00]))).toBe('\tA\n\u0000');
    expect(decodeHeaderValue(`=?base64?${Buffer.from('🙂 ok', 'utf8').toString('base64')}?=`)).toBe('🙂 ok');
  });

  it('decodes a value that itself looks like the sentinel only once', () => {
    expect(decodeHeaderValue('=?base64?PT9iYXNlNjQ/U0dWc2JHOD0/PQ==?=')).toBe('=?base64?SGVsbG8=?=');
  });

  it.each([
    ['missing padding', '=?base64?SGVsbG8?='],
    ['missing double padding', '=?base64?SGVsbA?='],
    ['too much padding', '=?base64?SGVsbG8==?='],
    ['padding in the middle', '=?base64?SG=sbG8=?='],
    ['a length that is not a multiple of 4', '=?base64?SGVsb?='],
    ['a single character', '=?base64?S?='],
    ['only padding', '=?base64?====?='],
  ])('refuses %s', (_label, value) => {
    expect(decodeHeaderValue(value)).toBeUndefined();
  });

  it.each([
    ['"!"', '=?base64?SGVs!!!bG8=?='],
    ['a space', '=?base64?SGVs bG8=?='],
    ['a tab', '=?base64?SGVs\tbG8=?='],
    ['the URL-safe "-"', '=?base64?-_-_?='],
    ['the URL-safe "_"', '=?base64?SGV_bG8=?='],
    ['a "?"', '=?base64?SGV?bG8=?='],
    ['a non-ASCII letter', '=?base64?SGVsbé8=?='],
  ])('refuses a payload with %s', (_label, value) => {
    expect(decodeHeaderValue(value)).toBeUndefined();
  });

  it.each([
    ['a lone continuation byte', [0x80]],
    ['0xFF', [0xff, 0xfe]],
    ['a truncated sequence', [0x48, 0xe4, 0xb8]],
    ['an overlong encoding', [0xc0, 0xaf]],
    ['an encoded surrogate', [0xed, 0xa0, 0x80]],
    ['Latin-1 text', [0x63, 0x61, 0x66, 0xe9]],
  ])('refuses a payload that is not UTF-8: %s', (_label, bytes) => {
    expect(decodeHeaderValue(sentinelOfBytes(bytes))).toBeUndefined();
  });

  it('does not strip a byte order mark (UTF-8 is decoded as it came)', () => {
    expect(decodeHeaderValue(sentinelOfBytes([0xef, 0xbb, 0xbf, 0x41]))).toBe('\ufeffA');
  });

  it('refuses a second spelling of the same bytes (pad bits that are not zero)', () => {
    // "SGVsbG8=" is "Hello"; "SGVsbG9=" differs only in the two pad bits of its last character.
    expect(decodeHeaderValue('=?base64?SGVsbG9=?=')).toBeUndefined();
    // "SGVsbA==" is "Hell"; "SGVsbB==" differs only in its four pad bits.
    expect(decodeHeaderValue('=?base64?SGVsbB==?=')).toBeUndefined();
  });
});

describe('encodeHeaderValue', () => {
  it.each(['us-west1', 'a b', 'x', 'file:///a/b?c=d#e', '42', 'true', '=?base64?', '?=', 'a=?base64?b?='])(
    'keeps %p plain',
    (value) => {
      expect(encodeHeaderValue(value)).toBe(value);
    },
  );

  it.each([
    ['a leading space', ' a', '=?base64?IGE=?='],
    ['a trailing space', 'a ', '=?base64?YSA=?='],
    ['a leading tab', '\ta', '=?base64?CWE=?='],
    ['only a space', ' ', '=?base64?IA==?='],
    ['a carriage return', 'a\rb', '=?base64?YQ1i?='],
    ['NUL', '\u0000', '=?base64?AA==?='],
    ['DEL', '\u007f', '=?base64?fw==?='],
    ['an accented letter', 'é', '=?base64?w6k=?='],
    ['an astral character', '🙂', '=?base64?8J+Zgg==?='],
    ['the shortest sentinel look-alike', '=?base64?=', '=?base64?PT9iYXNlNjQ/PQ==?='],
    ['an empty sentinel look-alike', '=?base64??=', '=?base64?PT9iYXNlNjQ/Pz0=?='],
  ])('encodes a value with %s', (_label, value, header) => {
    expect(encodeHeaderValue(value)).toBe(header);
  });

  it.each([
    '',
    'plain',
    ' padded ',
    'Hello, 世界',
    'line1\nline2',
    'tab\tinside',
    '\u0000\u0001\u001f\u007f\u0080\u009f',
    '=?base64?literal?=',
    '=?base64?SGVsbG8=?=',
    '=?base64??=',
    '=?base64?=',
    '🙂 emoji 👍🏽',
    'Ω≈ç√∫',
    '\ufeffBOM',
    Array.from({ length: 95 }, (_, i) => String.fromCharCode(0x20 + i)).join(''),
  ])('round-trips %p, and what it writes is a valid field value', (value) => {
    const header = encodeHeaderValue(value);
    expect(header).toMatch(/^[\t\x20-\x7e]*$/);
    expect(decodeHeaderValue(header)).toBe(value);
  });
});
