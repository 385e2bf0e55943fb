import type { Agent } from 'node:http';
import { CatalogueChild } from './catalogue-child.js';
import { CatalogueLoad, type CatalogueLoadFigures, type Listing } from './catalogue-load.js';
import { keepAliveAgent, send } from './http-client.js';
import type { LoadSettings } from './load.js';
import { modernBody, modernHeaders, openSession, sessionHeaders } from './mcp-client.js';
import { CATALOGUE_TOOLS, catalogueLabel, catalogueToolName, type CatalogueVariant } from './targets.js';

/** Full listings timed one after the other, after LISTING_WARMUP unmeasured ones. */
const LISTING_WARMUP = 2;
const LISTING_MIN_SAMPLES = 5;
/** In-process listings the child times (medians are reported): computing the pages is quick, encoding them not. */
const PROFILE_RUNS = { list: 100, encode: 15 } as const;

/** What the walk checks in the first tool's inputSchema, so that a catalogue is the one it claims to be. */
const SCHEMA_SHAPE = { simple: { properties: 1, defs: 0 }, complex: { properties: 40, defs: 5 } } as const;

export interface CatalogueSettings extends LoadSettings {
  /** Seconds of sequential full listings timed per catalogue (at least LISTING_MIN_SAMPLES listings). */
  readonly listingSeconds: number;
}

/** How often the global guard ran per full listing; zeros without one. */
export interface GuardChecks {
  /** In the tools' execution context ('mcp'): whether the caller may see each tool. */
  readonly tools: number;
  /** On the MCP endpoint's own HTTP route, once per request. */
  readonly route: number;
}

export interface CatalogueFigures {
  readonly variant: CatalogueVariant;
  /** CPU of NestFactory.create + listen in the child: where building the definitions (schemas included) goes. */
  readonly bootCpuMs: number;
  /** Requests per full listing. */
  readonly pages: number;
  /** JSON bodies of one full listing, HTTP headers excluded. */
  readonly listingBytes: number;
  /** Median time of one full listing, pages fetched one after the other on one idle keep-alive connection. */
  readonly listingMs: number;
  /** CPU the server's process spent per listing meanwhile (user + system): one listing's own cost, without contention. */
  readonly listingCpuMs: number;
  /** Median time to compute every page in the server's process (McpServer.listTools), without HTTP. */
  readonly listMs: number;
  /** Median time to encode every page's response there, as the server does (encodeResponseInParts), without HTTP. */
  readonly encodeMs: number;
  /** The same with JSON.stringify of each whole response: what encoding cost before pages were kept encoded. */
  readonly stringifyMs: number;
  readonly guardChecks: GuardChecks;
  readonly load: CatalogueLoadFigures;
}

const took = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** The request for the page after `cursor`, in the variant's era. */
const listBody = (variant: CatalogueVariant, cursor: string | undefined): string => {
  const params = cursor === undefined ? {} : { cursor };
  return variant.era === 'modern'
    ? modernBody('tools/list', params)
    : JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list', params });
};

interface ListedTool {
  readonly name?: unknown;
  readonly inputSchema?: { readonly properties?: object; readonly $defs?: object };
}

/**
 * Walks every page once, following `nextCursor`, and checks the catalogue: CATALOGUE_TOOLS tools in
 * order, pages of `pageSize`, the expected schema. Returns each page's request and its answer.
 */
async function walkCatalogue(agent: Agent, url: string, variant: CatalogueVariant): Promise<Listing> {
  const headers =
    variant.era === 'modern' ? modernHeaders('tools/list') : sessionHeaders(await openSession(agent, url));
  const fail = (why: string): never => {
    throw new Error(`${catalogueLabel(variant)}: ${why}`);
  };
  const bodies: string[] = [];
  const answers: string[] = [];
  let cursor: string | undefined;
  let seen = 0;
  do {
    const body = listBody(variant, cursor);
    const reply = await send(agent, 'POST', url, headers, body);
    if (reply.status !== 200 || !String(reply.headers['content-type']).startsWith('application/json')) {
      fail(`tools/list answered ${reply.status} ${reply.body.slice(0, 200)}`);
    }
    const { result } = JSON.parse(reply.body) as {
      result?: { tools?: ListedTool[]; nextCursor?: unknown; resultType?: unknown };
    };
    const tools = result?.tools ?? fail(`no tools in ${reply.body.slice(0, 200)}`);
    if (variant.era === 'modern' && result?.resultType !== 'complete') fail(`resultType ${String(result?.resultType)}`);
    if (tools.length !== Math.min(variant.pageSize, CATALOGUE_TOOLS - seen)) fail(`a page of ${tools.length} tools`);
    tools.forEach((tool, index) => {
      if (tool.name !== catalogueToolName(seen + index)) fail(`tool ${seen + index} is ${String(tool.name)}`);
    });
    if (seen === 0) checkSchema(tools[0]!, variant, fail);
    seen += tools.length;
    const next = result?.nextCursor;
    if (next !== undefined && typeof next !== 'string') fail('nextCursor is not a string');
    if ((next === undefined) !== (seen === CATALOGUE_TOOLS)) fail(`nextCursor ${String(next)} after ${seen} tools`);
    cursor = next as string | undefined;
    bodies.push(body);
    answers.push(reply.body);
  } while (cursor !== undefined);
  return { url, headers, bodies, answers };
}

function checkSchema(tool: ListedTool, variant: CatalogueVariant, fail: (why: string) => never): void {
  const expected = SCHEMA_SHAPE[variant.schema];
  const properties = Object.keys(tool.inputSchema?.properties ?? {}).length;
  const defs = Object.keys(tool.inputSchema?.$defs ?? {}).length;
  if (properties !== expected.properties || defs !== expected.defs) {
    fail(`inputSchema has ${properties} properties and ${defs} $defs`);
  }
}

/**
 * Full listings fetched page after page, for at least `seconds`; every answer must be the expected one.
 * @returns the median time of one, and how many ran (warm-ups included).
 */
async function timeListings(agent: Agent, listing: Listing, seconds: number): Promise<{ ms: number; runs: number }> {
  const listOnce = async (): Promise<void> => {
    for (let page = 0; page < listing.bodies.length; page++) {
      const reply = await send(agent, 'POST', listing.url, listing.headers, listing.bodies[page]);
      if (reply.body !== listing.answers[page]) throw new Error(`page ${page} changed: ${reply.body.slice(0, 200)}`);
    }
  };
  for (let i = 0; i < LISTING_WARMUP; i++) await listOnce();
  const times: number[] = [];
  const started = performance.now();
  while (times.length < LISTING_MIN_SAMPLES || performance.now() - started < seconds * 1000) {
    const listingStarted = performance.now();
    await listOnce();
    times.push(performance.now() - listingStarted);
  }
  times.sort((a, b) => a - b);
  return { ms: times[Math.floor(times.length / 2)]!, runs: LISTING_WARMUP + times.length };
}

interface Prepared {
  readonly child: CatalogueChild;
  readonly listing: Listing;
  readonly listingMs: number;
  readonly listingCpuMs: number;
  readonly guardChecks: GuardChecks;
  readonly load: CatalogueLoad;
}

/** Checks the catalogue, times single listings and counts guard checks on an otherwise idle server. */
async function prepare(
  child: CatalogueChild,
  variant: CatalogueVariant,
  settings: CatalogueSettings,
): Promise<Prepared> {
  const agent = keepAliveAgent();
  try {
    const listing = await walkCatalogue(agent, child.url, variant);
    const before = await child.usage();
    const { ms: listingMs, runs } = await timeListings(agent, listing, settings.listingSeconds);
    const after = await child.usage();
    const listingCpuMs = (after.cpuMicros - before.cpuMicros) / 1000 / runs;
    const guardChecks: GuardChecks = {
      tools: (after.mcpGuardChecks - before.mcpGuardChecks) / runs,
      route: (after.httpGuardChecks - before.httpGuardChecks) / runs,
    };
    if (guardChecks.tools !== (variant.guarded ? CATALOGUE_TOOLS : 0)) {
      throw new Error(`${catalogueLabel(variant)}: the guard ran ${guardChecks.tools} times per listing for tools`);
    }
    return { child, listing, listingMs, listingCpuMs, guardChecks, load: new CatalogueLoad(child, listing, settings) };
  } finally {
    agent.destroy();
  }
}

/**
 * tools/list on catalogue servers of CATALOGUE_TOOLS tools, one process each, all started up front:
 * each is checked and one listing timed alone, then all are put under load in turns (rounds) like the
 * echo targets, and finally each times one listing inside its own process, computing and encoding apart.
 */
export async function runCatalogues(
  variants: readonly CatalogueVariant[],
  settings: CatalogueSettings,
  log: (line: string) => void,
): Promise<CatalogueFigures[]> {
  const children: CatalogueChild[] = [];
  try {
    const booting = performance.now();
    // Started together: an idle server costs nothing, and bootstrap is reported as CPU time, which sharing
    // the cores does not change much.
    const outcomes = await Promise.allSettled(variants.map((variant) => CatalogueChild.start(variant)));
    for (const outcome of outcomes) if (outcome.status === 'fulfilled') children.push(outcome.value);
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw failure.reason; // the finally block stops the servers that did start
    log(`catalogues  ${variants.length} servers started (${took(booting)})`);
    const prepared: Prepared[] = [];
    for (const [index, variant] of variants.entries()) {
      const preparing = performance.now();
      prepared.push(await prepare(children[index]!, variant, settings));
      log(`catalogue   ${catalogueLabel(variant)} checked, one listing timed (${took(preparing)})`);
    }
    for (let round = 0; round < settings.rounds; round++) {
      for (const [index, { load }] of prepared.entries()) {
        const started = performance.now();
        if (round === 0) await load.warmUp();
        await load.measure(settings.durationSeconds / settings.rounds);
        log(`catalogue round ${round + 1}/${settings.rounds}  ${catalogueLabel(variants[index]!)} (${took(started)})`);
      }
    }
    const figures: CatalogueFigures[] = [];
    for (const [index, { child, listing, listingMs, listingCpuMs, guardChecks, load }] of prepared.entries()) {
      figures.push({
        variant: variants[index]!,
        bootCpuMs: child.bootCpuMs,
        pages: listing.bodies.length,
        listingBytes: listing.answers.reduce((sum, answer) => sum + Buffer.byteLength(answer), 0),
        listingMs,
        listingCpuMs,
        ...(await child.profile(PROFILE_RUNS)),
        guardChecks,
        load: load.figures(),
      });
    }
    return figures;
  } finally {
    await Promise.all(children.map((child) => child.stop()));
  }
}
