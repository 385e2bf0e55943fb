import fc from 'fast-check';
import { strictlyEncoded, UriTemplate } from './uri-template.js';

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
/** Non-empty values of any Unicode text. */
const value = fc.string({ unit: 'binary', minLength: 1, maxLength: 12 });

/** RFC 6570 simple (`{x}`, `{?x}`) expansion of a value: its UTF-8, every byte but the unreserved ones percent-encoded. */
function expand(text: string): string {
  let encoded = '';
  for (const byte of Buffer.from(text, 'utf8')) {
    const char = String.fromCharCode(byte);
    encoded += /[A-Za-z0-9\-._~]/.test(char) ? char : `%${byte.toString(16).toUpperCase().padStart(2, '0')}`;
  }
  return encoded;
}

const TEMPLATES = [
  'users://{id}',
  'users://{org}/{id}',
  'users://{org}/{id}{?fields,limit}{#section}',
  'search://q{?q,lang}',
  'search://q{?q}{&lang}',
  'files://{+path}',
  'file://x{/segs*}',
  'p://q{?list*}',
  'p://{a:3}',
  'p://{x}.{y}',
  'm://x{;p}',
  'docs://café/{x}',
  'p://a%2fb/{id}',
  'config://app/settings',
].map((source) => new UriTemplate(source));

/** URIs of any text, and ones shaped like the templates' expansions, with stray `%`, `?`, `#`, `&` and `/`. */
const uri = fc.oneof(
  fc.string({ unit: codeUnit, maxLength: 40 }),
  fc
    .tuple(
      fc.constantFrom('users://', 'search://q', 'files://', 'file://x', 'p://', 'p://q', 'm://x', 'docs://café/'),
      fc.string({
        unit: fc.oneof(
          fc.constantFrom('%', '%C3', '%c3%a9', '%2F', '%ZZ', '?', '#', '&', '=', '/', ';', '.', '*'),
          codeUnit,
        ),
        maxLength: 12,
      }),
    )
    .map(([prefix, rest]) => prefix + rest),
);

describe('URI template properties', () => {
  it('match never throws on any URI, and gives only the variables the template declares, as strings or lists of strings', () => {
    fc.assert(
      fc.property(uri, (text) => {
        for (const template of TEMPLATES) {
          const variables = template.match(text);
          if (variables === undefined) continue;
          for (const [name, found] of Object.entries(variables)) {
            expect(template.variables).toContain(name);
            expect(
              typeof found === 'string' || (Array.isArray(found) && found.every((v) => typeof v === 'string')),
            ).toBe(true);
          }
        }
      }),
      { numRuns: 200 },
    );
  });

  it('strictlyEncoded never throws, and what it gives is ASCII; matching with it precomputed matches alike', () => {
    fc.assert(
      fc.property(uri, (text) => {
        const strict = strictlyEncoded(text);
        if (strict !== undefined) expect(strict).toMatch(/^[\x21-\x7e]*$/);
        for (const template of TEMPLATES)
          expect(template.match(text, strict ?? null)).toStrictEqual(template.match(text));
      }),
      { numRuns: 100 },
    );
  });

  it('match(expand(values)) gives the values back: {org}/{id}', () => {
    const template = new UriTemplate('users://{org}/{id}');
    fc.assert(
      fc.property(value, value, (org, id) => {
        expect(template.match(`users://${expand(org)}/${expand(id)}`)).toStrictEqual({ org, id });
      }),
      { numRuns: 200 },
    );
  });

  it('match(expand(values)) gives the values back: {?q,lang} with any subset, in any order', () => {
    const template = new UriTemplate('search://q{?q,lang}');
    const query = fc
      .shuffledSubarray(['q', 'lang'])
      .chain((names) =>
        fc.tuple(fc.constant(names), fc.array(value, { minLength: names.length, maxLength: names.length })),
      );
    fc.assert(
      fc.property(query, ([names, values]) => {
        const pairs = names.map((name, index) => `${name}=${expand(values[index]!)}`);
        const expected = Object.fromEntries(names.map((name, index) => [name, values[index]!]));
        expect(template.match(`search://q${pairs.length === 0 ? '' : `?${pairs.join('&')}`}`)).toStrictEqual(expected);
      }),
      { numRuns: 200 },
    );
  });

  it('match(expand(values)) gives the values back: {/segs*} explodes a list of segments', () => {
    const template = new UriTemplate('file://x{/segs*}');
    fc.assert(
      fc.property(fc.array(value, { minLength: 1, maxLength: 4 }), (segments) => {
        const matched = template.match(`file://x${segments.map((segment) => `/${expand(segment)}`).join('')}`);
        expect(matched).toStrictEqual({ segs: segments });
      }),
      { numRuns: 200 },
    );
  });

  it('a value a client wrote unencoded (an IRI) matches as itself', () => {
    const template = new UriTemplate('users://{id}');
    const letters = fc.string({ unit: fc.constantFrom(...'abcé世界🙂-_~.'), minLength: 1, maxLength: 10 });
    fc.assert(
      fc.property(letters, (id) => {
        expect(template.match(`users://${id}`)).toStrictEqual({ id });
      }),
      { numRuns: 200 },
    );
  });

  it('a prefix modifier {a:3} matches values of at most 3 code points, and only those', () => {
    const template = new UriTemplate('p://{a:3}');
    fc.assert(
      fc.property(value, (a) => {
        const matched = template.match(`p://${expand(a)}`);
        expect(matched).toStrictEqual([...a].length <= 3 ? { a } : undefined);
      }),
      { numRuns: 200 },
    );
  });

  it('the constructor either compiles a short template or throws an Error, on any text', () => {
    const template = fc.string({
      unit: fc.oneof(
        fc.constantFrom('{', '}', '+', '#', '.', '/', ';', '?', '&', ',', '*', ':3', 'a', 'b', 'x://'),
        codeUnit,
      ),
      maxLength: 10,
    });
    fc.assert(
      fc.property(template, (source) => {
        let compiled: UriTemplate | undefined;
        try {
          compiled = new UriTemplate(source);
        } catch (error) {
          expect(error).toBeInstanceOf(Error);
          return;
        }
        expect(compiled.template).toBe(source);
        expect(new Set(compiled.variables).size).toBe(compiled.variables.length);
      }),
      { numRuns: 200 },
    );
  });
});
