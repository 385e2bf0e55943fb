import { isAbsoluteUri, MAX_URI_LENGTH } from './uri.js';

/** A URI of exactly `length` characters, all ASCII. */
function uriOfLength(length: number): string {
  const head = 'file:///';
  return head + 'a'.repeat(length - head.length);
}

describe('MAX_URI_LENGTH', () => {
  it('is 8 KiB of characters', () => {
    expect(MAX_URI_LENGTH).toBe(8192);
  });
});

describe('isAbsoluteUri', () => {
  it.each([
    'file:///home/user/report.txt',
    'https://example.com/a?b=c#d',
    'weather://paris',
    'urn:isbn:0451450523',
    'mailto:someone@example.com',
    'data:text/plain;base64,SGVsbG8=',
    'a:',
    'x:y',
    'Z:',
    'git+ssh://host/repo.git',
    'my-scheme.v2+x://thing',
    'file:///%E2%82%AC',
  ])('accepts %s', (uri) => {
    expect(isAbsoluteUri(uri)).toBe(true);
  });

  it.each([
    ['Cyrillic path', 'https://пример.рф/документ'],
    ['CJK path', 'file:///文書/報告.txt'],
    ['an astral character', 'note://🙂'],
    ['accented Latin', 'docs://café/crème-brûlée'],
  ])('accepts an IRI with %s', (_label, uri) => {
    expect(isAbsoluteUri(uri)).toBe(true);
  });

  it.each([
    ['an empty string', ''],
    ['no scheme', '/etc/passwd'],
    ['a relative reference', 'docs/readme.md'],
    ['a network-path reference', '//example.com/x'],
    ['a colon first', ':foo'],
    ['a scheme starting with a digit', '1abc:foo'],
    ['a scheme starting with "+"', '+abc:foo'],
    ['an underscore in the scheme', 'my_scheme:foo'],
    ['a space in the scheme', 'my scheme:foo'],
    ['a non-ASCII scheme', 'ѕcheme:foo'],
    ['leading whitespace', ' file:///x'],
    ['trailing whitespace', 'file:///x '],
    ['a trailing newline', 'file:///x\n'],
    ['a space inside', 'file:///my file'],
    ['a tab inside', 'file:///a\tb'],
    ['a carriage return inside', 'file:///a\rb'],
    ['a no-break space inside', 'file:///a\u00a0b'],
    ['an ideographic space inside', 'file:///a\u3000b'],
    ['a line separator inside', 'file:///a\u2028b'],
    ['a byte-order mark inside', 'file:///a\ufeffb'],
    ['a NUL inside', 'file:///a\u0000b'],
    ['an ESC inside', 'file:///a\u001bb'],
    ['a unit separator inside', 'file:///a\u001fb'],
    ['a DEL inside', 'file:///a\u007fb'],
  ])('refuses %s', (_label, uri) => {
    expect(isAbsoluteUri(uri)).toBe(false);
  });

  // Documented as "no control characters"; C1 controls (U+0080–U+009F) are controls too, and RFC 3987
  // excludes them from IRIs (ucschar starts at U+00A0).
  it.each([
    ['U+0080', 'file:///a\u0080b'],
    ['NEL U+0085', 'file:///a\u0085b'],
    ['U+009F', 'file:///a\u009fb'],
  ])('refuses a C1 control character (%s)', (_label, uri) => {
    expect(isAbsoluteUri(uri)).toBe(false);
  });

  it.each([undefined, null, 42, true, {}, ['file:///x'], { toString: () => 'file:///x' }])(
    'refuses the non-string %p',
    (value) => {
      expect(isAbsoluteUri(value)).toBe(false);
    },
  );

  it('accepts a URI of exactly MAX_URI_LENGTH characters', () => {
    const uri = uriOfLength(MAX_URI_LENGTH);
    expect(uri).toHaveLength(MAX_URI_LENGTH);
    expect(isAbsoluteUri(uri)).toBe(true);
  });

  it('refuses a URI of MAX_URI_LENGTH + 1 characters', () => {
    const uri = uriOfLength(MAX_URI_LENGTH + 1);
    expect(uri).toHaveLength(MAX_URI_LENGTH + 1);
    expect(isAbsoluteUri(uri)).toBe(false);
  });

  it('measures length in UTF-16 code units: an astral character counts twice', () => {
    const head = 'note://';
    const fits = head + 'x'.repeat(MAX_URI_LENGTH - head.length - 2) + '🙂';
    const over = head + 'x'.repeat(MAX_URI_LENGTH - head.length - 1) + '🙂';
    expect(isAbsoluteUri(fits)).toBe(true);
    expect(isAbsoluteUri(over)).toBe(false);
  });

  it('narrows the type to string', () => {
    const value: unknown = 'file:///x';
    if (isAbsoluteUri(value)) {
      const narrowed: string = value;
      expect(narrowed.length).toBe(9);
    } else {
      throw new Error('expected an absolute URI');
    }
  });
});
