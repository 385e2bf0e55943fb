import { UriTemplate } from './uri-template.js';

describe('UriTemplate', () => {
  describe('parsing', () => {
    it('lists the variables in template order, frozen', () => {
      const template = new UriTemplate('users://{org}/{id}{?fields,limit}{#section}');
      expect(template.template).toBe('users://{org}/{id}{?fields,limit}{#section}');
      expect(template.variables).toEqual(['org', 'id', 'fields', 'limit', 'section']);
      expect(Object.isFrozen(template.variables)).toBe(true);
    });

    it('accepts a template without expressions', () => {
      const template = new UriTemplate('config://app/settings');
      expect(template.variables).toEqual([]);
      expect(template.match('config://app/settings')).toEqual({});
      expect(template.match('config://app/other')).toBeUndefined();
    });

    it.each([
      ['p://{id', /Unclosed expression/],
      ['p://{}', /Unclosed expression/],
      ['p://id}', /Unexpected character "}"/],
      ['p://{!id}', /Unknown expression operator: "!"/],
      ['p://{=id}', /Unknown expression operator: "="/],
      ['p://{|id}', /Unknown expression operator: "\|"/],
      ['p://{a b}', /Malformed variable "a b"/],
      ['p://{a-b}', /Malformed variable "a-b"/],
    ])('rejects the invalid template %s', (source, reason) => {
      expect(() => new UriTemplate(source)).toThrow(reason);
    });

    it.each([
      ['p://{a}/{a}', 'variable a appears twice'],
      ['p://{a}{?b,a}', 'variable a appears twice'],
      ['p://{/x*}{/x}', 'variable x appears twice'],
    ])('rejects %s: a variable named twice', (source, message) => {
      expect(() => new UriTemplate(source)).toThrow(new Error(message));
    });

    it.each(['__proto__', 'constructor', 'prototype'])('rejects the reserved variable name %s', (name) => {
      expect(() => new UriTemplate(`p://{${name}}`)).toThrow(new Error(`variable name ${name} is reserved`));
      expect(() => new UriTemplate(`p://x{?q,${name}}`)).toThrow(new Error(`variable name ${name} is reserved`));
    });
  });

  describe('level 1: simple string expansion', () => {
    const template = new UriTemplate('users://{id}');

    it('matches a value', () => {
      expect(template.match('users://42')).toEqual({ id: '42' });
    });

    it('never matches across a "/"', () => {
      expect(template.match('users://4/2')).toBeUndefined();
      expect(new UriTemplate('users://{org}/{id}').match('users://a/b/c')).toBeUndefined();
    });

    it('decodes percent-encoded values, %2F included', () => {
      expect(template.match('users://a%2Fb')).toEqual({ id: 'a/b' });
      expect(template.match('users://a%2Fb%3Fc')).toEqual({ id: 'a/b?c' });
      expect(template.match('users://hello%20world')).toEqual({ id: 'hello world' });
      expect(template.match('users://caf%C3%A9')).toEqual({ id: 'café' });
      expect(template.match('users://%E2%82%AC')).toEqual({ id: '€' });
    });

    it('does not match reserved characters an expansion would have encoded', () => {
      expect(template.match('users://a+b')).toBeUndefined();
      expect(template.match('users://a:b')).toBeUndefined();
    });

    it("matches again, strictly encoded, what encodeURIComponent leaves alone (!'()*) and IRIs", () => {
      expect(template.match("users://St.%20John's")).toEqual({ id: "St. John's" });
      expect(template.match('users://(x)*!')).toEqual({ id: '(x)*!' });
      expect(template.match('users://Zürich')).toEqual({ id: 'Zürich' });
      expect(template.match('users://a b')).toEqual({ id: 'a b' });
      expect(template.match('users://\ud800')).toBeUndefined();
    });

    it('does not match another scheme or literal prefix (case-sensitive)', () => {
      expect(template.match('USERS://42')).toBeUndefined();
      expect(template.match('user://42')).toBeUndefined();
      expect(template.match('xusers://42')).toBeUndefined();
    });

    it('matches several expressions around literals', () => {
      expect(new UriTemplate('p://{x}/{y}').match('p://1/2')).toEqual({ x: '1', y: '2' });
      expect(new UriTemplate('p://{x}.{y}').match('p://1.2')).toEqual({ x: '1', y: '2' });
      expect(new UriTemplate('p://{x,y}').match('p://1,2')).toEqual({ x: '1', y: '2' });
    });

    it('leaves an empty variable out of the result', () => {
      expect(template.match('users://')).toEqual({});
      expect(new UriTemplate('p://{x}/{y}').match('p:///2')).toEqual({ y: '2' });
    });
  });

  describe('malformed percent-encoding', () => {
    it.each([
      ['users://{id}', 'users://%C3'],
      ['users://{id}', 'users://%ZZ'],
      ['users://{id}', 'users://a%2'],
      ['file:///{+path}', 'file:///%C3'],
      ['file:///{+path}', 'file:///a/%C3%28'],
      ['search://q{?q}', 'search://q?q=%ff'],
    ])('%s does not match %s, without throwing', (source, uri) => {
      const template = new UriTemplate(source);
      let result: unknown = 'not called';
      expect(() => (result = template.match(uri))).not.toThrow();
      expect(result).toBeUndefined();
    });
  });

  describe('level 2: reserved and fragment expansion', () => {
    const template = new UriTemplate('file:///{+path}');

    it('{+path} matches across "/" and keeps reserved characters', () => {
      expect(template.match('file:///a/b/c.txt')).toEqual({ path: 'a/b/c.txt' });
      expect(template.match('file:///a?b=c#d')).toEqual({ path: 'a?b=c#d' });
    });

    it('{+path} decodes percent-encoded values', () => {
      expect(template.match('file:///a%20b/c')).toEqual({ path: 'a b/c' });
      expect(template.match('file:///a%2Fb')).toEqual({ path: 'a/b' });
    });

    it('{+path} left empty is absent', () => {
      expect(template.match('file:///')).toEqual({});
    });

    it('{#frag} matches the fragment, "/" included', () => {
      const fragment = new UriTemplate('doc://a{#frag}');
      expect(fragment.match('doc://a#sec1')).toEqual({ frag: 'sec1' });
      expect(fragment.match('doc://a#sec/1')).toEqual({ frag: 'sec/1' });
      expect(fragment.match('doc://a')).toEqual({});
      expect(fragment.match('doc://a#')).toEqual({});
      expect(fragment.match('doc://b#sec1')).toBeUndefined();
    });
  });

  describe('level 3: multiple variables and operators', () => {
    it('{?q,lang} matches the query in template order, decoded', () => {
      const template = new UriTemplate('search://q{?q,lang}');
      expect(template.match('search://q?q=cats&lang=en')).toEqual({ q: 'cats', lang: 'en' });
      expect(template.match('search://q?q=a%20b&lang=f%C3%A9')).toEqual({ q: 'a b', lang: 'fé' });
      expect(template.match('search://q')).toEqual({});
    });

    it('{?q,lang} matches the parameters in any order, but not an undeclared or repeated one', () => {
      const template = new UriTemplate('search://q{?q,lang}');
      expect(template.match('search://q?lang=en&q=cats')).toEqual({ lang: 'en', q: 'cats' });
      expect(template.match('search://q?q=cats&lang=en&page=2')).toBeUndefined();
      expect(template.match('search://q?q=cats&q=dogs')).toBeUndefined();
      expect(template.match('search://q?q=cats#top')).toBeUndefined();
      // Query values are read as any query parser reads them: a raw "/" is accepted there.
      expect(template.match('search://q?q=a/b&lang=x')).toEqual({ q: 'a/b', lang: 'x' });
    });

    it('{?q}{&lang} lets the second parameter be left out', () => {
      const template = new UriTemplate('search://q{?q}{&lang}');
      expect(template.match('search://q?q=cats')).toEqual({ q: 'cats' });
      expect(template.match('search://q?q=cats&lang=en')).toEqual({ q: 'cats', lang: 'en' });
    });

    // Known limitation, documented: outside trailing query expressions the router's all-or-nothing
    // rule stands, so "x" (the expansion of {a,b} with b unset) does not match.
    it('{a,b} outside a query needs every variable', () => {
      expect(new UriTemplate('p://{a,b}').match('p://x')).toBeUndefined();
      expect(new UriTemplate('p://{a,b}').match('p://x,y')).toEqual({ a: 'x', b: 'y' });
    });

    it('{&x} continues a query', () => {
      expect(new UriTemplate('p://q{&x}').match('p://q&x=1')).toEqual({ x: '1' });
    });

    it('{;p} matches path-style parameters; a bare name is an empty value, absent', () => {
      const template = new UriTemplate('m://x{;p}');
      expect(template.match('m://x;p=1')).toEqual({ p: '1' });
      expect(template.match('m://x;p')).toEqual({});
      expect(new UriTemplate('m://{;x,y}').match('m://;x=1;y=2')).toEqual({ x: '1', y: '2' });
      expect(new UriTemplate('m://{;x,y}').match('m://;x=1;y')).toEqual({ x: '1' });
    });

    it('{.ext} and {/a,b} match label and path segments', () => {
      expect(new UriTemplate('p://file{.ext}').match('p://file.json')).toEqual({ ext: 'json' });
      expect(new UriTemplate('p://{/a,b}').match('p:///1/2')).toEqual({ a: '1', b: '2' });
    });

    // RFC 6570 §3.2.1: an undefined variable is skipped, so "?q=cats" IS the expansion of
    // {?q,lang} with lang undefined. uri-template-router makes a whole expression all-or-nothing;
    // trailing query expressions are therefore matched as a query string.
    it('{?q,lang} matches a URI that sets only some of the parameters (RFC 6570 §3.2.1)', () => {
      const template = new UriTemplate('search://q{?q,lang}');
      expect(template.match('search://q?q=cats')).toEqual({ q: 'cats' });
      expect(template.match('search://q?lang=en')).toEqual({ lang: 'en' });
    });

    it('{?q} matches an empty named value, left out of the result', () => {
      expect(new UriTemplate('search://q{?q}').match('search://q?q=')).toEqual({});
      expect(new UriTemplate('search://q{?q,lang}').match('search://q?q=&lang=en')).toEqual({ lang: 'en' });
    });
  });

  describe('level 4: value modifiers', () => {
    it('{/segs*} gives an exploded list, each segment decoded', () => {
      const template = new UriTemplate('file://x{/segs*}');
      expect(template.match('file://x/a/b/c')).toEqual({ segs: ['a', 'b', 'c'] });
      expect(template.match('file://x/a')).toEqual({ segs: ['a'] });
      expect(template.match('file://x/a%2Fb/c')).toEqual({ segs: ['a/b', 'c'] });
      expect(template.match('file://x')).toEqual({});
    });

    it('{/segs} without explode is one string', () => {
      expect(new UriTemplate('file://x{/segs}').match('file://x/a')).toEqual({ segs: 'a' });
      expect(new UriTemplate('file://x{/segs}').match('file://x/a/b')).toBeUndefined();
    });

    it('{?list*} gives an exploded list of repeated parameters', () => {
      const template = new UriTemplate('p://q{?list*}');
      expect(template.match('p://q?list=a&list=b')).toEqual({ list: ['a', 'b'] });
      expect(template.match('p://q?a=1&b=2')).toBeUndefined();
    });

    it('{a:3} matches a value within the prefix length', () => {
      const template = new UriTemplate('p://{a:3}');
      expect(template.variables).toEqual(['a']);
      expect(template.match('p://abc')).toEqual({ a: 'abc' });
      expect(template.match('p://ab')).toEqual({ a: 'ab' });
    });

    // No expansion of {a:3} is longer than 3 characters; uri-template-router ignores the prefix
    // length when matching, so the handler gets a value it was promised would not occur.
    it('{a:3} does not match a value longer than the prefix length', () => {
      expect(new UriTemplate('p://{a:3}').match('p://abcd')).toBeUndefined();
    });
  });

  describe('the result', () => {
    it('holds only the declared variables, as own properties of a plain object', () => {
      const result = new UriTemplate('users://{id}{?fields}').match('users://7?fields=name');
      expect(result).toEqual({ id: '7', fields: 'name' });
      expect(Object.keys(result!)).toEqual(['id', 'fields']);
      expect(Object.getPrototypeOf(result)).toBe(Object.prototype);
    });

    it('is a new object on every match', () => {
      const template = new UriTemplate('users://{id}');
      const first = template.match('users://1')!;
      first.id = 'changed';
      expect(template.match('users://1')).toEqual({ id: '1' });
    });

    // The router's params object inherits from Object.prototype, and match() reads `params[name]`:
    // a variable named after an inherited member, left empty, comes back as that member (a function).
    it('leaves out an unset variable named like an Object.prototype member (toString, valueOf)', () => {
      expect(new UriTemplate('p://{toString}').match('p://')).toEqual({});
      expect(new UriTemplate('p://x{?valueOf}').match('p://x')).toEqual({});
    });
  });
});

describe('UriTemplate: URIs equivalent to an expansion', () => {
  test('upper-case percent-encoding matches (the reference)', () => {
    expect(new UriTemplate('files://docs/{name}').match('files://docs/caf%C3%A9')).toEqual({ name: 'café' });
    expect(new UriTemplate('files://docs/{name}{?q}').match('files://docs/a?q=caf%c3%a9')).toEqual({
      name: 'a',
      q: 'café',
    });
  });

  // Was a bug, fixed (src/resources/uri-template.ts:100 match(): uri-template-router only takes upper-case hex digits in
  // pct-encoded triplets of the path): RFC 3986 §2.1 makes "%c3%a9" and "%C3%A9" equivalent, and the
  // query part (read by mcp42 itself, decodeURIComponent) already takes both; a client or proxy that
  // writes lower-case hex gets -32002 for a resource that exists.
  // Fix: in match(), when the strict match fails, retry once with /%[0-9a-f]{2}/gi upper-cased
  // (as the encodeLoose retry does).
  it('lower-case percent-encoding in the path matches as upper-case does', () => {
    expect(new UriTemplate('files://docs/{name}').match('files://docs/caf%c3%a9')).toEqual({ name: 'café' });
    expect(new UriTemplate('files://docs/{name}').match('files://docs/a%2fb')).toEqual({ name: 'a/b' });
    expect(new UriTemplate('files://{+path}').match('files://a/caf%c3%a9')).toEqual({ path: 'a/café' });
  });

  // Was a bug, fixed (low; src/resources/uri-template.ts:90-92 and uri-template-router): RFC 6570 §3.1 expands a
  // literal that is not allowed in a URI (here "é") percent-encoded, so `docs://café/{x}` expands to
  // `docs://caf%C3%A9/a`; the template matches only the IRI form `docs://café/a`. (The reverse works: a
  // template written `caf%C3%A9` matches the IRI through encodeLoose.)
  // Fix: when the strict and loose matches fail, retry with the URI's unreserved-safe pct-encoded
  // non-ASCII sequences decoded, or compile the template with its non-ASCII literals pct-encoded and
  // always match encodeLoose(uri).
  it('a template with a non-ASCII literal matches its own RFC 6570 expansion', () => {
    const template = new UriTemplate('docs://café/{x}');
    expect(template.match('docs://café/a')).toEqual({ x: 'a' });
    expect(template.match('docs://caf%C3%A9/a')).toEqual({ x: 'a' });
  });
});

describe('UriTemplate: prefix lengths and trailing queries', () => {
  // A prefix length counts characters (code points), not UTF-16 code units: "😀😀😀" is three.
  it('{a:3} matches three astral characters, raw or percent-encoded, and refuses a fourth', () => {
    const template = new UriTemplate('p://{a:3}');
    expect(template.match('p://😀😀😀')).toEqual({ a: '😀😀😀' });
    expect(template.match('p://%F0%9F%98%80%F0%9F%98%80%F0%9F%98%80')).toEqual({ a: '😀😀😀' });
    expect(template.match('p://😀😀😀😀')).toBeUndefined();
  });

  // `{?q}{&lang}` is read as one query string (not compiled), so its parameters may come in any order.
  it('{?q}{&lang} matches its parameters in either order, but no undeclared one', () => {
    const template = new UriTemplate('search://q{?q}{&lang}');
    expect(template.match('search://q?lang=en&q=cats')).toEqual({ lang: 'en', q: 'cats' });
    expect(template.match('search://q?lang=en&page=2')).toBeUndefined();
  });
});

describe('UriTemplate: percent-encoded literals and known limits', () => {
  // Was a bug, fixed (src/resources/uri-template.ts, constructor and match()): uri-template-router reads only upper-case
  // hex digits in a URI's pct-encoded triplets (Route.resolveURI: /^%[0-9A-F]{2}$/), and a template literal
  // written in lower case ("%2f") is compiled as the literal symbol "%2f". So no URI reaches it: not the
  // template's own RFC 6570 expansion "p://a%2fb/x" (refused by the router), nor "p://a%2Fb/x" (the loose
  // retry upper-cases the URI, but the compiled literal stays "%2f"). The template serves nothing, silently.
  // Fixed: the template is compiled with the hex digits of its pct-encoded literals upper-cased, so both
  // forms match through the upper-casing retry.
  it('a template with a lower-case pct-encoded literal matches its own expansion', () => {
    const template = new UriTemplate('p://a%2fb/{id}');
    expect(template.match('p://a%2fb/x')).toEqual({ id: 'x' });
    expect(template.match('p://a%2Fb/x')).toEqual({ id: 'x' });
  });

  // Known limitation, left open (low; src/resources/uri-template.ts, matchExactly()): the trailing query is found with
  // uri.indexOf('?'), but RFC 6570 expands `search://q{?q}{&lang}` with q unset and lang=en to
  // "search://q&lang=en" (the `&` operator always writes "&"): that expansion is refused, while
  // "search://q?lang=en", which no expansion produces, is accepted.
  // Fix: when the first trailing expression is `{?` and the URI has no '?', also read a query that
  // starts with '&' right after the base (only for parameters of the `{&` expressions).
  it.failing('{?q}{&lang} matches its RFC 6570 expansion with q unset', () => {
    expect(new UriTemplate('search://q{?q}{&lang}').match('search://q&lang=en')).toEqual({ lang: 'en' });
  });
});
