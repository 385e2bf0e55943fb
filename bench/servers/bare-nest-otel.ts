import { context, metrics, SpanKind, trace } from '@opentelemetry/api';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { BenchServer } from './bench-server.js';
import { startBareNest } from './bare-nest.js';
import { startBenchSdk, type TelemetryExport } from './mcp42-otel.js';
import { ECHO_CALL_METRIC, ECHO_CALL_SPAN } from '../echo-call-attributes.js';

/**
 * The bare Nest route with the least any instrumentation by the MCP conventions does per call, on the
 * same SDK setup as the mcp42 telemetry loads: one SERVER span with the attributes mcp42 gives a
 * `tools/call` (computed once), active while the request is handled, and one duration record. What
 * this costs over the bare route is the SDK's own (context manager, span processor, exporter), which
 * no instrumentation avoids; mcp42's telemetry loads are compared with it.
 */
export async function startBareNestOtel(exported: TelemetryExport): Promise<BenchServer> {
  const stop = startBenchSdk(exported);
  const tracer = trace.getTracer('bench', '1.0.0');
  const duration = metrics.getMeter('bench').createHistogram('mcp.server.operation.duration', { unit: 's' });
  const metric = ECHO_CALL_METRIC;
  const attributes = ECHO_CALL_SPAN;
  const traced = (_req: IncomingMessage, res: ServerResponse, next: () => void): void => {
    const started = performance.now();
    const parent = context.active();
    const span = tracer.startSpan('tools/call echo', { kind: SpanKind.SERVER, attributes }, parent);
    res.once('finish', () => {
      span.end();
      duration.record((performance.now() - started) / 1000, metric);
    });
    context.with(trace.setSpan(parent, span), next);
  };
  const server = await startBareNest('express', traced);
  return {
    ...server,
    close: async () => {
      await server.close();
      await stop();
    },
  };
}
