/** The servers the benchmark can start, by the name the child process is given. */
export const TARGETS = {
  mcp42: 'mcp42 (sample app, Nest + Express)',
  'bare-nest': 'bare Nest @Post() route (Express)',
  'sdk-express': 'official SDK (createMcpExpressApp)',
  'sdk-node': 'official SDK (plain node:http)',
} as const;

export type TargetName = keyof typeof TARGETS;

/** Parent → child. */
export type ChildCommand = { readonly type: 'heap' } | { readonly type: 'stop' };

/** Child → parent. */
export type ChildReport =
  | { readonly type: 'ready'; readonly url: string }
  | { readonly type: 'heap'; readonly heapUsed: number; readonly sessions: number | undefined };

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
}

/**
 * The catalogues measured: both schemas at the default page size and in one page; and the simple one
 * behind a global guard, whose cost per tool does not depend on the schema and shows best next to the
 * cheapest listing.
 */
export const CATALOGUE_VARIANTS: readonly CatalogueVariant[] = [
  { schema: 'simple', pageSize: 100, guarded: false },
  { schema: 'simple', pageSize: 1000, guarded: false },
  { schema: 'complex', pageSize: 100, guarded: false },
  { schema: 'complex', pageSize: 1000, guarded: false },
  { schema: 'simple', pageSize: 100, guarded: true },
];

export const catalogueLabel = ({ schema, pageSize, guarded }: CatalogueVariant): string =>
  `${schema}, pageSize ${pageSize}${guarded ? ', APP_GUARD' : ''}`;

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
   * every page (McpServer.listTools: paging and each tool's visibility check), `encodeMs` to encode
   * every page's response (the server's encodeResponse: JSON.stringify).
   */
  | { readonly type: 'profile'; readonly listMs: number; readonly encodeMs: number };
