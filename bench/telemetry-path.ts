/**
 * `node dist/bench/telemetry-path.js`: the CPU one `tools/call` costs on the telemetry path alone,
 * without HTTP or Nest, under the OpenTelemetry Node SDK (async-local-storage context, batch span
 * processor and periodic metric reader, exporters that drop): describing the message as the HTTP
 * transport does, the span, its context active over a handler with two awaits, the duration metric.
 * Also the same handler with no telemetry, with the `telemetry` option before any SDK, and the
 * floor: the bare SDK calls any instrumentation by the conventions makes (see `floor`).
 *
 * It measures what the server's code adds, in a form robust to a busy machine: the variants take
 * turns within one process (TP_ROUNDS turns of TP_ITERATIONS operations each), and each reports the
 * median over the turns of its process CPU (user + system) per operation. For instruction counts,
 * run it under `valgrind --tool=callgrind` twice with different TP_ITERATIONS (both at least 5000,
 * the warm-up), TP_ROUNDS=1 and TP_VARIANTS set to one variant's name as printed (`|` between
 * several): the difference of the totals over the difference of the operations is the instructions
 * per operation, whatever else the machine runs.
 *
 * TP_BUILDS: comma-separated directories holding a build's `src/` (default: this build's), to set
 * two builds side by side (A/B), each as a variant `sdk@<dir>`.
 */
import type { IncomingMessage } from 'node:http';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { context, metrics, propagation, ROOT_CONTEXT, SpanKind, trace } from '@opentelemetry/api';
import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { McpTelemetry, ServerTelemetry, TelemetryOperation } from '../src/interfaces/mcp-telemetry.interface.js';
import type { JsonRpcRequest, JsonRpcResponse } from '../src/protocol/json-rpc.types.js';
import { ECHO_CALL_METRIC, ECHO_CALL_SPAN } from './echo-call-attributes.js';

const dropping: SpanExporter & PushMetricExporter = {
  export: (_items: unknown, done: (result: ExportResult) => void) => {
    done({ code: ExportResultCode.SUCCESS });
  },
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};

const REQUEST: JsonRpcRequest = {
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'echo', arguments: { text: 'hello' } },
};
const ANSWER: JsonRpcResponse = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'hello' }] } };

/** What the transport reads of an HTTP request: the bench client's headers, its socket. */
const RAW = {
  headers: {
    host: '127.0.0.1:40000',
    connection: 'keep-alive',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'mcp-session-id': '0f8fad5b-d9cb-469f-a165-70867728950e',
    'mcp-protocol-version': '2025-11-25',
    'content-length': '88',
  },
  httpVersion: '1.1',
  socket: { remoteAddress: '127.0.0.1', remotePort: 40001 },
} as unknown as IncomingMessage;

type OperationOf = (
  message: JsonRpcRequest,
  raw: IncomingMessage,
  protocolVersion: string | undefined,
  sessionId?: string,
) => TelemetryOperation;

interface Build {
  readonly telemetry: ServerTelemetry;
  readonly operationOf: OperationOf;
}

async function load(srcDir: string): Promise<Build> {
  const otel = (await import(pathToFileURL(path.join(srcDir, 'otel/index.js')).href)) as {
    mcpTelemetry: () => McpTelemetry;
  };
  const traced = (await import(pathToFileURL(path.join(srcDir, 'http/eras/traced-message.js')).href)) as {
    operationOf: OperationOf;
  };
  const telemetry = otel.mcpTelemetry().port.forServer({ name: 'bench', version: '1.0.0' });
  // The echo tool exists, as on a server (builds before the catalog name every tool asked for).
  (telemetry as Partial<ServerTelemetry>).catalog?.({
    hasTool: () => true,
    hasPrompt: () => true,
    hasResource: () => true,
  });
  return { telemetry, operationOf: traced.operationOf };
}

/** A handler as the dispatcher runs one: a couple of awaits before the answer. */
async function handler(): Promise<JsonRpcResponse> {
  await Promise.resolve();
  await Promise.resolve();
  return ANSWER;
}

type Variant = (iterations: number) => Promise<void>;

function traced(build: Build): Variant {
  return async (iterations) => {
    for (let i = 0; i < iterations; i++) {
      await build.telemetry.request(build.operationOf(REQUEST, RAW, '2025-11-25', 'session-1'), handler);
    }
  };
}

/**
 * The least any instrumentation by the conventions does per tools/call on the same SDK: one span with
 * the same attributes, made active over the handler, and one histogram record, every attribute
 * computed beforehand. What the telemetry costs above it is the describing of messages, the
 * propagation and the bookkeeping of mcp42's own code.
 */
function floor(): Variant {
  const tracer = trace.getTracer('floor');
  const histogram = metrics.getMeter('floor').createHistogram('floor.duration');
  const metric = ECHO_CALL_METRIC;
  const attributes = ECHO_CALL_SPAN;
  return async (iterations) => {
    for (let i = 0; i < iterations; i++) {
      const started = performance.now();
      const span = tracer.startSpan('tools/call echo', { kind: SpanKind.SERVER, attributes }, ROOT_CONTEXT);
      await context.with(trace.setSpan(ROOT_CONTEXT, span), handler);
      span.end();
      histogram.record((performance.now() - started) / 1000, metric);
    }
  };
}

const plain: Variant = async (iterations) => {
  for (let i = 0; i < iterations; i++) await handler();
};

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

const median = (values: number[]): number => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)]!;
};

/** Runs `variants` in turns; returns each one's CPU µs per operation, one figure per turn. */
async function turns(
  variants: Map<string, Variant>,
  iterations: number,
  rounds: number,
): Promise<Map<string, number[]>> {
  const only = process.env.TP_VARIANTS?.split('|');
  const chosen = [...variants].filter(([name]) => only === undefined || only.includes(name));
  const figures = new Map<string, number[]>(chosen.map(([name]) => [name, []]));
  for (const [, run] of chosen) await run(Math.min(iterations, 5_000)); // warm-up
  for (let round = 0; round < rounds; round++) {
    for (const [name, run] of chosen) {
      const before = cpuMicros();
      await run(iterations);
      figures.get(name)!.push((cpuMicros() - before) / iterations);
    }
  }
  return figures;
}

function print(figures: Map<string, number[]>): void {
  for (const [name, values] of figures) {
    const range = `${Math.min(...values).toFixed(2)}-${Math.max(...values).toFixed(2)}`;
    console.log(`  ${name.padEnd(40)} ${median(values).toFixed(2).padStart(7)}  (${range})`);
  }
}

async function main(): Promise<void> {
  const iterations = Number(process.env.TP_ITERATIONS ?? 20_000);
  const rounds = Number(process.env.TP_ROUNDS ?? 15);
  const here = path.dirname(fileURLToPath(import.meta.url));
  const builds = (process.env.TP_BUILDS ?? path.join(here, '../src')).split(',').map((dir) => path.resolve(dir));
  const label = (dir: string): string => path.relative(process.cwd(), dir) || '.';
  const loaded = await Promise.all(builds.map(load));
  console.log(`telemetry path: ${rounds} turns of ${iterations} operations per variant; CPU µs/op (median, min-max)`);

  // Before the SDK registers its providers, the telemetry checks for one per message and records nothing.
  const before = new Map<string, Variant>([['no telemetry', plain]]);
  builds.forEach((dir, i) => before.set(`option, no SDK @${label(dir)}`, traced(loaded[i]!)));
  print(await turns(before, iterations, rounds));

  const sdk = new NodeSDK({
    serviceName: 'mcp42-bench',
    spanProcessors: [new BatchSpanProcessor(dropping)],
    metricReaders: [new PeriodicExportingMetricReader({ exporter: dropping, exportIntervalMillis: 5_000 })],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  const after = new Map<string, Variant>([
    ['SDK, no telemetry', plain],
    ["SDK, the conventions' floor", floor()],
  ]);
  builds.forEach((dir, i) => after.set(`SDK @${label(dir)}`, traced(loaded[i]!)));
  print(await turns(after, iterations, rounds));
  await sdk.shutdown();
  // Leaves the global API clean.
  trace.disable();
  metrics.disable();
  context.disable();
  propagation.disable();
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
