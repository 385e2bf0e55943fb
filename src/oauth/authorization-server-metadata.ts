import { AuthorizationServerUnavailable } from './token-refusal.js';

/**
 * The metadata URLs of an issuer, in the order MCP clients try them (MCP authorization,
 * "Authorization Server Metadata Discovery"): RFC 8414 with the issuer's path inserted after the
 * well-known segment, OpenID Connect Discovery likewise, then OpenID's appended form.
 */
export function metadataUrlsOf(issuer: string): URL[] {
  const url = new URL(issuer);
  const path = url.pathname.replace(/\/$/, '');
  if (path === '') {
    return [new URL('/.well-known/oauth-authorization-server', url), new URL('/.well-known/openid-configuration', url)];
  }
  return [
    new URL(`/.well-known/oauth-authorization-server${path}`, url),
    new URL(`/.well-known/openid-configuration${path}`, url),
    new URL(`${path}/.well-known/openid-configuration`, url),
  ];
}

/**
 * Request options whose headers are a plain object: {@link fetchJson} spreads them after its `accept`,
 * and a spread `Headers` (or list of pairs) would lose them.
 */
type JsonRequestInit = Omit<RequestInit, 'headers'> & { headers?: Record<string, string> };

/**
 * One JSON document from an authorization server. Redirects are not followed: the metadata and keys
 * of an issuer are where the issuer publishes them, and a redirect is a way to point us elsewhere.
 * @returns the parsed body of a 200; `undefined` for a 404 or 410 (try the next URL).
 * @throws AuthorizationServerUnavailable for anything else: network error, timeout, other status,
 *   a body that is not JSON.
 */
export async function fetchJson(url: URL, timeoutMs: number, init: JsonRequestInit = {}): Promise<unknown> {
  let response: Response;
  try {
    response = await fetch(url, {
      ...init,
      redirect: 'manual',
      signal: AbortSignal.timeout(timeoutMs),
      headers: { accept: 'application/json', ...init.headers },
    });
  } catch (cause) {
    throw new AuthorizationServerUnavailable(`${url.href} did not answer`, { cause });
  }
  if (response.status === 404 || response.status === 410) {
    await response.body?.cancel();
    return undefined;
  }
  if (response.status !== 200) {
    await response.body?.cancel();
    throw new AuthorizationServerUnavailable(`${url.href} answered ${response.status}`);
  }
  try {
    return await response.json();
  } catch (cause) {
    throw new AuthorizationServerUnavailable(`${url.href} did not answer JSON`, { cause });
  }
}

/**
 * Finds an issuer's metadata, trying {@link metadataUrlsOf} in order. The document must name the
 * issuer exactly (RFC 8414 §3.3): one that names another would let that server speak for this one.
 * @throws AuthorizationServerUnavailable when no URL has it, or it names another issuer.
 */
export async function discoverMetadata(issuer: string, timeoutMs: number): Promise<Record<string, unknown>> {
  for (const url of metadataUrlsOf(issuer)) {
    const document = await fetchJson(url, timeoutMs);
    if (document === undefined) continue;
    if (typeof document !== 'object' || document === null || Array.isArray(document)) {
      throw new AuthorizationServerUnavailable(`${url.href} is not a metadata document`);
    }
    const metadata = document as Record<string, unknown>;
    if (metadata.issuer !== issuer) {
      throw new AuthorizationServerUnavailable(`${url.href} names another issuer than ${issuer}`);
    }
    return metadata;
  }
  throw new AuthorizationServerUnavailable(`no authorization server metadata found for ${issuer}`);
}
