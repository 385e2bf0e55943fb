/** RFC 6750 §2.1: `Bearer` (any case), one space or more, then a token68. */
const BEARER = /^Bearer +([A-Za-z0-9\-._~+/]+=*) *$/i;

/**
 * The bearer token of an `Authorization` header.
 * @returns `null` when the header is absent or names another scheme (the request carries no bearer
 *   token: a plain challenge), `false` when it says `Bearer` but what follows is no token, else the token.
 */
export function bearerTokenOf(header: unknown): string | null | false {
  if (typeof header !== 'string' || !/^Bearer(\s|$)/i.test(header)) return null;
  return BEARER.exec(header)?.[1] ?? false;
}
