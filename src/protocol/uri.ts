/** The longest resource URI accepted, in UTF-16 code units: far beyond any real one, and a bound on what a client can make us store. */
export const MAX_URI_LENGTH = 8 * 1024;

/** A scheme, a colon, then no whitespace or control characters, C1 included (RFC 3986; non-ASCII allowed, for IRIs). */
// eslint-disable-next-line no-control-regex -- control characters are exactly what it refuses
const ABSOLUTE_URI = /^[A-Za-z][A-Za-z0-9+.-]*:[^\s\u0000-\u001f\u007f-\u009f]*$/u;

/** Whether `value` is an absolute URI (or IRI) of acceptable length, as resource URIs must be. */
export function isAbsoluteUri(value: unknown): value is string {
  return typeof value === 'string' && value.length <= MAX_URI_LENGTH && ABSOLUTE_URI.test(value);
}
