import uriTemplateRouter from 'uri-template-router';

/** The values a URI gives a template's variables: strings, or lists for exploded ones (`{/path*}`). */
export type UriVariables = Record<string, string | string[]>;

type Route = InstanceType<(typeof uriTemplateRouter)['Route']>;

/** A variable of a trailing query expression (`{?q,lang}`, `{&page}`). */
interface QueryVariable {
  readonly explode: boolean;
  readonly maxLength: number | null;
}

/**
 * ASCII characters a URI may hold as they are (RFC 3986 unreserved and reserved characters, and `%`),
 * but for `!'()*`, which `encodeURIComponent` leaves alone though RFC 6570 encodes them in values.
 */
const KEPT_AS_IS: ReadonlySet<string> = new Set(
  'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~:/?#[]@$&+,;=%',
);

/**
 * The code points of `text`, not its graphemes: what UTF-8 percent-encoding encodes one at a time, and
 * what RFC 6570 prefix modifiers count.
 */
// eslint-disable-next-line @typescript-eslint/no-misused-spread -- code points are meant (see above)
const codePoints = (text: string): string[] => [...text];

/**
 * `uri` encoded as RFC 6570 expansions are (see {@link encodeLoose}) when that differs from `uri`;
 * `undefined` when it is the same, or cannot be encoded: no second match is worth trying.
 */
export function strictlyEncoded(uri: string): string | undefined {
  const encoded = encodeLoose(uri);
  return encoded === uri ? undefined : encoded;
}

/**
 * `uri` with every other character percent-encoded as UTF-8, and percent-encodings in upper case
 * (RFC 3986 §2.1: `%c3` and `%C3` are the same; the matcher reads upper case only); `undefined` for a
 * lone surrogate.
 */
function encodeLoose(uri: string): string | undefined {
  let encoded = '';
  const chars = codePoints(uri);
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index]!;
    if (char === '%' && isHex(chars[index + 1]) && isHex(chars[index + 2])) {
      encoded += `%${chars[index + 1]!.toUpperCase()}${chars[index + 2]!.toUpperCase()}`;
      index += 2;
    } else if (KEPT_AS_IS.has(char)) encoded += char;
    else if (char.length === 1 && char.charCodeAt(0) < 0x80) {
      encoded += `%${char.charCodeAt(0).toString(16).toUpperCase().padStart(2, '0')}`;
    } else {
      try {
        encoded += encodeURIComponent(char);
      } catch {
        return undefined;
      }
    }
  }
  return encoded;
}

/**
 * `template` with the non-ASCII characters of its literal parts percent-encoded as UTF-8, and their
 * percent-encodings in upper case.
 */
function encodeLiterals(template: string): string {
  let encoded = '';
  let inExpression = false;
  const chars = codePoints(template);
  for (let index = 0; index < chars.length; index++) {
    const char = chars[index]!;
    if (char === '{') inExpression = true;
    else if (char === '}') inExpression = false;
    if (!inExpression && char === '%' && isHex(chars[index + 1]) && isHex(chars[index + 2])) {
      // The matcher reads upper-case percent-encodings only; URIs are upper-cased before a second try.
      encoded += `%${chars[index + 1]!.toUpperCase()}${chars[index + 2]!.toUpperCase()}`;
      index += 2;
    } else encoded += inExpression || char.charCodeAt(0) < 0x80 ? char : safeEncode(char);
  }
  return encoded;
}

/** A lone surrogate is left for the parser to refuse. */
function safeEncode(char: string): string {
  try {
    return encodeURIComponent(char);
  } catch {
    return char;
  }
}

const HEX_DIGITS: ReadonlySet<string> = new Set('0123456789abcdefABCDEF');

function isHex(char: string | undefined): boolean {
  return char !== undefined && HEX_DIGITS.has(char);
}

/** Variable names that could reach an object's prototype if they became keys: refused. */
const RESERVED_NAMES: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/**
 * An RFC 6570 URI template (levels 1 to 4), parsed and compiled once, that tells whether a URI is
 * one of its expansions and which values it gives the variables.
 *
 * Parsing and matching are `uri-template-router`'s: a finite-state machine over the template, so a
 * simple `{id}` never matches across a `/`, and percent-encoded values come back decoded. Two things
 * are added. Trailing query expressions (`{?q,lang}`, `{&page}`) are matched as a query string, so
 * that any subset of their parameters, in any order, matches, as expansions with unset variables
 * produce (the router treats a whole expression as all or nothing); undeclared parameters do not
 * match. URIs that clients encoded more loosely than RFC 6570 does (`encodeURIComponent` leaves
 * `!'()*` alone; IRIs hold non-ASCII characters) are encoded strictly and matched again. And the
 * checks mcp42 needs: no duplicate or reserved variable names, prefix lengths (`{id:3}`) enforced,
 * and no exception for a malformed URI.
 */
export class UriTemplate {
  /** The template's variable names, in order. */
  readonly variables: readonly string[];
  private readonly route: Route;
  private readonly maxLengths = new Map<string, number>();
  private readonly query: ReadonlyMap<string, QueryVariable> | undefined;
  /** The literal text every expansion starts with: a URI without it is refused before the machine runs. */
  private readonly literalPrefix: string;

  /** @throws Error naming the problem when `template` is not a valid URI template. */
  constructor(readonly template: string) {
    // Non-ASCII literals (IRIs) are compiled percent-encoded, as their expansion writes them.
    const compiled = encodeLiterals(template);
    const split = splitTrailingQuery(compiled);
    let all: Route['variables'];
    if (split?.operator === '?' && !split.base.includes('?')) {
      // The query is read as a query string, so its expressions are only parsed: their state machine
      // (milliseconds per variable to build) is never needed.
      this.route = new uriTemplateRouter.Route(split.base);
      const query = split.expressions.flatMap((body) => uriTemplateRouter.Expression.from(body).variableList);
      this.query = new Map(query.map((variable) => [variable.varname, variable]));
      all = [...this.route.variables, ...query];
    } else {
      this.route = new uriTemplateRouter.Route(compiled);
      all = this.route.variables;
    }
    const names = all.map((variable) => variable.varname);
    const duplicate = names.find((name, index) => names.indexOf(name) !== index);
    if (duplicate !== undefined) throw new Error(`variable ${duplicate} appears twice`);
    const reserved = names.find((name) => RESERVED_NAMES.has(name));
    if (reserved !== undefined) throw new Error(`variable name ${reserved} is reserved`);
    for (const variable of all) {
      if (variable.maxLength !== null) this.maxLengths.set(variable.varname, variable.maxLength);
    }
    this.variables = Object.freeze(names);
    const literal = (split?.base ?? compiled).split('{')[0]!;
    // Percent-encoded literals may be written in either case in a URI: no shortcut for them.
    this.literalPrefix = literal.includes('%') ? '' : literal;
  }

  /**
   * The variables `uri` fills, when it is an expansion of the template; `undefined` otherwise
   * (malformed percent-encoding included).
   * @param strictForm {@link strictlyEncoded}`(uri)` (`null` when it is `undefined`), when the caller
   *   matches one URI against many templates and computes it once. Variables the URI leaves empty or out are absent: the
   * result holds only variables the template declares, as own properties.
   */
  match(uri: string, strictForm?: string | null): UriVariables | undefined {
    const strict = this.matchExactly(uri);
    if (strict) return strict;
    // Clients build URIs with `encodeURIComponent` (which leaves !'()* alone) or write IRIs: what RFC
    // 6570 would have percent-encoded is encoded, and the match tried once more.
    const encoded = strictForm === undefined ? strictlyEncoded(uri) : strictForm;
    return encoded ? this.matchExactly(encoded) : undefined;
  }

  private matchExactly(uri: string): UriVariables | undefined {
    if (!uri.startsWith(this.literalPrefix)) return undefined;
    const queryAt = this.query ? uri.indexOf('?') : -1;
    const path = queryAt === -1 ? uri : uri.slice(0, queryAt);
    let params: Record<string, string | string[] | undefined> | undefined;
    try {
      params = this.route.resolveURI(path)?.params;
    } catch {
      // A percent-encoded sequence that is not UTF-8 ("%C3"): no resource has such a URI.
      return undefined;
    }
    if (!params) return undefined;
    const variables: UriVariables = {};
    for (const variable of this.route.variables) {
      const name = variable.varname;
      const value = Object.hasOwn(params, name) ? params[name] : undefined;
      if (value !== undefined && value !== '') variables[name] = value;
    }
    if (queryAt !== -1 && !this.readQuery(uri.slice(queryAt + 1), variables)) return undefined;
    return this.withinPrefixLengths(variables) ? variables : undefined;
  }

  /** Adds the query's parameters to `variables`; false when the query is not one the template expands to. */
  private readQuery(query: string, variables: UriVariables): boolean {
    if (query === '') return true;
    // A fragment cannot follow trailing query expressions, and `#` inside their values is encoded.
    if (query.includes('#')) return false;
    for (const pair of query.split('&')) {
      const equals = pair.indexOf('=');
      let name: string;
      let value: string;
      try {
        name = decodeURIComponent(equals === -1 ? pair : pair.slice(0, equals));
        value = equals === -1 ? '' : decodeURIComponent(pair.slice(equals + 1));
      } catch {
        return false;
      }
      const declared = this.query!.get(name);
      if (!declared) return false;
      if (declared.explode) {
        const list = variables[name];
        variables[name] = Array.isArray(list) ? [...list, value] : [value];
      } else {
        if (Object.hasOwn(variables, name)) return false;
        if (value !== '') variables[name] = value;
      }
    }
    return true;
  }

  /** Whether no value is longer than its prefix modifier allows (`{id:3}` expands to 3 characters at most). */
  private withinPrefixLengths(variables: UriVariables): boolean {
    for (const [name, maxLength] of this.maxLengths) {
      const value = variables[name];
      if (typeof value === 'string' && codePoints(value).length > maxLength) return false;
    }
    return true;
  }
}

/**
 * The template without its trailing query expressions (`{?...}` and `{&...}`, one or more), their
 * bodies, and the operator of the first of them; `undefined` when it has none. Expressions cannot nest, so the last `{` opens the last expression.
 */
function splitTrailingQuery(template: string): { base: string; expressions: string[]; operator: string } | undefined {
  let base = template;
  const expressions: string[] = [];
  while (base.endsWith('}')) {
    const open = base.lastIndexOf('{');
    const body = base.slice(open + 1, -1);
    if (body[0] !== '?' && body[0] !== '&') break;
    expressions.unshift(body);
    base = base.slice(0, open);
  }
  // The operator of the first trailing expression: only `{?` starts the query itself.
  return expressions.length === 0 ? undefined : { base, expressions, operator: expressions[0]![0]! };
}
