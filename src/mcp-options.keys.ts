import type {
  McpAuthOptions,
  McpCacheOptions,
  McpCorsOptions,
  McpHttpOptions,
  McpLimitsOptions,
  McpModuleExtras,
  McpModuleOptions,
  McpResumabilityOptions,
  McpRoutesOptions,
  McpServedItems,
  McpSessionsOptions,
  McpStateOptions,
  McpStdioOptions,
  McpTasksOptions,
} from './interfaces/mcp-module-options.interface.js';

/** Every key of `T`, and no other: the compiler keeps these lists in step with the interfaces. */
type Keys<T> = Record<keyof Required<T>, true>;

const TOP_LEVEL: Keys<McpModuleOptions> = {
  name: true,
  version: true,
  title: true,
  instructions: true,
  items: true,
  eras: true,
  http: true,
  limits: true,
  sessions: true,
  auth: true,
  resumability: true,
  state: true,
  cache: true,
  telemetry: true,
  routes: true,
  stdio: true,
  tasks: true,
};

/** The groups of options, each with its fields. */
const GROUPS = {
  http: {
    allowedOrigins: true,
    allowedHosts: true,
    cors: true,
    bodyTimeoutMs: true,
    keepAliveMs: true,
    sseRetryMs: true,
  } satisfies Keys<McpHttpOptions>,
  limits: {
    bodyBytes: true,
    sessions: true,
    sessionsPerPrincipal: true,
    listenStreams: true,
    listenStreamsPerPrincipal: true,
    outboxMessages: true,
    outboxChars: true,
    bufferedChars: true,
    pageSize: true,
  } satisfies Keys<McpLimitsOptions>,
  sessions: {
    enabled: true,
    idleTimeoutMs: true,
    clientRequestTimeoutMs: true,
    defaultLogLevel: true,
  } satisfies Keys<McpSessionsOptions>,
  auth: { principalOf: true, scopesOf: true, scopeDenial: true } satisfies Keys<McpAuthOptions>,
  resumability: {
    eventStore: true,
    maxEvents: true,
    maxEventChars: true,
    maxEventAgeMs: true,
  } satisfies Keys<McpResumabilityOptions>,
  state: { shared: true, secret: true, requestStateTtlMs: true } satisfies Keys<McpStateOptions>,
  items: { tools: true, resources: true, resourceTemplates: true, prompts: true } satisfies Keys<McpServedItems>,
  cache: {
    discover: true,
    tools: true,
    prompts: true,
    resources: true,
    resourceTemplates: true,
    reads: true,
  } satisfies Keys<McpCacheOptions>,
  routes: { forwardHeaders: true, maxResponseBytes: true } satisfies Keys<McpRoutesOptions>,
  stdio: { user: true } satisfies Keys<McpStdioOptions>,
  tasks: {
    defaultTtlMs: true,
    maxTtlMs: true,
    pollIntervalMs: true,
    maxPerPrincipal: true,
    maxTasks: true,
  } satisfies Keys<McpTasksOptions>,
} as const;

type Group = keyof typeof GROUPS;

/** The fields of `http.cors` when it is an object. */
const CORS: Keys<McpCorsOptions> = { credentials: true, maxAgeSeconds: true };

/** The options of 0.x, flat, and where each is in 1.0. */
const MOVED_IN_1_0: Readonly<Record<string, string>> = {
  allowedOrigins: 'http.allowedOrigins',
  allowedHosts: 'http.allowedHosts',
  cors: 'http.cors',
  bodyTimeoutMs: 'http.bodyTimeoutMs',
  keepAliveMs: 'http.keepAliveMs',
  sseRetryMs: 'http.sseRetryMs',
  maxBodyBytes: 'limits.bodyBytes',
  maxSessions: 'limits.sessions',
  maxSessionsPerPrincipal: 'limits.sessionsPerPrincipal',
  maxListenStreams: 'limits.listenStreams',
  maxListenStreamsPerPrincipal: 'limits.listenStreamsPerPrincipal',
  outboxLimit: 'limits.outboxMessages',
  pageSize: 'limits.pageSize',
  legacySessions: 'sessions.enabled',
  sessionIdleTimeoutMs: 'sessions.idleTimeoutMs',
  clientRequestTimeoutMs: 'sessions.clientRequestTimeoutMs',
  defaultLogLevel: 'sessions.defaultLogLevel',
  sessionOwner: 'auth.principalOf',
  scopesOf: 'auth.scopesOf',
  scopeDenial: 'auth.scopeDenial',
  eventStore: 'resumability.eventStore',
  maxStoredEvents: 'resumability.maxEvents',
  maxStoredEventChars: 'resumability.maxEventChars',
  storedEventMaxAgeMs: 'resumability.maxEventAgeMs',
  stateSecret: 'state.secret',
  requestStateTtlMs: 'state.requestStateTtlMs',
};

/** What shapes the module itself: given beside `useFactory` in `forRootAsync`, never returned by it. */
const EXTRAS: Keys<McpModuleExtras> = { transport: true, path: true, guards: true, isGlobal: true };

/** Every option's full path (`limits.sessions`), for suggestions. */
const ALL_PATHS: readonly string[] = [
  ...Object.keys(TOP_LEVEL),
  ...Object.entries(GROUPS).flatMap(([group, fields]) => Object.keys(fields).map((field) => `${group}.${field}`)),
];

/**
 * Refuses options the module does not know, at any depth, each with what was probably meant: an
 * option of 0.x names its place in 1.0 (`maxSessions` → `limits.sessions`), a field in the wrong
 * group names its group, a typo the nearest name. A misspelt option would otherwise be silently
 * ignored, and its default used instead.
 * @throws TypeError listing every unknown key.
 */
export function refuseUnknownOptions(options: McpModuleOptions): void {
  const problems: string[] = [];
  for (const key of Object.keys(options)) {
    if (Object.hasOwn(TOP_LEVEL, key)) continue;
    problems.push(`\`${key}\`: ${suggestionFor(key, undefined)}`);
  }
  for (const group of Object.keys(GROUPS) as Group[]) {
    const value: unknown = options[group];
    if (value === undefined) continue;
    if (typeof value !== 'object' || value === null || Array.isArray(value)) {
      problems.push(`\`${group}\` must be an object of options (${Object.keys(GROUPS[group]).join(', ')})`);
      continue;
    }
    if (group === 'state' && (value as { kind?: unknown }).kind === 'mcp42.state') {
      // 0.x took the adapter's state itself as `state`.
      problems.push(
        '`state`: did you mean `state: { shared: redisState(...), secret }`? (options are grouped since 1.0)',
      );
      continue;
    }
    for (const key of Object.keys(value)) {
      if (Object.hasOwn(GROUPS[group], key)) continue;
      problems.push(`\`${group}.${key}\`: ${suggestionFor(key, group)}`);
    }
  }
  const cors: unknown = options.http?.cors;
  if (typeof cors === 'object' && cors !== null) {
    for (const key of Object.keys(cors)) {
      if (Object.hasOwn(CORS, key)) continue;
      const near = nearest(key, Object.keys(CORS));
      problems.push(
        `\`http.cors.${key}\`: ${near === undefined ? 'not a CORS option (credentials, maxAgeSeconds)' : `did you mean \`http.cors.${near}\`?`}`,
      );
    }
  }
  if (problems.length > 0) {
    throw new TypeError(`McpModule: unknown option${problems.length > 1 ? 's' : ''}: ${problems.join('; ')}`);
  }
}

function suggestionFor(key: string, group: Group | undefined): string {
  const moved = Object.hasOwn(MOVED_IN_1_0, key) ? MOVED_IN_1_0[key] : undefined;
  if (moved !== undefined) return `did you mean \`${moved}\`? (options are grouped since 1.0)`;
  if (group === undefined && Object.hasOwn(EXTRAS, key)) {
    return `it shapes the module: give it to forRootAsync({ ${key}, useFactory }) beside the factory, not in its result`;
  }
  const owner = (Object.keys(GROUPS) as Group[]).find((candidate) => Object.hasOwn(GROUPS[candidate], key));
  if (owner !== undefined && owner !== group) return `did you mean \`${owner}.${key}\`?`;
  const nearest = nearestPath(group === undefined ? key : `${group}.${key}`);
  return nearest === undefined ? 'not an option of McpModuleOptions' : `did you mean \`${nearest}\`?`;
}

/** The known option whose path is nearest to `path` (case ignored), if it is near enough to be a typo. */
function nearestPath(path: string): string | undefined {
  return nearest(path, ALL_PATHS);
}

/** The candidate nearest to `name` (case ignored), if it is near enough to be a typo of it. */
function nearest(name: string, candidates: readonly string[]): string | undefined {
  let best: string | undefined;
  let bestDistance = Infinity;
  for (const candidate of candidates) {
    const distance = editDistance(name.toLowerCase(), candidate.toLowerCase());
    if (distance < bestDistance) {
      best = candidate;
      bestDistance = distance;
    }
  }
  return bestDistance <= Math.max(2, Math.floor(name.length / 4)) ? best : undefined;
}

/** Levenshtein distance: insertions, deletions and substitutions. */
function editDistance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, index) => index);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const substitution = previous[j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1);
      current.push(Math.min(previous[j]! + 1, current[j - 1]! + 1, substitution));
    }
    previous = current;
  }
  return previous[b.length]!;
}
