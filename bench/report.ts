import { createRequire } from 'node:module';
import type { ItemLoadFigures, ItemsFigures } from './items-load.js';
import type { LoadFigures, LoadSettings } from './load.js';
import { RATE_CONNECTIONS } from './session-rate.js';
import {
  benchUriTemplate,
  CATALOGUE_TOOLS,
  catalogueLabel,
  ITEM_OPERATIONS,
  ITEMS_FIXTURE,
  LOADS,
  TARGETS,
  TOOL_SCHEMAS,
  type CatalogueVariant,
  type LoadGroup,
  type LoadName,
  type TargetName,
  type ToolSchemaKind,
} from './targets.js';
import type { CatalogueFigures, CatalogueSettings } from './tool-list.js';

export interface SessionFigures {
  readonly bytesPerSession: number;
  readonly perSecond: number;
}

export interface BenchResults {
  readonly settings: LoadSettings;
  readonly sessionCount: number;
  readonly load: ReadonlyMap<LoadName, LoadFigures>;
  readonly sessions: ReadonlyMap<TargetName, SessionFigures>;
  /** Where the processes ran, and the load averages before and after the run. */
  readonly machine: { readonly placement: string; readonly loadBefore: string; readonly loadAfter: string };
}

const pad = (value: string, width: number): string => value.padEnd(width);
const num = (value: number, digits: number, width: number): string => value.toFixed(digits).padStart(width);
const optional = (value: number | undefined, digits: number, width: number): string =>
  value === undefined ? 'n/a'.padStart(width) : num(value, digits, width);

const GROUPS: Record<LoadGroup, string> = {
  express: `Express (Nest ${versionOf('@nestjs/core')}, @nestjs/platform-express, express ${versionOf('express')})`,
  fastify: `Fastify (Nest ${versionOf('@nestjs/core')}, @nestjs/platform-fastify, fastify ${versionOf('fastify')})`,
  sdk: 'official SDK (@modelcontextprotocol/sdk v1, @modelcontextprotocol/server v2)',
  telemetry: `OpenTelemetry (Express, 2025 session; @opentelemetry/sdk-node ${versionOf('@opentelemetry/sdk-node')}): vs "mcp42, 2025 session" above`,
};

function versionOf(name: string): string {
  try {
    return (createRequire(import.meta.url)(`${name}/package.json`) as { version: string }).version;
  } catch {
    return '?';
  }
}

/**
 * A / b of two loads: req/s over the whole run, the range of the per-round ratios, and the ratio of
 * server CPU per request (b's over a's: above 1 when a costs less), which holds better than req/s
 * when the machine is shared. Undefined when either was not measured.
 */
function compare(load: ReadonlyMap<LoadName, LoadFigures>, a: LoadName, b: LoadName): string | undefined {
  const [x, y] = [load.get(a), load.get(b)];
  return x && y ? compareFigures(x, y) : undefined;
}

/** X / y as {@link compare} prints it. */
export function compareFigures(x: LoadFigures, y: LoadFigures): string {
  const rounds = x.slices
    .map((slice, round) => {
      const other = y.slices[round];
      return other ? slice.reqPerSec / other.reqPerSec : undefined;
    })
    .filter((ratio): ratio is number => ratio !== undefined);
  const range =
    rounds.length > 1 ? ` [rounds ${Math.min(...rounds).toFixed(2)}-${Math.max(...rounds).toFixed(2)}]` : '';
  const cpu =
    x.cpuMicrosPerRequest !== undefined && y.cpuMicrosPerRequest !== undefined
      ? `, by CPU/req ${(y.cpuMicrosPerRequest / x.cpuMicrosPerRequest).toFixed(2)}x`
      : '';
  return `${(x.reqPerSec / y.reqPerSec).toFixed(2)}x${range}${cpu}`;
}

/** The closing table: load figures per platform, ratios, then session memory and creation rate. */
export function formatResults(results: BenchResults): string {
  const { settings, load, sessions, machine } = results;
  const lines = [
    `tools/call echo {"text":"hello"}: ${settings.connections} connections, pipelining ${settings.pipelining}, ` +
      `${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per load ` +
      `(in ${settings.rounds} turns), each load on a server process of its own;`,
    `  ${machine.placement}; load average ${machine.loadBefore} before, ${machine.loadAfter} after`,
    '  2025 loads on one initialized session (2025-11-25); 2026-07-28 loads stateless: MCP-Protocol-Version,',
    '  Mcp-Method and Mcp-Name headers, the _meta envelope (version, clientInfo, clientCapabilities), no session;',
    "  the bare routes answer the session echo's JSON-RPC result (no MCP checks), their body parsed by the platform",
    '  CPU µs/req: the server process (user + system) per request; server %: its CPU over the measured time',
    '  (100 = one core); others: cores kept busy meanwhile by processes other than the server and the load generator',
    '',
    `${pad('load', 46)}${'req/s'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}` +
      `${'CPU µs/req'.padStart(12)}${'server %'.padStart(10)}${'others'.padStart(8)}${'requests'.padStart(10)}  errors`,
  ];
  for (const group of Object.keys(GROUPS) as LoadGroup[]) {
    const members = [...load].filter(([name]) => LOADS[name].group === group);
    if (members.length === 0) continue;
    lines.push(GROUPS[group]);
    for (const [name, figures] of members) {
      const errors = figures.errors + figures.non2xx + figures.mismatches;
      const detail =
        errors > 0 ? ` (socket ${figures.errors}, non-2xx ${figures.non2xx}, wrong body ${figures.mismatches})` : '';
      lines.push(
        `  ${pad(LOADS[name].label, 44)}${num(figures.reqPerSec, 0, 9)}${num(figures.p50Ms, 2, 8)}${num(figures.p99Ms, 2, 8)}` +
          optional(figures.cpuMicrosPerRequest, 0, 12) +
          optional(figures.serverCores === undefined ? undefined : figures.serverCores * 100, 0, 10) +
          `${optional(figures.otherCores, 2, 8)}${String(figures.requests).padStart(10)}  ${errors}${detail}`,
      );
    }
  }

  const ratios: [string, string | undefined][] = [
    ['Express: mcp42 session / bare route (target >= 0.95x)', compare(load, 'mcp42', 'bare-nest')],
    ['Express: mcp42 endpoint alone / bare route', compare(load, 'mcp42-echo', 'bare-nest')],
    ['Express: mcp42 stateless / bare route', compare(load, 'mcp42-modern', 'bare-nest')],
    ['Fastify: mcp42 session / bare route (target >= 0.60x)', compare(load, 'mcp42-fastify', 'bare-nest-fastify')],
    ['Fastify: mcp42 endpoint alone / bare route', compare(load, 'mcp42-echo-fastify', 'bare-nest-fastify')],
    ['Fastify: mcp42 stateless / bare route', compare(load, 'mcp42-fastify-modern', 'bare-nest-fastify')],
    ['Express: stateless / session (target >= 1.00x)', compare(load, 'mcp42-modern', 'mcp42')],
    ['Fastify: stateless / session (target >= 1.00x)', compare(load, 'mcp42-fastify-modern', 'mcp42-fastify')],
    ['Fastify / Express, mcp42 session', compare(load, 'mcp42-fastify', 'mcp42')],
    ['Fastify / Express, bare route', compare(load, 'bare-nest-fastify', 'bare-nest')],
    ['mcp42 Express session / SDK v1 Express', compare(load, 'mcp42', 'sdk-express')],
    ['mcp42 Fastify session / SDK v1 node:http', compare(load, 'mcp42-fastify', 'sdk-node')],
    ['mcp42 Express stateless / SDK v2', compare(load, 'mcp42-modern', 'sdk2-modern')],
    ['mcp42 Fastify stateless / SDK v2', compare(load, 'mcp42-fastify-modern', 'sdk2-modern')],
    ['SDK v2 stateless / SDK v1 session (node:http)', compare(load, 'sdk2-modern', 'sdk-node')],
    ['Telemetry option without SDK / off (target >= 0.97x)', compare(load, 'mcp42-otel-nosdk', 'mcp42')],
    ['Telemetry, SDK + dropping exporter / off', compare(load, 'mcp42-otel-noop', 'mcp42')],
    ['Telemetry, SDK + batch OTLP / off (target >= 0.85x)', compare(load, 'mcp42-otel-otlp', 'mcp42')],
    ['Telemetry, SDK + OTLP/protobuf / off', compare(load, 'mcp42-otel-otlp-proto', 'mcp42')],
    ['SDK alone: bare route + one span, dropping / bare', compare(load, 'bare-nest-otel-noop', 'bare-nest')],
    ['SDK alone: bare route + one span, batch OTLP / bare', compare(load, 'bare-nest-otel-otlp', 'bare-nest')],
  ];
  const measured = ratios.filter((entry): entry is [string, string] => entry[1] !== undefined);
  if (measured.length > 0) {
    lines.push('', 'ratios of req/s (in brackets the range of the per-round ratios), and by server CPU per request:');
    for (const [label, ratio] of measured) lines.push(`  ${pad(label, 56)}${ratio}`);
  }
  const added = addedCpuLines(load);
  if (added.length > 0) {
    lines.push('', 'what mcp42 adds to the bare route, by server CPU per call (target: at most +25 µs):', ...added);
  }
  if (sessions.size > 0) {
    lines.push(
      '',
      `heap: ${results.sessionCount} idle sessions (initialize + notifications/initialized each), forced GC before and after`,
      `rate: ${results.sessionCount} more initialize requests over ${RATE_CONNECTIONS} keep-alive connections`,
    );
  }
  for (const [name, figures] of sessions) {
    lines.push(
      `  ${pad(TARGETS[name], 40)} heap per idle session ${num(figures.bytesPerSession / 1024, 2, 7)} KB` +
        `   sessions created per second ${num(figures.perSecond, 0, 6)}`,
    );
  }
  return lines.join('\n');
}

/**
 * Per platform, the 2025 session echo's server CPU per call on mcp42 and on the bare route, their
 * difference and their ratio; nothing for a platform where either was not measured.
 */
function addedCpuLines(load: ReadonlyMap<LoadName, LoadFigures>): string[] {
  const pairs = [
    ['Express', 'mcp42', 'bare-nest'],
    ['Express, endpoint alone', 'mcp42-echo', 'bare-nest'],
    ['Fastify', 'mcp42-fastify', 'bare-nest-fastify'],
    ['Fastify, endpoint alone', 'mcp42-echo-fastify', 'bare-nest-fastify'],
  ] as const;
  const lines: string[] = [];
  for (const [platform, mine, bare] of pairs) {
    const [x, y] = [load.get(mine)?.cpuMicrosPerRequest, load.get(bare)?.cpuMicrosPerRequest];
    if (x === undefined || y === undefined) continue;
    const difference = x - y;
    lines.push(
      `  ${pad(`${platform}:`, 25)}mcp42 ${num(x, 1, 6)} µs, bare route ${num(y, 1, 6)} µs: ` +
        `${difference >= 0 ? '+' : '-'}${Math.abs(difference).toFixed(1)} µs per call, mcp42 / bare ${(x / y).toFixed(2)}x ` +
        `(bare / mcp42 ${(y / x).toFixed(2)}x)`,
    );
  }
  return lines;
}

export interface CatalogueResults {
  readonly settings: CatalogueSettings;
  readonly figures: readonly CatalogueFigures[];
}

const MB = 1024 * 1024;

/**
 * The tools/list tables: one listing (in the server's process without HTTP, split into computing and
 * encoding; then over HTTP on an idle server), then load (per request and per listing, bytes per
 * second, server CPU per listing), then complex / simple ratios, what the extra bytes cost, and what
 * a global guard costs per listing.
 */
export function formatCatalogueResults({ settings, figures }: CatalogueResults): string {
  const label = (variant: CatalogueVariant): string => pad(catalogueLabel(variant), 34);
  const lines = [
    `tools/list of ${CATALOGUE_TOOLS} tools, every page walked by following nextCursor; each catalogue server in its own process`,
    ...Object.entries(TOOL_SCHEMAS).map(([kind, shape]) => `  ${pad(kind, 8)} tools: input DTO with ${shape}`),
    'one listing in the server process, no HTTP (medians): list = every page computed (McpServer.listTools: paging,',
    "  every tool's visibility check, the page's encoding kept); encode = every page's response encoded as the server",
    "  does (encodeResponseInParts: the page's kept bytes, the rest encoded); stringify = the same responses by",
    '  JSON.stringify, what encoding them cost before pages were kept encoded',
    `one listing over HTTP: pages fetched one after the other on one idle keep-alive connection (median, >= ${settings.listingSeconds} s`,
    '  of listings); CPU = what the server process (user + system) spent per listing meanwhile',
    '',
    `${pad('catalogue', 34)}${'pages'.padStart(6)}${'KB/listing'.padStart(12)}${'boot CPU s'.padStart(12)}` +
      `${'list ms'.padStart(9)}${'encode ms'.padStart(11)}${'stringify ms'.padStart(14)}${'HTTP ms'.padStart(9)}` +
      `${'CPU ms'.padStart(8)}  guard runs/listing`,
  ];
  for (const figure of figures) {
    const { variant, guardChecks } = figure;
    const guard = variant.guarded ? `${guardChecks.tools} tools + ${guardChecks.route} route` : '-';
    lines.push(
      `${label(variant)}${String(figure.pages).padStart(6)}${num(figure.listingBytes / 1024, 1, 12)}` +
        `${num(figure.bootCpuMs / 1000, 1, 12)}${num(figure.listMs, 2, 9)}${num(figure.encodeMs, 2, 11)}` +
        `${num(figure.stringifyMs, 2, 14)}${num(figure.listingMs, 2, 9)}${num(figure.listingCpuMs, 2, 8)}  ${guard}`,
    );
  }
  lines.push(
    '',
    `load: ${settings.connections} connections each walking all pages over and over, pipelining ${settings.pipelining}, ` +
      `${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per catalogue (in ${settings.rounds} turns);`,
    '  p50/p99 per request (one page); server CPU: its process, user + system (100% = one core busy)',
    '',
    `${pad('catalogue', 34)}${'req/s'.padStart(9)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}` +
      `${'requests'.padStart(10)}${'listings/s'.padStart(12)}${'MB/s'.padStart(8)}` +
      `${'CPU ms/listing'.padStart(16)}${'CPU %'.padStart(7)}  errors`,
  );
  for (const { variant, load } of figures) {
    const errors = load.errors + load.non2xx + load.mismatches;
    const detail = errors > 0 ? ` (socket ${load.errors}, non-2xx ${load.non2xx}, wrong body ${load.mismatches})` : '';
    lines.push(
      `${label(variant)}${num(load.reqPerSec, 1, 9)}${num(load.p50Ms, 2, 9)}${num(load.p99Ms, 2, 9)}` +
        `${String(load.requests).padStart(10)}${num(load.listingsPerSec, 1, 12)}${num(load.bytesPerSec / MB, 1, 8)}` +
        `${num(load.cpuMsPerListing, 2, 16)}${num((load.cpuMsPerListing * load.listingsPerSec) / 10, 0, 7)}` +
        `  ${errors}${detail}`,
    );
  }

  const find = (
    schema: ToolSchemaKind,
    pageSize: number,
    guarded: boolean,
    era: CatalogueVariant['era'] = 'session',
  ): CatalogueFigures | undefined =>
    figures.find(
      (f) =>
        f.variant.schema === schema &&
        f.variant.pageSize === pageSize &&
        f.variant.guarded === guarded &&
        f.variant.era === era,
    );
  const ratio = (a: number, b: number): string => `${(a / b).toFixed(2)}x`;
  const signed = (value: number, digits: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(digits)}`;
  const pageSizes = [
    ...new Set(figures.filter((f) => !f.variant.guarded && f.variant.era === 'session').map((f) => f.variant.pageSize)),
  ];
  lines.push('');
  for (const pageSize of pageSizes) {
    const simple = find('simple', pageSize, false);
    const complex = find('complex', pageSize, false);
    if (!simple || !complex) continue;
    const extraMb = (complex.listingBytes - simple.listingBytes) / MB;
    const perExtraMb = (complexMs: number, simpleMs: number): string => ((complexMs - simpleMs) / extraMb).toFixed(1);
    lines.push(
      `complex / simple, pageSize ${pageSize}: bytes ${ratio(complex.listingBytes, simple.listingBytes)}` +
        ` | in-process: list ${ratio(complex.listMs, simple.listMs)}, encode ${ratio(complex.encodeMs, simple.encodeMs)}` +
        ` | HTTP: one listing ${ratio(complex.listingMs, simple.listingMs)}, server CPU/listing ` +
        `${ratio(complex.listingCpuMs, simple.listingCpuMs)} idle, ` +
        `${ratio(complex.load.cpuMsPerListing, simple.load.cpuMsPerListing)} under load` +
        ` | listings/s ${ratio(complex.load.listingsPerSec, simple.load.listingsPerSec)}` +
        `, MB/s ${ratio(complex.load.bytesPerSec, simple.load.bytesPerSec)}`,
      `  server CPU per extra MB (the complex listing is ${extraMb.toFixed(2)} MB larger): ` +
        `${perExtraMb(complex.listingCpuMs, simple.listingCpuMs)} ms idle, ` +
        `${perExtraMb(complex.load.cpuMsPerListing, simple.load.cpuMsPerListing)} ms under load, ` +
        `of which encoding ${perExtraMb(complex.encodeMs, simple.encodeMs)} ms`,
    );
  }
  for (const schema of Object.keys(TOOL_SCHEMAS) as ToolSchemaKind[]) {
    const open = find(schema, 100, false);
    const guarded = find(schema, 100, true);
    if (!open || !guarded) continue;
    const listMs = guarded.listMs - open.listMs;
    lines.push(
      `global guard on every tool, ${schema}, pageSize 100: list ${signed(listMs, 2)} ms in-process ` +
        `(${signed((listMs * 1000) / CATALOGUE_TOOLS, 2)} µs per tool)` +
        ` | HTTP: server CPU/listing ${signed(guarded.listingCpuMs - open.listingCpuMs, 2)} ms idle, ` +
        `${signed(guarded.load.cpuMsPerListing - open.load.cpuMsPerListing, 2)} ms under load` +
        ` | listings/s ${ratio(guarded.load.listingsPerSec, open.load.listingsPerSec)}`,
    );
  }
  for (const modern of figures.filter((f) => f.variant.era === 'modern')) {
    const { schema, pageSize, guarded } = modern.variant;
    const session = find(schema, pageSize, guarded);
    if (!session) continue;
    lines.push(
      `2026-07-28 / 2025 session, ${schema}, pageSize ${pageSize}: server CPU/listing ` +
        `${ratio(modern.listingCpuMs, session.listingCpuMs)} idle, ` +
        `${ratio(modern.load.cpuMsPerListing, session.load.cpuMsPerListing)} under load` +
        ` | listings/s ${ratio(modern.load.listingsPerSec, session.load.listingsPerSec)}`,
    );
  }
  for (const figure of figures.filter((f) => f.variant.era === 'session' && !f.variant.guarded)) {
    lines.push(
      `encoding kept per page, ${catalogueLabel(figure.variant)}: a listing's responses encoded in ` +
        `${figure.encodeMs.toFixed(2)} ms, ${figure.stringifyMs.toFixed(2)} ms by JSON.stringify ` +
        `(${(figure.stringifyMs / figure.encodeMs).toFixed(0)}x)`,
    );
  }
  return lines.join('\n');
}

export interface ItemsResults {
  readonly settings: LoadSettings;
  readonly figures: ItemsFigures;
}

/**
 * The items tables: each request to the fixture next to the echo call, then resources/read on servers
 * of 1, 100 and 1,000 templates (only the last one matching), with what compiling, registering and
 * resolving the templates cost in-process, and the difference each extra template makes.
 */
export function formatItemsResults({ settings, figures }: ItemsResults): string {
  const loadColumns =
    `${'req/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'requests'.padStart(10)}` +
    'CPU µs/req'.padStart(12);
  const loadCells = (load: ItemLoadFigures): string =>
    `${num(load.reqPerSec, 1, 10)}${num(load.p50Ms, 2, 9)}${num(load.p99Ms, 2, 9)}` +
    `${String(load.requests).padStart(10)}${num(load.cpuMicrosPerRequest, 1, 12)}`;
  const errorCell = (load: ItemLoadFigures): string => {
    const errors = load.errors + load.non2xx + load.mismatches;
    const detail = errors > 0 ? ` (socket ${load.errors}, non-2xx ${load.non2xx}, wrong body ${load.mismatches})` : '';
    return `  ${errors}${detail}`;
  };
  const echo = figures.operations.get('echo');
  const lines = [
    `resources, prompts, completion: one mcp42 server process (bench/servers/mcp42-items.ts, boot CPU ` +
      `${(figures.fixtureBootCpuMs / 1000).toFixed(2)} s), one session; ${settings.connections} connections, ` +
      `pipelining ${settings.pipelining}, ${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured ` +
      `per request (in ${settings.rounds} turns); CPU = the server process, user + system`,
    `  static resource ${ITEMS_FIXTURE.resourceUri}; template ${ITEMS_FIXTURE.uriTemplate} read as ` +
      `${ITEMS_FIXTURE.templateUri} (variables DTO: @Type(() => Number) @IsInt @Min @Max); prompt ` +
      `${ITEMS_FIXTURE.prompt} (DTO: 2 arguments); completion of its topic argument, "${ITEMS_FIXTURE.completionPrefix}"` +
      ' typed: 20 of 100 topics',
    '',
    `${pad('request', 44)}${loadColumns}${'vs echo'.padStart(9)}  errors`,
  ];
  for (const [operation, load] of figures.operations) {
    const ratio = echo ? `${(load.reqPerSec / echo.reqPerSec).toFixed(2)}x` : 'n/a';
    lines.push(`${pad(ITEM_OPERATIONS[operation], 44)}${loadCells(load)}${ratio.padStart(9)}${errorCell(load)}`);
  }

  const { templates } = figures;
  lines.push(
    '',
    `resource templates: ${benchUriTemplate(0).replace('0000', 'NNNN')} (N = 0000, 0001, ...), variables DTO as above; ` +
      'every read asks for a URI only the LAST template matches (templates are tried in registration order);',
    '  one server process per count, under the same load as above',
    '  in-process medians, no HTTP: compile = new UriTemplate() for every template (uri-template-router builds a state',
    '  machine per template); register = McpResourceTemplateRegistry.add of every template in a fresh registry',
    '  (compile + definition + variables schema and validator); resolve = one ResourceStore.resolve of that URI',
    '',
    `${pad('templates', 10)}${'boot CPU s'.padStart(11)}${'compile ms'.padStart(12)}${'register ms'.padStart(13)}` +
      `${'resolve µs'.padStart(12)}${loadColumns}  errors`,
  );
  for (const template of templates) {
    lines.push(
      `${pad(String(template.count), 10)}${num(template.bootCpuMs / 1000, 2, 11)}${num(template.compileMs, 2, 12)}` +
        `${num(template.registerMs, 2, 13)}${num(template.resolveMicros, 2, 12)}${loadCells(template.load)}` +
        errorCell(template.load),
    );
  }
  const one = templates.find((template) => template.count === 1);
  const signed = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(2)}`;
  for (const many of templates) {
    if (!one || many.count === 1) continue;
    const extra = (a: number, b: number): string => signed((a - b) / (many.count - 1));
    const each = (ms: number): string => ((ms * 1000) / many.count).toFixed(2);
    lines.push(
      `${many.count} templates: per extra template (vs 1) boot CPU ${extra(many.bootCpuMs * 1000, one.bootCpuMs * 1000)} µs, ` +
        `resolve ${extra(many.resolveMicros, one.resolveMicros)} µs, ` +
        `server CPU per read ${extra(many.load.cpuMicrosPerRequest, one.load.cpuMicrosPerRequest)} µs` +
        ` | per template: compile ${each(many.compileMs)} µs, register ${each(many.registerMs)} µs` +
        ` | req/s ${(many.load.reqPerSec / one.load.reqPerSec).toFixed(2)}x that of 1 template`,
    );
  }
  return lines.join('\n');
}
