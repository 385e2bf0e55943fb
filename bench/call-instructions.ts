/**
 * `node dist/bench/call-instructions.js [load…]`: the server's instructions per `tools/call` echo,
 * counted by Valgrind's callgrind, for loads of the load part (default: mcp42 and the bare route on
 * both platforms). Instruction counts do not depend on what else the machine runs, unlike CPU time,
 * so they compare builds on a shared machine. Each server runs under callgrind with instrumentation
 * off (Node starts about 5× slower, not 50×); after CALLS_WARMUP calls (default 20,000: after 2,000,
 * TurboFan was still compiling, about 100k instructions per counted call on Fastify, and which
 * functions it compiled in the window moved counts by 10 % between runs) instrumentation is switched on with `callgrind_control`, CALLS_MEASURED
 * calls (default 5,000) are sent by this process over CALLS_CONNECTIONS keep-alive connections
 * (default 8), and the counts are dumped. By default: mcp42 (the sample app, and its MCP endpoint
 * alone, without the sample's REST middleware that the bare route does not pay) and the bare route. With CALLS_KEEP_DUMPS=<folder>, each load's dump is kept
 * there (`<load>.callgrind`) for `callgrind_annotate --inclusive=yes`. Needs `valgrind` (with `callgrind_control`) on the PATH;
 * figures are printed, never asserted.
 */
import { execFile, fork, type ChildProcess } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import autocannon from 'autocannon';
import { keepAliveAgent } from './http-client.js';
import { prepareEcho } from './mcp-client.js';
import { OtlpSink } from './otlp-sink.js';
import { LOADS, otlpProtocolOf, type ChildReport, type LoadName } from './targets.js';

const run = promisify(execFile);
const SCRIPT = new URL('./server-process.js', import.meta.url);
const DEFAULT_LOADS: readonly LoadName[] = [
  'mcp42',
  'mcp42-echo',
  'bare-nest',
  'mcp42-fastify',
  'mcp42-echo-fastify',
  'bare-nest-fastify',
];

function envCount(name: string, fallback: number): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a positive integer`);
  return value;
}

interface Counted {
  readonly load: LoadName;
  readonly instructionsPerCall: number;
}

/** One server under callgrind: started, warmed, counted over the measured calls, stopped. */
async function count(load: LoadName, warmup: number, measured: number, connections: number): Promise<Counted> {
  const { server, era } = LOADS[load];
  const dir = mkdtempSync(join(tmpdir(), 'mcp42-callgrind-'));
  // A load exporting OTLP sends to a sink of this process, as in the load part (else every export fails).
  const protocol = otlpProtocolOf(server);
  const sink = protocol === undefined ? undefined : await OtlpSink.start();
  const child = fork(SCRIPT, [server], {
    ...(sink === undefined
      ? {}
      : { env: { ...process.env, OTEL_EXPORTER_OTLP_ENDPOINT: sink.url, OTEL_EXPORTER_OTLP_PROTOCOL: protocol } }),
    execPath: 'valgrind',
    execArgv: [
      '--tool=callgrind',
      '--instr-atstart=no',
      `--callgrind-out-file=${join(dir, 'callgrind.out.%p')}`,
      process.execPath,
      '--expose-gc',
      // No compiler or GC threads: what they did would fall into the counted calls or not depending
      // on their timing, which moved counts by tens of thousands of instructions per call.
      '--single-threaded',
    ],
    stdio: ['ignore', 'ignore', 'inherit', 'ipc'],
  });
  try {
    const ready = await new Promise<ChildReport>((resolve, reject) => {
      child.once('exit', (code) => reject(new Error(`${server} under valgrind exited with ${code}`)));
      child.once('message', (message: ChildReport) => resolve(message));
    });
    if (ready.type !== 'ready') throw new Error(`${server} sent ${ready.type} first`);
    const agent = keepAliveAgent();
    const { headers, body, expectBody } = await prepareEcho(agent, ready.url, era, server.startsWith('bare-nest'));
    agent.destroy();
    const calls = async (amount: number): Promise<void> => {
      const result = await autocannon({
        url: ready.url,
        method: 'POST',
        headers,
        body,
        connections,
        amount,
        expectBody,
        timeout: 60,
      });
      const wrong = result.errors + result.non2xx + result.mismatches;
      if (wrong > 0 || result.requests.total !== amount) {
        throw new Error(
          `${load}: ${result.requests.total} of ${amount} calls answered; socket errors ${result.errors} ` +
            `(timeouts ${result.timeouts}), non-2xx ${result.non2xx}, wrong bodies ${result.mismatches}`,
        );
      }
    };
    await calls(warmup);
    await control(child, '--instr=on');
    await calls(measured);
    await control(child, '--dump');
    await control(child, '--instr=off');
    const total = readTotal(dir);
    keepDumps(dir, load);
    return { load, instructionsPerCall: total / measured };
  } finally {
    await stop(child);
    await sink?.close();
    rmSync(dir, { recursive: true, force: true });
  }
}

/** Copies the dump to CALLS_KEEP_DUMPS when set, to read where the instructions went. */
function keepDumps(dir: string, load: LoadName): void {
  const keep = process.env.CALLS_KEEP_DUMPS;
  if (!keep) return;
  mkdirSync(keep, { recursive: true });
  // The file named at the start stays empty (instrumentation was off); the dump is a numbered part.
  const dumps = readdirSync(dir).filter((file) => statSync(join(dir, file)).size > 0);
  dumps.forEach((file, index) =>
    copyFileSync(join(dir, file), join(keep, `${load}${index === 0 ? '' : `.${index}`}.callgrind`)),
  );
}

async function control(child: ChildProcess, command: string): Promise<void> {
  await run('callgrind_control', [command, String(child.pid)]);
}

/** The instructions of the dump: callgrind writes a `totals:` (or `summary:`) line per file. */
function readTotal(dir: string): number {
  let total = 0;
  for (const file of readdirSync(dir)) {
    const match = /^(?:totals|summary): (\d+)/m.exec(readFileSync(join(dir, file), 'utf8'));
    if (match) total += Number(match[1]);
  }
  if (total === 0) throw new Error(`no callgrind dump in ${dir}`);
  return total;
}

async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.send({ type: 'stop' });
  const timer = setTimeout(() => child.kill('SIGKILL'), 60_000);
  await exited;
  clearTimeout(timer);
}

async function main(): Promise<void> {
  const warmup = envCount('CALLS_WARMUP', 20_000);
  const measured = envCount('CALLS_MEASURED', 5000);
  const connections = envCount('CALLS_CONNECTIONS', 8);
  const all = Object.keys(LOADS) as LoadName[];
  const asked = process.argv.slice(2);
  const unknown = asked.filter((name) => !(all as string[]).includes(name));
  if (unknown.length > 0) throw new Error(`unknown load ${unknown.join(', ')}; known: ${all.join(', ')}`);
  const loads = asked.length > 0 ? (asked as LoadName[]) : DEFAULT_LOADS;
  console.log(
    `server instructions per tools/call echo (callgrind): ${warmup} calls warm-up, ${measured} counted, ` +
      `${connections} keep-alive connections`,
  );
  const results = new Map<LoadName, number>();
  for (const load of loads) {
    const { instructionsPerCall } = await count(load, warmup, measured, connections);
    results.set(load, instructionsPerCall);
    console.log(
      `  ${`${LOADS[load].group}: ${LOADS[load].label}`.padEnd(48)}${(instructionsPerCall / 1000).toFixed(1).padStart(9)} k`,
    );
  }
  for (const [mine, bare] of [
    ['mcp42', 'bare-nest'],
    ['mcp42-echo', 'bare-nest'],
    ['mcp42-fastify', 'bare-nest-fastify'],
    ['mcp42-echo-fastify', 'bare-nest-fastify'],
  ] as const) {
    const [a, b] = [results.get(mine), results.get(bare)];
    if (a !== undefined && b !== undefined) {
      console.log(
        `  ${LOADS[mine].group}: ${mine.startsWith('mcp42-echo') ? 'endpoint alone' : 'sample app'} - bare route ${((a - b) / 1000).toFixed(1)} k instructions per call, ` +
          `mcp42 / bare ${(a / b).toFixed(2)}x`,
      );
    }
  }
  // Telemetry: what each setup adds to its own server without it; the bare route's lines are the SDK's
  // own cost (one span per request), which mcp42's telemetry cannot go below.
  for (const [traced, off] of [
    ['mcp42-otel-nosdk', 'mcp42'],
    ['mcp42-otel-noop', 'mcp42'],
    ['mcp42-otel-otlp', 'mcp42'],
    ['mcp42-otel-otlp-proto', 'mcp42'],
    ['bare-nest-otel-noop', 'bare-nest'],
    ['bare-nest-otel-otlp', 'bare-nest'],
  ] as const) {
    const [a, b] = [results.get(traced), results.get(off)];
    if (a !== undefined && b !== undefined) {
      console.log(
        `  telemetry: ${LOADS[traced].label} adds ${((a - b) / 1000).toFixed(1)} k instructions per call, ` +
          `${((a / b - 1) * 100).toFixed(1)} %`,
      );
    }
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
