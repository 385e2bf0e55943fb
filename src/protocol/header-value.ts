/**
 * Values of the 2026-07-28 request headers that mirror the body (`Mcp-Name`, `Mcp-Param-*`).
 * A value a header cannot carry plainly travels as `=?base64?<UTF-8 in base64>?=`; servers decode it
 * before comparing it with the body.
 */

const PREFIX = '=?base64?';
const SUFFIX = '?=';
/** Standard base64 with its padding, nothing else: a lenient decoder would let two spellings match one value. */
const BASE64 = /^(?:[A-Za-z0-9+/]{4})*(?:[A-Za-z0-9+/]{2}==|[A-Za-z0-9+/]{3}=)?$/;
/** What RFC 9110 lets a field value hold: visible ASCII, space and tab. */
const FIELD_VALUE = /^[\t\x20-\x7e]*$/;
/** What may travel plainly: no leading or trailing whitespace, and not the sentinel itself. */
const PLAIN = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/;

/** `ignoreBOM`: a leading U+FEFF is part of the value, not a mark to drop (else two values would decode alike). */
const utf8 = new TextDecoder('utf-8', { fatal: true, ignoreBOM: true });

/**
 * The value a header carries, decoded from the base64 sentinel when it uses it.
 * @returns `undefined` for a value that is not a valid header value: characters a field value may
 *   not hold, or a sentinel whose base64 or UTF-8 is broken.
 */
export function decodeHeaderValue(raw: string): string | undefined {
  if (!FIELD_VALUE.test(raw)) return undefined;
  if (!(raw.startsWith(PREFIX) && raw.endsWith(SUFFIX) && raw.length >= PREFIX.length + SUFFIX.length)) return raw;
  const encoded = raw.slice(PREFIX.length, raw.length - SUFFIX.length);
  if (!BASE64.test(encoded)) return undefined;
  const binary = atob(encoded);
  // Pad bits that are not zero spell the same bytes a second way: only the canonical spelling is taken.
  if (btoa(binary) !== encoded) return undefined;
  const bytes = new Uint8Array(binary.length);
  for (let i = 0; i < binary.length; i++) bytes[i] = binary.charCodeAt(i);
  try {
    return utf8.decode(bytes);
  } catch {
    return undefined;
  }
}

/**
 * The header form of a value, as a client writes it: plain when it can be, else the base64
 * sentinel (non-ASCII or control characters, leading or trailing whitespace, or a value that
 * looks like the sentinel).
 */
export function encodeHeaderValue(value: string): string {
  const looksEncoded = value.startsWith(PREFIX) && value.endsWith(SUFFIX);
  if (PLAIN.test(value) && !looksEncoded) return value;
  const bytes = new TextEncoder().encode(value);
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return `${PREFIX}${btoa(binary)}${SUFFIX}`;
}

/**
 * A request header by its lower-case name, repeated ones joined as HTTP joins them (a second
 * `Mcp-Name` then matches no body value, rather than one of them being picked).
 */
export function readHeader(
  headers: Readonly<Record<string, string | string[] | undefined>>,
  name: string,
): string | undefined {
  const value = headers[name];
  return Array.isArray(value) ? value.join(', ') : value;
}
