/** Hosts where plain `http` is tolerated: a development server on this machine. */
const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * Parses a URL an authorization server or this resource is named by, refusing what may not name one:
 * anything but `https` (or `http` on loopback, for development), credentials, a fragment.
 * @param what the option it came from, for the error message.
 * @throws Error naming the option.
 */
export function parseServerUrl(value: string, what: string): URL {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    throw new Error(`mcp42/oauth: ${what} is not an absolute URL: ${JSON.stringify(value)}`);
  }
  const secure = url.protocol === 'https:' || (url.protocol === 'http:' && LOOPBACK_HOSTS.has(url.hostname));
  if (!secure) throw new Error(`mcp42/oauth: ${what} must be https (http only on loopback): ${value}`);
  if (url.username !== '' || url.password !== '') throw new Error(`mcp42/oauth: ${what} may not hold credentials`);
  if (value.includes('#')) throw new Error(`mcp42/oauth: ${what} may not have a fragment: ${value}`);
  return url;
}

/**
 * The comparable form of a resource URI (RFC 8707 §2, MCP "Canonical Server URI"): scheme and host
 * lower-cased (the URL parser does it), default port dropped, no fragment, no trailing slash. Two
 * spellings of one server compare equal, so a token naming `HTTPS://MCP.example.com/mcp/` is for
 * `https://mcp.example.com/mcp`; anything else (another path, port or host) is not.
 * @returns `undefined` for a value that is no absolute URL (such an audience matches nothing).
 */
export function canonicalResource(value: string): string | undefined {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return undefined;
  }
  url.hash = '';
  return url.href.replace(/\/$/, '');
}

/**
 * Where the RFC 9728 metadata document of `resource` lives: `/.well-known/oauth-protected-resource`
 * inserted between the host and the resource's path (§3.1).
 */
export function metadataPathOf(resource: URL): string {
  const path = resource.pathname.replace(/\/$/, '');
  return `/.well-known/oauth-protected-resource${path}`;
}
