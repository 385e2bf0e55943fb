import type { McpModuleExtras, McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import type { ResolvedMcpOptions } from './interfaces/resolved-mcp-options.interface.js';
import { validateMcpOptions } from './mcp-options.validation.js';
import { InMemoryEventStore } from './session/in-memory-event-store.js';
import { defaultScopesOf } from './guards/scopes-of.js';
import { defaultSessionOwner } from './session/session-owner.js';

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** The one place defaults live. */
export const MCP_OPTION_DEFAULTS = {
  maxBodyBytes: 4 * 1024 * 1024,
  bodyTimeoutMs: 30_000,
  sessionIdleTimeoutMs: 30 * 60 * 1000,
  maxSessions: 10_000,
  // A hundredth of `maxSessions`, as `maxListenStreamsPerPrincipal` is of `maxListenStreams`.
  maxSessionsPerPrincipal: 100,
  outboxLimit: 1_000,
  keepAliveMs: 15_000,
  allowedOrigins: LOOPBACK_HOSTS.flatMap((host) => [`http://${host}:*`, `https://${host}:*`]),
  allowedHosts: [...LOOPBACK_HOSTS],
  sessionOwner: defaultSessionOwner,
  defaultLogLevel: 'info',
  pageSize: 100,
  scopesOf: defaultScopesOf,
  scopeDenial: 'hide',
  clientRequestTimeoutMs: 60_000,
  sseRetryMs: 1_000,
  maxStoredEvents: 1_000,
  storedEventMaxAgeMs: 5 * 60 * 1000,
  maxStoredEventChars: 4 * 1024 * 1024,
  eras: 'dual',
  legacySessions: true,
  requestStateTtlMs: 15 * 60 * 1000,
  cache: {},
  maxListenStreams: 1_000,
  maxListenStreamsPerPrincipal: 10,
  cors: false,
} as const satisfies Partial<McpModuleOptions>;

/** Defaults of the options that shape the module itself (see {@link McpModuleExtras}). */
export const MCP_EXTRAS_DEFAULTS: Readonly<Required<McpModuleExtras>> = Object.freeze({
  path: 'mcp',
  guards: [],
  isGlobal: false,
});

/** Applies defaults, then rejects values that cannot work (see `validateMcpOptions`). */
export function resolveMcpOptions(options: McpModuleOptions): ResolvedMcpOptions {
  if (!options || typeof options.name !== 'string' || typeof options.version !== 'string') {
    throw new TypeError('McpModule: options.name and options.version are required strings');
  }
  const merged = { ...MCP_OPTION_DEFAULTS, ...withoutUndefined(options) };
  // One store per module instance: two applications in one process never share events.
  const resolved: ResolvedMcpOptions = {
    ...merged,
    eventStore:
      merged.eventStore ??
      new InMemoryEventStore({
        maxEventsPerSession: merged.maxStoredEvents,
        maxEventAgeMs: merged.storedEventMaxAgeMs,
        maxCharsPerSession: merged.maxStoredEventChars,
      }),
  };
  validateMcpOptions(resolved, merged.eventStore !== undefined);
  return resolved;
}

function withoutUndefined<T extends object>(value: T): T {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as T;
}
