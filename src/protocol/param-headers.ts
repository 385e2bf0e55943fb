import { isPlainObject } from './json-rpc.codec.js';
import { headerMismatch } from './json-rpc.errors.js';
import { decodeHeaderValue } from './header-value.js';

/** The schema keyword that asks clients to mirror a tool argument into an `Mcp-Param-<name>` header. */
export const X_MCP_HEADER = 'x-mcp-header';

/** One tool argument mirrored into a header (SEP-2243). */
export interface ParamHeader {
  /** The name after `Mcp-Param-`, as the schema spells it. */
  readonly name: string;
  /** The chain of `properties` keys that leads to the argument. */
  readonly path: readonly string[];
}

/** An RFC 9110 token: what a header name is made of. */
const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES: ReadonlySet<unknown> = new Set(['string', 'integer', 'boolean']);
/** A decimal numeral (sign, digits, fraction, exponent): how the header of an integer may spell it. */
const DECIMAL = /^-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?$/;
/** Keywords whose values are instance data, not schemas: an `x-mcp-header` key in them is data. */
const DATA_KEYWORDS: ReadonlySet<string> = new Set(['const', 'enum', 'default', 'examples']);

/**
 * The arguments a tool's input schema marks for mirroring, checked against the revision's rules:
 * a non-empty token, unique whatever its case, on an `integer`, `string` or `boolean` property that
 * a chain of `properties` keys alone reaches from the root.
 * @throws TypeError naming the first rule broken (a definition error, found at bootstrap).
 */
export function paramHeadersOf(inputSchema: Record<string, unknown>): ParamHeader[] {
  const found: ParamHeader[] = [];
  collect(inputSchema, [], found);
  rejectElsewhere(inputSchema, true, true);
  const seen = new Set<string>();
  for (const { name } of found) {
    const key = name.toLowerCase();
    if (seen.has(key)) throw new TypeError(`${X_MCP_HEADER} "${name}" is used twice (names are compared without case)`);
    seen.add(key);
  }
  return found;
}

function collect(schema: Record<string, unknown>, path: string[], found: ParamHeader[]): void {
  const properties = schema.properties;
  if (!isPlainObject(properties)) return;
  for (const [key, property] of Object.entries(properties)) {
    if (!isPlainObject(property)) continue;
    const at = [...path, key];
    if (Object.hasOwn(property, X_MCP_HEADER)) {
      const name = property[X_MCP_HEADER];
      if (typeof name !== 'string' || !TOKEN.test(name)) {
        throw new TypeError(`${X_MCP_HEADER} of ${at.join('.')} must be a non-empty HTTP token`);
      }
      if (!PRIMITIVES.has(property.type)) {
        throw new TypeError(
          `${X_MCP_HEADER} "${name}" must mark an integer, string or boolean property (${at.join('.')})`,
        );
      }
      found.push({ name, path: at });
    }
    collect(property, at, found);
  }
}

/** An `x-mcp-header` anywhere but on a property reached through `properties` alone makes the definition invalid. */
function rejectElsewhere(node: unknown, reachable: boolean, root = false): void {
  if (Array.isArray(node)) {
    for (const item of node) rejectElsewhere(item, false);
    return;
  }
  if (!isPlainObject(node)) return;
  if ((root || !reachable) && Object.hasOwn(node, X_MCP_HEADER)) {
    throw new TypeError(`${X_MCP_HEADER} may only mark properties reached through "properties" keys from the root`);
  }
  for (const [key, value] of Object.entries(node)) {
    if (key === X_MCP_HEADER || DATA_KEYWORDS.has(key)) continue;
    if (key === 'properties' && reachable && isPlainObject(value)) {
      for (const property of Object.values(value)) rejectElsewhere(property, true);
    } else {
      rejectElsewhere(value, false);
    }
  }
}

/**
 * Checks the `Mcp-Param-*` headers of a `tools/call` against its arguments: a mirrored argument
 * present in the body needs its header, a header needs its argument, and the decoded header must
 * equal the argument (integers compared as numbers, booleans as `true`/`false`).
 * @param header reads a request header by its lower-case name.
 * @throws JsonRpcError -32020 naming the header.
 */
export function checkParamHeaders(
  params: readonly ParamHeader[],
  args: Record<string, unknown> | undefined,
  header: (name: string) => string | undefined,
): void {
  for (const { name, path } of params) {
    const headerName = `Mcp-Param-${name}`;
    const raw = header(headerName.toLowerCase());
    const value = valueAt(args, path);
    if (value === undefined || value === null) {
      if (raw !== undefined)
        throw headerMismatch(headerName, `${headerName} is sent for an argument the body does not have`);
      continue;
    }
    if (raw === undefined) throw headerMismatch(headerName, `the ${headerName} header is missing`);
    const decoded = decodeHeaderValue(raw);
    if (decoded === undefined) throw headerMismatch(headerName, `${headerName} is not a valid header value`);
    if (!matches(decoded, value)) throw headerMismatch(headerName, `${headerName} does not match the body`);
  }
}

function valueAt(args: Record<string, unknown> | undefined, path: readonly string[]): unknown {
  let value: unknown = args;
  for (const key of path) {
    if (!isPlainObject(value) || !Object.hasOwn(value, key)) return undefined;
    value = value[key];
  }
  return value;
}

function matches(header: string, value: unknown): boolean {
  switch (typeof value) {
    case 'string':
      return header === value;
    case 'number':
      // "42.0" and "42" name the same integer; only decimal numerals do ("", " 42", "0x2A", "+42" do not).
      return DECIMAL.test(header) && Number(header) === value;
    case 'boolean':
      return header === String(value);
    default:
      return false;
  }
}
