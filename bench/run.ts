/**
 * `npm run bench`: throughput of tools/call echo on mcp42 (2025 session and stateless 2026-07-28)
 * and on a bare Nest route answering the same result, on Express and on Fastify, and on the official
 * SDK, v1 (stateful; Express and node:http) and v2 (`createMcpHandler`, 2026-07-28), with each
 * server's CPU per request read from its process, and the 2025 session echo with telemetry (the
 * `telemetry` option without an OpenTelemetry SDK; the Node SDK with exporters that drop; batch
 * OTLP/HTTP exporters to a loopback sink of this process); then heap per idle session and session creation
 * rate; then tools/list on catalogues of 1,000 tools with simple and complex schemas; then
 * resources/read, prompts/get and completion/complete next to tools/call, and template resolution
 * with 1, 100 and 1,000 resource templates; then, when `redis-server` is on the PATH, the same 2025
 * session echo with sessions in Redis (one instance on Express and on Fastify, next to in memory; two
 * Express instances behind a round-robin proxy), session creation rate and Redis memory per session
 * and per stored event. Every server runs on one core and this process (the load generator) on another
 * when `taskset` can pin them. Figures are printed, never asserted.
 *
 * Environment: BENCH_DURATION (measured s per target, default 10; a catalogue gets a quarter of it,
 * an items request 15%), BENCH_WARMUP (s, default 2; a catalogue and each items request get half of
 * it), BENCH_ROUNDS (turns the duration is split into, default 2), BENCH_CONNECTIONS (default 10),
 * BENCH_SESSIONS (default 2000; at most 4000 in the redis part), BENCH_PARTS (which parts run, default
 * "load,sessions,catalogues,items,redis"), BENCH_LOADS (which echo loads of the load part run, by name,
 * default all: see LOADS in targets.ts; the redis part runs those of REDIS_LOADS, the in-memory ones
 * only when the load part did not), BENCH_PIN (0: pin nothing), BENCH_CPU_PROF (a directory: every server
 * process writes a V8 CPU profile there, `node --cpu-prof`, when it stops; profiling slows it down, so
 * its figures are not comparable with unprofiled runs).
 */
import { loadAverage, pinned, placement } from './affinity.js';
import { ServerChild } from './child.js';
import { keepAliveAgent } from './http-client.js';
import { OtlpSink } from './otlp-sink.js';
import { runItems } from './items-load.js';
import { TargetLoad, type LoadFigures, type LoadSettings } from './load.js';
import { prepareEcho } from './mcp-client.js';
import { runRedisPart } from './redis-part.js';
import { formatRedisResults } from './redis-report.js';
import { formatCatalogueResults, formatItemsResults, formatResults, type SessionFigures } from './report.js';
import { measureSessionMemory } from './session-memory.js';
import { measureSessionRate } from './session-rate.js';
import { CATALOGUE_VARIANTS, LOADS, otlpProtocolOf, TARGETS, type LoadName, type TargetName } from './targets.js';
import { runCatalogues, type CatalogueSettings } from './tool-list.js';

const SESSION_TARGETS: readonly TargetName[] = ['mcp42', 'mcp42-fastify', 'sdk-express'];
const PARTS = ['load', 'sessions', 'catalogues', 'items', 'redis'] as const;
/** Shares of BENCH_DURATION and BENCH_WARMUP each catalogue gets: there are six of them. */
const CATALOGUE_DURATION_SHARE = 0.25;
const CATALOGUE_WARMUP_SHARE = 0.5;
const CATALOGUE_LISTING_SHARE = 0.05;
/**
 * Shares of BENCH_DURATION and BENCH_WARMUP each items request gets: there are nine of them, on four
 * server processes (the first request on each warms up twice as long).
 */
const ITEMS_DURATION_SHARE = 0.15;
const ITEMS_WARMUP_SHARE = 0.5;

function envNumber(name: string, fallback: number, min = 0): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}`);
  return value;
}

const took = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/**
 * Prepares the echo call of one load: opens a session (none for the bare route) or, for a 2026-07-28
 * load, builds the stateless request; then checks a few echo answers before any load.
 */
async function prepareLoad(child: ServerChild, name: LoadName, settings: LoadSettings): Promise<TargetLoad> {
  const { server, era } = LOADS[name];
  const agent = keepAliveAgent();
  try {
    const echo = await prepareEcho(agent, child.url, era, server.startsWith('bare-nest'));
    return new TargetLoad({ url: child.url, ...echo }, settings, () => child.cpuMicros());
  } finally {
    agent.destroy();
  }
}

/**
 * Every load runs against a server process of its own, all started up front (an idle server costs no
 * CPU); the measured time is split into rounds in which the loads take turns.
 */
async function runLoad(settings: LoadSettings): Promise<Map<LoadName, LoadFigures>> {
  const children: ServerChild[] = [];
  let sink: OtlpSink | undefined;
  try {
    const loads = new Map<LoadName, TargetLoad>();
    for (const name of loadNames()) {
      const { server } = LOADS[name];
      // The batch OTLP exporters send to a sink of this process over loopback HTTP, as JSON or protobuf.
      const protocol = otlpProtocolOf(server);
      if (protocol) sink ??= await OtlpSink.start();
      const env: NodeJS.ProcessEnv | undefined = protocol
        ? { OTEL_EXPORTER_OTLP_ENDPOINT: sink!.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol }
        : undefined;
      const child = await ServerChild.start(server, env ? { env } : {});
      children.push(child);
      loads.set(name, await prepareLoad(child, name, settings));
    }
    for (let round = 0; round < settings.rounds; round++) {
      for (const [name, load] of loads) {
        const started = performance.now();
        if (round === 0) await load.warmUp();
        await load.measure(settings.durationSeconds / settings.rounds);
        const { group, label } = LOADS[name];
        console.log(`load round ${round + 1}/${settings.rounds}  ${group}: ${label} (${took(started)})`);
      }
    }
    if (sink)
      console.log(`otlp sink: ${sink.received.exports} exports received, ${(sink.received.bytes / 1e6).toFixed(1)} MB`);
    return new Map([...loads].map(([name, load]) => [name, load.figures()]));
  } finally {
    await Promise.all(children.map((child) => child.stop()));
    await sink?.close();
  }
}

/** The loads BENCH_LOADS names (all by default), in the order of LOADS. */
function loadNames(): LoadName[] {
  const all = Object.keys(LOADS) as LoadName[];
  const wanted = process.env.BENCH_LOADS?.split(',').map((name) => name.trim());
  if (!wanted) return all;
  const unknown = wanted.filter((name) => !(all as string[]).includes(name));
  if (unknown.length > 0) throw new Error(`BENCH_LOADS: unknown ${unknown.join(', ')}; known: ${all.join(', ')}`);
  return all.filter((name) => wanted.includes(name));
}

/** Heap per idle session, then creation rate, in a fresh server process per target. */
async function runSessions(count: number): Promise<Map<TargetName, SessionFigures>> {
  const figures = new Map<TargetName, SessionFigures>();
  for (const target of SESSION_TARGETS) {
    const started = performance.now();
    const child = await ServerChild.start(target);
    try {
      const { bytesPerSession } = await measureSessionMemory(child, count);
      const perSecond = await measureSessionRate(child, count);
      figures.set(target, { bytesPerSession, perSecond });
    } finally {
      await child.stop();
    }
    console.log(`sessions    ${TARGETS[target]} (${took(started)})`);
  }
  return figures;
}

async function main(): Promise<void> {
  const settings: LoadSettings = {
    connections: envNumber('BENCH_CONNECTIONS', 10, 1),
    pipelining: 1,
    warmupSeconds: envNumber('BENCH_WARMUP', 2),
    durationSeconds: envNumber('BENCH_DURATION', 10, 1),
    rounds: Math.floor(envNumber('BENCH_ROUNDS', 2, 1)),
  };
  const sessionCount = Math.floor(envNumber('BENCH_SESSIONS', 2000, 1));
  const catalogueSettings: CatalogueSettings = {
    ...settings,
    warmupSeconds: settings.warmupSeconds * CATALOGUE_WARMUP_SHARE,
    durationSeconds: settings.durationSeconds * CATALOGUE_DURATION_SHARE,
    listingSeconds: settings.durationSeconds * CATALOGUE_LISTING_SHARE,
  };
  const itemsSettings: LoadSettings = {
    ...settings,
    warmupSeconds: settings.warmupSeconds * ITEMS_WARMUP_SHARE,
    durationSeconds: settings.durationSeconds * ITEMS_DURATION_SHARE,
  };
  const parts = (process.env.BENCH_PARTS ?? PARTS.join(',')).split(',').map((part) => part.trim());
  const unknown = parts.filter((part) => !(PARTS as readonly string[]).includes(part));
  if (unknown.length > 0) throw new Error(`BENCH_PARTS: unknown ${unknown.join(', ')}; known: ${PARTS.join(', ')}`);
  const started = performance.now();
  pinned(); // pins this process before any server starts
  const loadBefore = loadAverage();
  console.log(`${placement()}; load average ${loadBefore}`);

  const load = parts.includes('load') ? await runLoad(settings) : new Map<LoadName, LoadFigures>();
  const sessions = parts.includes('sessions') ? await runSessions(sessionCount) : new Map<TargetName, SessionFigures>();
  const catalogues = parts.includes('catalogues')
    ? await runCatalogues(CATALOGUE_VARIANTS, catalogueSettings, (line) => console.log(line))
    : [];
  const items = parts.includes('items') ? await runItems(itemsSettings, (line) => console.log(line)) : undefined;
  const log = (line: string): void => console.log(line);
  const redis = parts.includes('redis')
    ? await runRedisPart({ settings, sessionCount, load, sessions, log })
    : undefined;

  const machine = { placement: placement(), loadBefore, loadAfter: loadAverage() };
  if (load.size > 0 || sessions.size > 0) {
    console.log(`\n${formatResults({ settings, sessionCount, load, sessions, machine })}`);
  }
  if (catalogues.length > 0) {
    console.log(`\n${formatCatalogueResults({ settings: catalogueSettings, figures: catalogues })}`);
  }
  if (items) console.log(`\n${formatItemsResults({ settings: itemsSettings, figures: items })}`);
  if (redis) console.log(`\n${formatRedisResults(redis)}`);
  console.log(`\nbench took ${took(started)}`);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
