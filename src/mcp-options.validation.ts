import type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import { MAX_TIMER_MS } from './mcp.constants.js';
import { isLoggingLevel, LOGGING_LEVELS } from './protocol/logging-level.js';
import { validateCacheHint } from './catalogue/cache-hints.js';

const KNOWN_OPTIONS: ReadonlySet<string> = new Set<keyof McpModuleOptions>([
  'name',
  'version',
  'title',
  'instructions',
  'maxBodyBytes',
  'sessionIdleTimeoutMs',
  'maxSessions',
  'maxSessionsPerPrincipal',
  'outboxLimit',
  'keepAliveMs',
  'allowedOrigins',
  'allowedHosts',
  'sessionOwner',
  'defaultLogLevel',
  'pageSize',
  'scopesOf',
  'scopeDenial',
  'clientRequestTimeoutMs',
  'sseRetryMs',
  'eventStore',
  'maxStoredEvents',
  'storedEventMaxAgeMs',
  'maxStoredEventChars',
  'eras',
  'legacySessions',
  'state',
  'cors',
  'bodyTimeoutMs',
  'stateSecret',
  'requestStateTtlMs',
  'cache',
  'maxListenStreams',
  'maxListenStreamsPerPrincipal',
]);

const ERAS: ReadonlySet<unknown> = new Set(['dual', 'modern', 'legacy']);
const CACHE_KINDS: ReadonlySet<string> = new Set([
  'discover',
  'tools',
  'prompts',
  'resources',
  'resourceTemplates',
  'reads',
]);

/** A host name as `allowedHosts` takes it: no scheme, no port, no path (IPv6 in brackets). */
const HOST_NAME = /^(\[[0-9a-f:.]+\]|[^\s:/[\]]+)$/i;

/**
 * Rejects options that cannot work, so a typo fails at bootstrap with a message that names it,
 * not under load as a request refused for no visible reason.
 * @throws TypeError naming the option.
 */
export function validateMcpOptions(
  options: Required<Omit<McpModuleOptions, 'title' | 'instructions' | 'stateSecret' | 'state'>> &
    Pick<McpModuleOptions, 'stateSecret' | 'state'>,
  eventStoreGiven = false,
): void {
  const unknown = Object.keys(options).filter((key) => !KNOWN_OPTIONS.has(key));
  if (unknown.length > 0) {
    throw new TypeError(`McpModule: unknown option(s) ${unknown.join(', ')}; see McpModuleOptions`);
  }
  for (const key of [
    'maxBodyBytes',
    'sessionIdleTimeoutMs',
    'maxSessions',
    'outboxLimit',
    'maxStoredEvents',
    'storedEventMaxAgeMs',
    'maxStoredEventChars',
    'pageSize',
    'maxListenStreams',
    'maxListenStreamsPerPrincipal',
  ] as const) {
    if (!Number.isFinite(options[key]) || options[key] <= 0) {
      throw new TypeError(`McpModule: options.${key} must be a positive number, got ${String(options[key])}`);
    }
  }
  const perPrincipal = options.maxSessionsPerPrincipal;
  if (perPrincipal !== Infinity && (!Number.isSafeInteger(perPrincipal) || perPrincipal < 1)) {
    throw new TypeError(
      `McpModule: options.maxSessionsPerPrincipal must be a whole number from 1, or Infinity, got ${String(perPrincipal)}`,
    );
  }
  if (!Number.isFinite(options.keepAliveMs) || options.keepAliveMs < 0 || options.keepAliveMs > MAX_TIMER_MS) {
    throw new TypeError(
      `McpModule: options.keepAliveMs must be from 0 to ${MAX_TIMER_MS}, got ${String(options.keepAliveMs)}`,
    );
  }
  for (const key of ['clientRequestTimeoutMs', 'sseRetryMs', 'requestStateTtlMs', 'bodyTimeoutMs'] as const) {
    if (!Number.isInteger(options[key]) || options[key] <= 0 || options[key] > MAX_TIMER_MS) {
      throw new TypeError(
        `McpModule: options.${key} must be a whole number from 1 to ${MAX_TIMER_MS}, got ${String(options[key])}`,
      );
    }
  }
  if (!ERAS.has(options.eras)) {
    throw new TypeError(`McpModule: options.eras must be 'dual', 'modern' or 'legacy', got ${String(options.eras)}`);
  }
  if (typeof options.legacySessions !== 'boolean') {
    throw new TypeError(
      `McpModule: options.legacySessions must be true or false, got ${String(options.legacySessions)}`,
    );
  }
  validateStateSecret(options.stateSecret);
  validateState(options, eventStoreGiven);
  validateCors(options);
  validateCache(options.cache);
  if (!isLoggingLevel(options.defaultLogLevel)) {
    throw new TypeError(
      `McpModule: options.defaultLogLevel must be one of ${LOGGING_LEVELS.join(', ')}, got ${String(options.defaultLogLevel)}`,
    );
  }
  if (!isEventStore(options.eventStore)) {
    throw new TypeError('McpModule: options.eventStore must implement append, replay, deleteStream and deleteSession');
  }
  if (!Number.isSafeInteger(options.pageSize)) {
    throw new TypeError(`McpModule: options.pageSize must be a whole number, got ${String(options.pageSize)}`);
  }
  if (typeof options.scopesOf !== 'function') {
    throw new TypeError('McpModule: options.scopesOf must be a function');
  }
  if (options.scopeDenial !== 'hide' && options.scopeDenial !== 'challenge') {
    throw new TypeError(
      `McpModule: options.scopeDenial must be 'hide' or 'challenge', got ${String(options.scopeDenial)}`,
    );
  }
  if (typeof options.sessionOwner !== 'function') {
    throw new TypeError('McpModule: options.sessionOwner must be a function');
  }
  for (const key of ['allowedOrigins', 'allowedHosts'] as const) {
    if (!Array.isArray(options[key]) || !options[key].every((entry) => typeof entry === 'string')) {
      throw new TypeError(`McpModule: options.${key} must be an array of strings`);
    }
  }
  for (const host of options.allowedHosts) {
    if (host !== '*' && !HOST_NAME.test(host)) {
      throw new TypeError(`McpModule: allowedHosts entry "${host}" must be a host name without scheme or port`);
    }
  }
  for (const origin of options.allowedOrigins) {
    if (origin !== '*' && !isOriginEntry(origin)) {
      throw new TypeError(
        `McpModule: allowedOrigins entry "${origin}" must be an origin (https://app.example.com), ` +
          `an origin with any port (http://localhost:*) or '*'`,
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
      'McpModule: options.stateSecret must be a string or bytes of at least 32 bytes (or a non-empty list of them)',
    );
  }
}

function validateCache(cache: unknown): void {
  if (typeof cache !== 'object' || cache === null) throw new TypeError('McpModule: options.cache must be an object');
  for (const [kind, hint] of Object.entries(cache)) {
    if (!CACHE_KINDS.has(kind)) {
      throw new TypeError(`McpModule: options.cache.${kind} is unknown; see McpCacheOptions`);
    }
    validateCacheHint(`McpModule: options.cache.${kind}`, hint);
  }
}

function validateState(options: Pick<McpModuleOptions, 'stateSecret' | 'state'>, eventStoreGiven: boolean): void {
  const { state } = options;
  if (state === undefined) return;
  if (typeof state !== 'object' || state === null || (state as { kind?: unknown }).kind !== 'mcp42.state') {
    throw new TypeError('McpModule: options.state must be made by an adapter, such as redisState() from mcp42/redis');
  }
  if (options.stateSecret === undefined) {
    throw new TypeError(
      'McpModule: options.state shares sessions between instances, so options.stateSecret must be set, the same ' +
        'on every instance (list cursors and 2026-07-28 requestState are sealed with it; a random key of one ' +
        'process would make every other instance refuse them)',
    );
  }
  if (eventStoreGiven) {
    throw new TypeError('McpModule: options.state keeps the stored events itself; leave options.eventStore unset');
  }
}

function validateCors(options: Pick<McpModuleOptions, 'cors' | 'allowedOrigins'>): void {
  const { cors } = options;
  if (typeof cors === 'boolean') return;
  if (typeof cors !== 'object' || cors === null) {
    throw new TypeError(`McpModule: options.cors must be true, false or an object, got ${String(cors)}`);
  }
  if (cors.credentials !== undefined && typeof cors.credentials !== 'boolean') {
    throw new TypeError('McpModule: options.cors.credentials must be true or false');
  }
  if (cors.maxAgeSeconds !== undefined && (!Number.isInteger(cors.maxAgeSeconds) || cors.maxAgeSeconds < 0)) {
    throw new TypeError('McpModule: options.cors.maxAgeSeconds must be a whole number of seconds, 0 or more');
  }
  if (cors.credentials === true && options.allowedOrigins?.includes('*')) {
    throw new TypeError(
      "McpModule: options.cors.credentials cannot be combined with allowedOrigins ['*']: any page could then act with the user's cookies",
    );
  }
}
