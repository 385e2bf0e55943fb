import { getHeapStatistics } from 'node:v8';
import type { McpModuleExtras, McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import type { ResolvedMcpOptions } from './interfaces/resolved-mcp-options.interface.js';
import { NO_TELEMETRY } from './interfaces/mcp-telemetry.interface.js';
import { refuseUnknownOptions } from './mcp-options.keys.js';
import { validateMcpOptions } from './mcp-options.validation.js';
import { InMemoryEventStore } from './session/in-memory-event-store.js';
import { defaultScopesOf } from './guards/scopes-of.js';
import { defaultPrincipalOf } from './session/principal-of.js';

const LOOPBACK_HOSTS = ['localhost', '127.0.0.1', '[::1]'] as const;

/** The one place defaults live, group by group as {@link McpModuleOptions} has them. */
export const MCP_OPTION_DEFAULTS = {
  eras: 'dual',
  http: {
    allowedOrigins: LOOPBACK_HOSTS.flatMap((host) => [`http://${host}:*`, `https://${host}:*`]),
    allowedHosts: [...LOOPBACK_HOSTS],
    cors: false,
    bodyTimeoutMs: 30_000,
    keepAliveMs: 15_000,
    sseRetryMs: 1_000,
  },
  limits: {
    bodyBytes: 4 * 1024 * 1024,
    sessions: 10_000,
    // A hundredth of `sessions`, as `listenStreamsPerPrincipal` is of `listenStreams`.
    sessionsPerPrincipal: 100,
    listenStreams: 1_000,
    listenStreamsPerPrincipal: 10,
    outboxMessages: 1_000,
    outboxChars: 4 * 1024 * 1024,
    // A small fraction of what the process may hold: the rest is the application's.
    bufferedChars: Math.floor(getHeapStatistics().heap_size_limit / 64),
    pageSize: 100,
  },
  sessions: {
    enabled: true,
    idleTimeoutMs: 30 * 60 * 1000,
    clientRequestTimeoutMs: 60_000,
    defaultLogLevel: 'info',
  },
  auth: {
    principalOf: defaultPrincipalOf,
    scopesOf: defaultScopesOf,
    scopeDenial: 'hide',
  },
  resumability: {
    maxEvents: 1_000,
    maxEventChars: 4 * 1024 * 1024,
    maxEventAgeMs: 5 * 60 * 1000,
  },
  state: {
    requestStateTtlMs: 15 * 60 * 1000,
  },
  cache: {},
  routes: {
    forwardHeaders: ['authorization'],
    maxResponseBytes: 4 * 1024 * 1024,
  },
  stdio: {},
  tasks: {
    defaultTtlMs: 60 * 60 * 1000,
    maxTtlMs: 24 * 60 * 60 * 1000,
    pollIntervalMs: 1_000,
    maxPerPrincipal: 100,
    maxTasks: 10_000,
  },
} as const satisfies Omit<McpModuleOptions, 'name' | 'version'>;

/** Defaults of the options that shape the module itself (see {@link McpModuleExtras}). */
export const MCP_EXTRAS_DEFAULTS: Readonly<Required<McpModuleExtras>> = Object.freeze({
  transport: 'http',
  path: 'mcp',
  guards: [],
  isGlobal: false,
});

/**
 * Refuses unknown and misplaced keys, applies the defaults group by group, then rejects values that
 * cannot work (see `validateMcpOptions`).
 */
export function resolveMcpOptions(options: McpModuleOptions): ResolvedMcpOptions {
  if (!options || typeof options.name !== 'string' || typeof options.version !== 'string') {
    throw new TypeError('McpModule: options.name and options.version are required strings');
  }
  refuseUnknownOptions(options);
  const defaults = MCP_OPTION_DEFAULTS;
  const resumability = { ...defaults.resumability, ...given(options.resumability) };
  const resolved: ResolvedMcpOptions = {
    name: options.name,
    version: options.version,
    ...(options.title === undefined ? {} : { title: options.title }),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
    items: options.items,
    eras: options.eras ?? defaults.eras,
    http: { ...defaults.http, ...given(options.http) },
    limits: { ...defaults.limits, ...given(options.limits) },
    sessions: { ...defaults.sessions, ...given(options.sessions) },
    auth: { ...defaults.auth, ...given(options.auth) },
    resumability: {
      ...resumability,
      // One store per module instance: two applications in one process never share events.
      eventStore:
        resumability.eventStore ??
        new InMemoryEventStore({
          maxEventsPerSession: resumability.maxEvents,
          maxEventAgeMs: resumability.maxEventAgeMs,
          maxCharsPerSession: resumability.maxEventChars,
        }),
      customEventStore: resumability.eventStore !== undefined,
    },
    state: { ...defaults.state, ...given(options.state) },
    cache: options.cache ?? defaults.cache,
    telemetry: telemetryOf(options),
    routes: { ...defaults.routes, ...given(options.routes) },
    stdio: { ...defaults.stdio, ...given(options.stdio) },
    tasks: { ...defaults.tasks, ...given(options.tasks) },
  };
  validateMcpOptions(resolved);
  return resolved;
}

/** The server's own telemetry, bound to its name: two servers of one application record apart. */
function telemetryOf({ telemetry, name, version }: McpModuleOptions): ResolvedMcpOptions['telemetry'] {
  if (telemetry === undefined) return NO_TELEMETRY;
  if (typeof telemetry !== 'object' || (telemetry as { kind?: unknown }).kind !== 'mcp42.telemetry') {
    throw new TypeError(
      'McpModule: options.telemetry must be made by an adapter, such as mcpTelemetry() from mcp42/otel',
    );
  }
  return telemetry.port.forServer({ name, version });
}

/** A group as given, without its `undefined` fields (which take the defaults). */
function given<T extends object>(group: T | undefined): Partial<T> {
  if (group === undefined) return {};
  return Object.fromEntries(Object.entries(group).filter(([, value]) => value !== undefined)) as Partial<T>;
}
