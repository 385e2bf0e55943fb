import { ExportResultCode, type ExportResult } from '@opentelemetry/core';
import { OTLPMetricExporter } from '@opentelemetry/exporter-metrics-otlp-http';
import { OTLPMetricExporter as OTLPProtoMetricExporter } from '@opentelemetry/exporter-metrics-otlp-proto';
import { OTLPTraceExporter } from '@opentelemetry/exporter-trace-otlp-http';
import { OTLPTraceExporter as OTLPProtoTraceExporter } from '@opentelemetry/exporter-trace-otlp-proto';
import { PeriodicExportingMetricReader, type PushMetricExporter } from '@opentelemetry/sdk-metrics';
import { NodeSDK } from '@opentelemetry/sdk-node';
import { BatchSpanProcessor, type SpanExporter } from '@opentelemetry/sdk-trace-base';
import type { BenchServer } from './bench-server.js';
import { startMcp42 } from './mcp42.js';

/**
 * How the telemetry of a bench server leaves it: dropped by the exporter, or sent over OTLP/HTTP to a
 * sink, as JSON (`otlp`) or protobuf (`otlp-proto`, the SDK's default protocol).
 */
export type TelemetryExport = 'noop' | 'otlp' | 'otlp-proto';

/** An exporter that takes every batch and drops it: what the SDK itself costs, without the network. */
const dropping: SpanExporter & PushMetricExporter = {
  export: (_items: unknown, done: (result: ExportResult) => void) => {
    done({ code: ExportResultCode.SUCCESS });
  },
  shutdown: () => Promise.resolve(),
  forceFlush: () => Promise.resolve(),
};

/**
 * The OpenTelemetry Node SDK as sample-app/main.ts starts it: batched spans and metrics every 5 s, to
 * `export`. With `otlp`, OTEL_EXPORTER_OTLP_ENDPOINT (given by the parent: a sink of its own) receives
 * them over OTLP/HTTP. Returns what stops it.
 */
export function startBenchSdk(exported: TelemetryExport): () => Promise<void> {
  const traces =
    exported === 'otlp' ? new OTLPTraceExporter() : exported === 'otlp-proto' ? new OTLPProtoTraceExporter() : dropping;
  const metrics =
    exported === 'otlp'
      ? new OTLPMetricExporter()
      : exported === 'otlp-proto'
        ? new OTLPProtoMetricExporter()
        : dropping;
  const sdk = new NodeSDK({
    serviceName: 'mcp42-bench',
    spanProcessors: [new BatchSpanProcessor(traces)],
    metricReaders: [
      new PeriodicExportingMetricReader({
        exporter: metrics,
        exportIntervalMillis: 5_000,
      }),
    ],
    logRecordProcessors: [],
    instrumentations: [],
  });
  sdk.start();
  return () => sdk.shutdown();
}

/** The sample app on Express with the bench's OpenTelemetry SDK started first. */
export async function startMcp42Otel(exported: TelemetryExport): Promise<BenchServer> {
  return startMcp42('express', 'memory', startBenchSdk(exported));
}
