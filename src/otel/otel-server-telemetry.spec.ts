import { context, metrics, trace } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { MeterProvider, MetricReader } from '@opentelemetry/sdk-metrics';
import { BasicTracerProvider, InMemorySpanExporter, SimpleSpanProcessor } from '@opentelemetry/sdk-trace-base';
import type { TelemetryOperation } from '../interfaces/mcp-telemetry.interface.js';
import type { JsonRpcResponse } from '../protocol/json-rpc.types.js';
import { mcpTelemetry } from './mcp-telemetry.js';

class CollectingReader extends MetricReader {
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

const OPERATION: TelemetryOperation = { method: 'tools/call', id: 1, params: { name: 'echo' } };
const ANSWER: JsonRpcResponse = { jsonrpc: '2.0', id: 1, result: { content: [] } };

describe('OtelServerTelemetry on the global OpenTelemetry API', () => {
  afterEach(() => {
    trace.disable();
    metrics.disable();
    context.disable();
  });

  it('describes nothing while no SDK is registered, and records once one is, even after bootstrap', async () => {
    const telemetry = mcpTelemetry().port.forServer({ name: 'late', version: '1.0.0' });
    let active: unknown = 'unset';
    await telemetry.request(OPERATION, () => {
      active = trace.getActiveSpan();
      return ANSWER;
    });
    expect(active).toBeUndefined();
    expect(telemetry.traceMeta()).toBeUndefined();

    const exporter = new InMemorySpanExporter();
    const reader = new CollectingReader();
    context.setGlobalContextManager(new AsyncLocalStorageContextManager().enable());
    trace.setGlobalTracerProvider(new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }));
    metrics.setGlobalMeterProvider(new MeterProvider({ readers: [reader] }));
    await telemetry.request(OPERATION, () => {
      active = trace.getActiveSpan();
      return ANSWER;
    });
    expect(active).toBeDefined();
    expect(exporter.getFinishedSpans().map((span) => span.name)).toEqual(['tools/call echo']);
    const { resourceMetrics } = await reader.collect();
    const names = resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics.map((m) => m.descriptor.name));
    expect(names).toContain('mcp.server.operation.duration');
  });

  it('passes on what the transport threw, the span ended in error', async () => {
    const exporter = new InMemorySpanExporter();
    const telemetry = mcpTelemetry({
      tracerProvider: new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(exporter)] }),
    }).port.forServer({ name: 'failing', version: '1.0.0' });
    await expect(
      telemetry.request(OPERATION, () => {
        throw new TypeError('broken transport');
      }),
    ).rejects.toThrow('broken transport');
    const [span] = exporter.getFinishedSpans();
    expect(span?.attributes['error.type']).toBe('TypeError');
    expect(span?.events.map((event) => event.name)).toEqual(['exception']);
  });
});
