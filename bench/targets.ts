/** The servers the benchmark can start, by the name the child process is given. */
export const TARGETS = {
  mcp42: 'mcp42 (sample app, Nest + Express)',
  'mcp42-fastify': 'mcp42 (sample app, Nest + Fastify)',
  'mcp42-echo': 'mcp42 (echo endpoint alone, Nest + Express)',
  'mcp42-echo-fastify': 'mcp42 (echo endpoint alone, Nest + Fastify)',
  'bare-nest': 'bare Nest @Post() route (Express)',
  'bare-nest-fastify': 'bare Nest @Post() route (Fastify)',
  'sdk-express': 'official SDK v1 (createMcpExpressApp)',
  'sdk-node': 'official SDK v1 (plain node:http)',
  'sdk2-node': 'official SDK v2 (createMcpHandler, node:http)',
  'mcp42-redis': 'mcp42 (sample app, Nest + Express), sessions in Redis',
  'mcp42-fastify-redis': 'mcp42 (sample app, Nest + Fastify), sessions in Redis',
  'round-robin-proxy': 'round-robin HTTP proxy (test/utils/round-robin-proxy.ts)',
  'mcp42-otel-nosdk': 'mcp42 (sample app, Nest + Express), telemetry option, no OpenTelemetry SDK registered',
  'mcp42-otel-noop': 'mcp42 (sample app, Nest + Express), OpenTelemetry SDK, exporters that drop',
  'mcp42-otel-otlp': 'mcp42 (sample app, Nest + Express), OpenTelemetry SDK, batch OTLP/HTTP (JSON) to a loopback sink',
  'mcp42-otel-otlp-proto':
    'mcp42 (sample app, Nest + Express), OpenTelemetry SDK, batch OTLP/HTTP (protobuf) to a loopback sink',
  'bare-nest-otel-noop': 'bare Nest @Post() route (Express), one SDK span per request, exporters that drop',
  'bare-nest-otel-otlp':
    'bare Nest @Post() route (Express), one SDK span per request, batch OTLP/HTTP (JSON) to a sink',
} as const;

export type TargetName = keyof typeof TARGETS;

/**
 * The OTLP protocol a server's batch exporters send with, to a sink the parent starts (its URL goes in
 * OTEL_EXPORTER_OTLP_ENDPOINT); undefined for a server exporting nothing over the network.
 */
export function otlpProtocolOf(server: TargetName): 'http/json' | 'http/protobuf' | undefined {
  if (server === 'mcp42-otel-otlp' || server === 'bare-nest-otel-otlp') return 'http/json';
  return server === 'mcp42-otel-otlp-proto' ? 'http/protobuf' : undefined;
}

/**
 * How a load sends the echo call: `session`, on a 2025-11-25 session opened first (the bare route gets a
 * made-up session id); `modern`, as a stateless 2026-07-28 request (MCP headers and the `_meta`
 * envelope, no session).
 */
export type EchoEra = 'session' | 'modern';

/**
 * Which group of the report a load belongs to: the HTTP platform under Nest, the official SDK, or
 * mcp42's telemetry (next to the same load without it).
 */
export type LoadGroup = 'express' | 'fastify' | 'sdk' | 'telemetry';

/** One load of the load part: a server process, and how the echo call is sent to it. */
export interface LoadTarget {
  readonly server: TargetName;
  readonly era: EchoEra;
  readonly group: LoadGroup;
  readonly label: string;
}

/**
 * The loads of the load part, in the order they take turns; each gets a server process of its own.
 * Per platform: mcp42 in both eras and the bare route answering the same JSON-RPC result; then the
 * official SDK, v1 (stateful, 2025 sessions) and v2 (stateless 2026-07-28). `mcp42` and
 * `mcp42-fastify` are the sample app, whose REST middleware and second MCP endpoint every request
 * passes by (on Fastify through `@fastify/middie`'s route matching); `mcp42-echo…` is the same MCP
 * endpoint alone, set up as the bare route is: the like-for-like comparison with it.
 */
export const LOADS = {
  mcp42: { server: 'mcp42', era: 'session', group: 'express', label: 'mcp42, 2025 session' },
  'mcp42-modern': { server: 'mcp42', era: 'modern', group: 'express', label: 'mcp42, 2026-07-28 stateless' },
  'mcp42-echo': { server: 'mcp42-echo', era: 'session', group: 'express', label: 'mcp42 endpoint alone, 2025 session' },
  'bare-nest': { server: 'bare-nest', era: 'session', group: 'express', label: 'bare Nest @Post() route' },
  'mcp42-fastify': { server: 'mcp42-fastify', era: 'session', group: 'fastify', label: 'mcp42, 2025 session' },
  'mcp42-fastify-modern': {
    server: 'mcp42-fastify',
    era: 'modern',
    group: 'fastify',
    label: 'mcp42, 2026-07-28 stateless',
  },
  'mcp42-echo-fastify': {
    server: 'mcp42-echo-fastify',
    era: 'session',
    group: 'fastify',
    label: 'mcp42 endpoint alone, 2025 session',
  },
  'bare-nest-fastify': {
    server: 'bare-nest-fastify',
    era: 'session',
    group: 'fastify',
    label: 'bare Nest @Post() route',
  },
  'sdk-express': { server: 'sdk-express', era: 'session', group: 'sdk', label: 'v1 createMcpExpressApp, 2025 session' },
  'sdk-node': { server: 'sdk-node', era: 'session', group: 'sdk', label: 'v1 node:http, 2025 session' },
  'sdk2-modern': { server: 'sdk2-node', era: 'modern', group: 'sdk', label: 'v2 createMcpHandler, 2026-07-28' },
  // The same 2025 session echo as `mcp42`, which is telemetry off (no SDK, no `telemetry` option).
  'mcp42-otel-nosdk': {
    server: 'mcp42-otel-nosdk',
    era: 'session',
    group: 'telemetry',
    label: 'telemetry option, no SDK registered',
  },
  'mcp42-otel-noop': {
    server: 'mcp42-otel-noop',
    era: 'session',
    group: 'telemetry',
    label: 'telemetry on, SDK + dropping exporter',
  },
  'mcp42-otel-otlp': {
    server: 'mcp42-otel-otlp',
    era: 'session',
    group: 'telemetry',
    label: 'telemetry on, SDK + batch OTLP to a sink',
  },
  'mcp42-otel-otlp-proto': {
    server: 'mcp42-otel-otlp-proto',
    era: 'session',
    group: 'telemetry',
    label: 'telemetry on, SDK + batch OTLP/protobuf to a sink',
  },
  // What the SDK costs any instrumentation: the bare route with one span per request, the same SDK setup.
  'bare-nest-otel-noop': {
    server: 'bare-nest-otel-noop',
    era: 'session',
    group: 'telemetry',
    label: 'bare route, one SDK span, dropping exporter',
  },
  'bare-nest-otel-otlp': {
    server: 'bare-nest-otel-otlp',
    era: 'session',
    group: 'telemetry',
    label: 'bare route, one SDK span, batch OTLP to a sink',
  },
} as const satisfies Record<string, LoadTarget>;

export type LoadName = keyof typeof LOADS;

/**
 * One echo load of the redis part: `instances` server processes of `server`, reached directly or
 * through the round-robin proxy (in a process of its own), on one 2025 session opened first.
 */
export interface RedisLoadTarget {
  readonly server: TargetName;
  readonly instances: 1 | 2;
  readonly proxied: boolean;
  readonly group: 'express' | 'fastify';
  readonly label: string;
}

/**
 * The loads of the redis part, in the order they take turns: per platform the in-memory session
 * (the same load as in LOADS, run here when the load part did not run it), then Redis state on one
 * instance; on Express also one instance behind the proxy (what the proxy costs) and two instances
 * behind it, each request on the other one (what crossing instances costs on top).
 */
export const REDIS_LOADS = {
  mcp42: { server: 'mcp42', instances: 1, proxied: false, group: 'express', label: 'in memory' },
  'mcp42-redis': { server: 'mcp42-redis', instances: 1, proxied: false, group: 'express', label: 'Redis, 1 instance' },
  'mcp42-redis-proxied': {
    server: 'mcp42-redis',
    instances: 1,
    proxied: true,
    group: 'express',
    label: 'Redis, 1 instance behind the proxy',
  },
  'mcp42-redis-2': {
    server: 'mcp42-redis',
    instances: 2,
    proxied: true,
    group: 'express',
    label: 'Redis, 2 instances, round robin',
  },
  'mcp42-fastify': { server: 'mcp42-fastify', instances: 1, proxied: false, group: 'fastify', label: 'in memory' },
  'mcp42-fastify-redis': {
    server: 'mcp42-fastify-redis',
    instances: 1,
    proxied: false,
    group: 'fastify',
    label: 'Redis, 1 instance',
  },
} as const satisfies Record<string, RedisLoadTarget>;

export type RedisLoadName = keyof typeof REDIS_LOADS;

/** The in-memory loads of REDIS_LOADS, which the load part may have measured already (same names in LOADS). */
export const IN_MEMORY_REDIS_LOADS = ['mcp42', 'mcp42-fastify'] as const satisfies readonly (RedisLoadName &
  LoadName)[];

/** Parent → child. */
export type ChildCommand = { readonly type: 'heap' } | { readonly type: 'usage' } | { readonly type: 'stop' };

/** Child → parent. */
export type ChildReport =
  | { readonly type: 'ready'; readonly url: string }
  | { readonly type: 'heap'; readonly heapUsed: number; readonly sessions: number | undefined }
  /** CPU the child's process used so far (user + system, µs). */
  | { readonly type: 'usage'; readonly cpuMicros: number };

/** How many tools each catalogue server of the tools/list benchmark registers. */
export const CATALOGUE_TOOLS = 1000;

/** The name of tool `index` of a catalogue; tools/list serves them in this order. */
export const catalogueToolName = (index: number): string => `tool_${String(index).padStart(4, '0')}`;

/** The input DTO every tool of a catalogue has (bench/servers/catalogue-dtos.ts). */
export const TOOL_SCHEMAS = {
  simple: 'one string property',
  complex: '40 properties, 5 nested DTOs ($defs), enums, patterns, formats',
} as const;

export type ToolSchemaKind = keyof typeof TOOL_SCHEMAS;

/** One catalogue server: an mcp42 app whose provider has CATALOGUE_TOOLS generated `@McpTool()` methods. */
export interface CatalogueVariant {
  readonly schema: ToolSchemaKind;
  /** The module's `pageSize` option. */
  readonly pageSize: number;
  /** Whether a global APP_GUARD (it allows everything) is asked about every tool of every page. */
  readonly guarded: boolean;
  /** How the pages are asked for: on a 2025 session, or as stateless 2026-07-28 requests. */
  readonly era: EchoEra;
}

/**
 * The catalogues measured: both schemas at the default page size and in one page; the simple one
 * behind a global guard, whose cost per tool does not depend on the schema and shows best next to the
 * cheapest listing; and the complex one listed by stateless 2026-07-28 requests (whose results the
 * era stamps: resultType, serverInfo, caching hints).
 */
export const CATALOGUE_VARIANTS: readonly CatalogueVariant[] = [
  { schema: 'simple', pageSize: 100, guarded: false, era: 'session' },
  { schema: 'simple', pageSize: 1000, guarded: false, era: 'session' },
  { schema: 'complex', pageSize: 100, guarded: false, era: 'session' },
  { schema: 'complex', pageSize: 1000, guarded: false, era: 'session' },
  { schema: 'simple', pageSize: 100, guarded: true, era: 'session' },
  { schema: 'complex', pageSize: 100, guarded: false, era: 'modern' },
];

export const catalogueLabel = ({ schema, pageSize, guarded, era }: CatalogueVariant): string =>
  `${schema}, pageSize ${pageSize}${guarded ? ', APP_GUARD' : ''}${era === 'modern' ? ', 2026-07-28' : ''}`;

/** How many in-process listings the child times: computing the pages, encoding them. */
export interface ProfileRuns {
  readonly list: number;
  readonly encode: number;
}

/** Parent → catalogue child. */
export type CatalogueCommand =
  { readonly type: 'usage' } | { readonly type: 'profile'; readonly runs: ProfileRuns } | { readonly type: 'stop' };

/** Catalogue child → parent. */
export type CatalogueReport =
  /** `bootCpuMs`: CPU (user + system) the process spent in NestFactory.create + listen. */
  | { readonly type: 'ready'; readonly url: string; readonly bootCpuMs: number }
  /** CPU the child's process used so far (user + system, µs), and how often its guard ran, by context type. */
  | {
      readonly type: 'usage';
      readonly cpuMicros: number;
      readonly mcpGuardChecks: number;
      readonly httpGuardChecks: number;
    }
  /**
   * Medians, in ms, of one full listing inside the server's process, without HTTP: `listMs` to compute
   * every page (McpServer.listTools: paging, each tool's visibility check, the page's encoding kept),
   * `encodeMs` to encode every page's response as the server does (encodeResponseInParts: the page's
   * kept bytes and the rest), `stringifyMs` to encode them with JSON.stringify whole, as every listing
   * did before pages were kept encoded.
   */
  | { readonly type: 'profile'; readonly listMs: number; readonly encodeMs: number; readonly stringifyMs: number };

/**
 * The requests of the items benchmark, each against the one fixture server (bench/servers/mcp42-items.ts)
 * on one session; the echo call is the baseline the others compare with.
 */
export const ITEM_OPERATIONS = {
  echo: 'tools/call echo (baseline)',
  resource: 'resources/read, static text resource',
  template: 'resources/read, template + DTO variables',
  prompt: 'prompts/get, DTO arguments',
  completion: 'completion/complete, @McpCompletion list',
  route: 'tools/call, @McpRoute GET (in process)',
} as const;

export type ItemOperation = keyof typeof ITEM_OPERATIONS;

/** What the fixture serves, and what the benchmark asks of it. */
export const ITEMS_FIXTURE = {
  resourceUri: 'bench://notes/readme',
  resourceText: 'mcp42 bench fixture: a static text resource, read as it is.',
  uriTemplate: 'bench://items/{id}',
  templateUri: 'bench://items/42',
  prompt: 'summarise',
  promptArguments: { topic: 'weather today', style: 'detailed' },
  /** What the completion request has typed so far: the topics starting with it (any case) are the answer. */
  completionPrefix: 'tra',
} as const;

/** The candidates the fixture's completer filters: 100 topics, 20 of them starting with "tra". */
export const ITEM_TOPICS: readonly string[] = ['weather', 'traffic', 'markets', 'sports', 'science', 'health']
  .concat(['travel', 'music', 'films', 'books'])
  .flatMap((subject) =>
    ['today', 'this week', 'in Europe', 'in Asia', 'overview', 'outlook', 'history', 'records', 'tips', 'news'].map(
      (qualifier) => `${subject} ${qualifier}`,
    ),
  );

/** How many resource templates each server of the template resolution benchmark has. */
export const TEMPLATE_COUNTS = [1, 100, 1000] as const;

/** Template `index` of a template server; they differ only in a path segment, so a miss is found early. */
export const benchUriTemplate = (index: number): string => `bench://templates/t${String(index).padStart(4, '0')}/{id}`;

/** The URI every read on a server of `count` templates asks for: only the last template matches it. */
export const lastTemplateUri = (count: number): string => benchUriTemplate(count - 1).replace('{id}', '42');

/** Which server an items child starts: the fixture, or one with `count` generated templates. */
export type ItemsServerSpec = { readonly kind: 'fixture' } | { readonly kind: 'templates'; readonly count: number };

/** Parent → items child. */
export type ItemsCommand = { readonly type: 'usage' } | { readonly type: 'profile' } | { readonly type: 'stop' };

/** Items child → parent. */
export type ItemsReport =
  /** `bootCpuMs`: CPU (user + system) the process spent in NestFactory.create + listen. */
  | { readonly type: 'ready'; readonly url: string; readonly bootCpuMs: number }
  /** CPU the child's process used so far (user + system, µs). */
  | { readonly type: 'usage'; readonly cpuMicros: number }
  /**
   * In the process of a template server, without HTTP (medians): `resolveMicros` for one
   * ResourceStore.resolve of lastTemplateUri(count); `compileMs` to compile every template
   * (new UriTemplate); `registerMs` to register every template in a fresh registry (McpResourceTemplateRegistry.add).
   */
  | {
      readonly type: 'profile';
      readonly resolveMicros: number;
      readonly compileMs: number;
      readonly registerMs: number;
    };
