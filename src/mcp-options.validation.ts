import type { McpHttpOptions } from './interfaces/mcp-module-options.interface.js';
import type { ResolvedMcpOptions } from './interfaces/resolved-mcp-options.interface.js';
import { MAX_TIMER_MS } from './mcp.constants.js';
import { isLoggingLevel, LOGGING_LEVELS } from './protocol/logging-level.js';
import { validateCacheHint } from './items/cache-hints.js';

const ERAS: ReadonlySet<unknown> = new Set(['dual', 'modern', 'legacy']);

/** A host name as `http.allowedHosts` takes it: no scheme, no port, no path (IPv6 in brackets). */
const HOST_NAME = /^(\[[0-9a-f:.]+\]|[^\s:/[\]]+)$/i;

/**
 * Rejects option values that cannot work, so a typo fails at bootstrap with a message that names
 * the option, not under load as a request refused for no visible reason. Unknown keys were refused
 * before the defaults were applied (`refuseUnknownOptions`).
 * @throws TypeError naming the option.
 */
export function validateMcpOptions(options: ResolvedMcpOptions): void {
  const { http, limits, sessions, auth, resumability, state } = options;
  positive('limits', limits, [
    'bodyBytes',
    'sessions',
    'outboxMessages',
    'outboxChars',
    'bufferedChars',
    'pageSize',
    'listenStreams',
    'listenStreamsPerPrincipal',
  ]);
  positive('resumability', resumability, ['maxEvents', 'maxEventAgeMs', 'maxEventChars']);
  positive('sessions', sessions, ['idleTimeoutMs']);
  if (!Number.isSafeInteger(limits.pageSize)) {
    throw new TypeError(`McpModule: options.limits.pageSize must be a whole number, got ${String(limits.pageSize)}`);
  }
  const perPrincipal = limits.sessionsPerPrincipal;
  if (perPrincipal !== Infinity && (!Number.isSafeInteger(perPrincipal) || perPrincipal < 1)) {
    throw new TypeError(
      `McpModule: options.limits.sessionsPerPrincipal must be a whole number from 1, or Infinity, got ${String(perPrincipal)}`,
    );
  }
  if (!Number.isFinite(http.keepAliveMs) || http.keepAliveMs < 0 || http.keepAliveMs > MAX_TIMER_MS) {
    throw new TypeError(
      `McpModule: options.http.keepAliveMs must be from 0 to ${MAX_TIMER_MS}, got ${String(http.keepAliveMs)}`,
    );
  }
  timer('http', http, ['sseRetryMs', 'bodyTimeoutMs']);
  timer('sessions', sessions, ['clientRequestTimeoutMs']);
  timer('state', state, ['requestStateTtlMs']);
  if (!ERAS.has(options.eras)) {
    throw new TypeError(
      `McpModule: options.eras must be 'dual', 'modern' or 'legacy', got ${String(options.eras as unknown)}`,
    );
  }
  if (typeof sessions.enabled !== 'boolean') {
    throw new TypeError(`McpModule: options.sessions.enabled must be true or false, got ${String(sessions.enabled)}`);
  }
  validateStateSecret(state.secret);
  validateState(options);
  validateCors(http);
  validateCache(options.cache);
  validateItems(options.items);
  if (!isLoggingLevel(sessions.defaultLogLevel)) {
    throw new TypeError(
      `McpModule: options.sessions.defaultLogLevel must be one of ${LOGGING_LEVELS.join(', ')}, got ${String(sessions.defaultLogLevel)}`,
    );
  }
  if (!isEventStore(resumability.eventStore)) {
    throw new TypeError(
      'McpModule: options.resumability.eventStore must implement append, replay, deleteStream and deleteSession',
    );
  }
  if (typeof auth.scopesOf !== 'function') {
    throw new TypeError('McpModule: options.auth.scopesOf must be a function');
  }
  if (auth.scopeDenial !== 'hide' && auth.scopeDenial !== 'challenge') {
    throw new TypeError(
      `McpModule: options.auth.scopeDenial must be 'hide' or 'challenge', got ${String(auth.scopeDenial)}`,
    );
  }
  if (typeof auth.principalOf !== 'function') {
    throw new TypeError('McpModule: options.auth.principalOf must be a function');
  }
  validateRoutes(options.routes);
  for (const key of ['allowedOrigins', 'allowedHosts'] as const) {
    if (!Array.isArray(http[key]) || !http[key].every((entry) => typeof entry === 'string')) {
      throw new TypeError(`McpModule: options.http.${key} must be an array of strings`);
    }
  }
  for (const host of http.allowedHosts) {
    if (host !== '*' && !HOST_NAME.test(host)) {
      throw new TypeError(`McpModule: http.allowedHosts entry "${host}" must be a host name without scheme or port`);
    }
  }
  for (const origin of http.allowedOrigins) {
    if (origin !== '*' && !isOriginEntry(origin)) {
      throw new TypeError(
        `McpModule: http.allowedOrigins entry "${origin}" must be an origin (https://app.example.com), ` +
          `an origin with any port (http://localhost:*) or '*'`,
      );
    }
  }
}

/** Fields of `group` that must be positive numbers. */
function positive<G extends object>(name: string, group: G, keys: readonly (keyof G & string)[]): void {
  for (const key of keys) {
    const value = group[key] as unknown;
    if (typeof value !== 'number' || !Number.isFinite(value) || value <= 0) {
      throw new TypeError(`McpModule: options.${name}.${key} must be a positive number, got ${String(value)}`);
    }
  }
}

/** Fields of `group` that are timer durations: whole milliseconds a timer can wait. */
function timer<G extends object>(name: string, group: G, keys: readonly (keyof G & string)[]): void {
  for (const key of keys) {
    const value = group[key] as unknown;
    if (!Number.isInteger(value) || (value as number) <= 0 || (value as number) > MAX_TIMER_MS) {
      throw new TypeError(
        `McpModule: options.${name}.${key} must be a whole number from 1 to ${MAX_TIMER_MS}, got ${String(value)}`,
      );
    }
  }
}

function isEventStore(value: unknown): boolean {
  const store = value as Record<string, unknown> | null;
  return (
    typeof store === 'object' &&
    store !== null &&
    ['append', 'replay', 'deleteStream', 'deleteSession'].every((method) => typeof store[method] === 'function')
  );
}

function isOriginEntry(entry: string): boolean {
  const anyPort = entry.endsWith(':*');
  const text = anyPort ? entry.slice(0, -2) : entry;
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return false;
  }
  // `new URL` lower-cases and drops default ports, so compare case-insensitively on what it kept.
  const exact = url.origin !== 'null' && url.origin.toLowerCase() === text.replace(/\/$/, '').toLowerCase();
  // Wildcards are for ports only (`:*`); `https://*.example.com` parses, but could never match.
  return exact && !url.hostname.includes('*') && (!anyPort || url.port === '');
}

function validateStateSecret(secret: unknown): void {
  if (secret === undefined) return;
  const secrets = Array.isArray(secret) ? (secret as unknown[]) : [secret];
  const lengthOf = (value: unknown): number =>
    typeof value === 'string' ? Buffer.byteLength(value) : value instanceof Uint8Array ? value.length : -1;
  if (secrets.length === 0 || secrets.some((value) => lengthOf(value) < 32)) {
    throw new TypeError(
      'McpModule: options.state.secret must be a string or bytes of at least 32 bytes (or a non-empty list of them)',
    );
  }
}

function validateItems(items: ResolvedMcpOptions['items']): void {
  if (items === undefined) return;
  for (const [kind, names] of Object.entries(items) as [string, unknown][]) {
    if (!Array.isArray(names) || !names.every((name) => typeof name === 'string' && name !== '')) {
      throw new TypeError(`McpModule: options.items.${kind} must be an array of names, got ${String(names)}`);
    }
  }
}

function validateCache(cache: unknown): void {
  if (typeof cache !== 'object' || cache === null) throw new TypeError('McpModule: options.cache must be an object');
  for (const [kind, hint] of Object.entries(cache)) validateCacheHint(`McpModule: options.cache.${kind}`, hint);
}

function validateState({ state, resumability }: ResolvedMcpOptions): void {
  const { shared } = state;
  if (shared === undefined) return;
  if (typeof shared !== 'object' || shared === null || (shared as { kind?: unknown }).kind !== 'mcp42.state') {
    throw new TypeError(
      'McpModule: options.state.shared must be made by an adapter, such as redisState() from mcp42/redis',
    );
  }
  if (state.secret === undefined) {
    throw new TypeError(
      'McpModule: options.state.shared shares sessions between instances, so options.state.secret must be set, the ' +
        'same on every instance (list cursors and 2026-07-28 requestState are sealed with it; a random key of one ' +
        'process would make every other instance refuse them)',
    );
  }
  if (resumability.customEventStore) {
    throw new TypeError(
      'McpModule: options.state.shared keeps the stored events itself; leave options.resumability.eventStore unset',
    );
  }
}

function validateCors(http: Readonly<Required<McpHttpOptions>>): void {
  const { cors } = http;
  if (typeof cors === 'boolean') return;
  if (typeof cors !== 'object' || cors === null) {
    throw new TypeError(`McpModule: options.http.cors must be true, false or an object, got ${String(cors)}`);
  }
  if (cors.credentials !== undefined && typeof cors.credentials !== 'boolean') {
    throw new TypeError('McpModule: options.http.cors.credentials must be true or false');
  }
  if (cors.maxAgeSeconds !== undefined && (!Number.isInteger(cors.maxAgeSeconds) || cors.maxAgeSeconds < 0)) {
    throw new TypeError('McpModule: options.http.cors.maxAgeSeconds must be a whole number of seconds, 0 or more');
  }
  if (cors.credentials === true && http.allowedOrigins.includes('*')) {
    throw new TypeError(
      "McpModule: options.http.cors.credentials cannot be combined with http.allowedOrigins ['*']: any page could then act with the user's cookies",
    );
  }
}

/** HTTP header names: RFC 9110 tokens. */
const HEADER_NAME = /^[!#$%&'*+.^_`|~0-9A-Za-z-]+$/;

function validateRoutes(routes: ResolvedMcpOptions['routes']): void {
  const { forwardHeaders, maxResponseBytes } = routes;
  if (
    !Array.isArray(forwardHeaders) ||
    !forwardHeaders.every((name) => typeof name === 'string' && HEADER_NAME.test(name))
  ) {
    throw new TypeError('McpModule: options.routes.forwardHeaders must be an array of header names');
  }
  if (!Number.isSafeInteger(maxResponseBytes) || maxResponseBytes <= 0) {
    throw new TypeError(
      `McpModule: options.routes.maxResponseBytes must be a positive whole number, got ${String(maxResponseBytes)}`,
    );
  }
}
