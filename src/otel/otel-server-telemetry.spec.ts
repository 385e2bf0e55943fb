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
    telemetry.catalog({ hasTool: (name) => name === 'echo', hasPrompt: () => false, hasResource: () => false });
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

  it('counts a 2025 request answered -32601 as a refusal (method_not_found), as the 2026 door counts its own', async () => {
    const reader = new CollectingReader();
    const telemetry = mcpTelemetry({ meterProvider: new MeterProvider({ readers: [reader] }) }).port.forServer({
      name: 'counting',
      version: '1.0.0',
    });
    const notFound = (id: number): JsonRpcResponse => ({
      jsonrpc: '2.0',
      id,
      error: { code: -32601, message: 'Method not found' },
    });
    const refusals = async (): Promise<{ attributes: object; value: unknown }[]> => {
      const { resourceMetrics } = await reader.collect();
      const metric = resourceMetrics.scopeMetrics
        .flatMap((scope) => scope.metrics)
        .find((each) => each.descriptor.name === 'mcp42.server.refusals');
      return (metric?.dataPoints ?? []).map(({ attributes, value }) => ({ attributes, value }));
    };
    // A method the 2025 dispatcher does not serve, made up or not.
    await telemetry.request({ method: 'made/up', id: 1, params: {}, protocolVersion: '2025-11-25' }, () => notFound(1));
    await telemetry.request({ method: 'subscriptions/listen', id: 2, params: {}, protocolVersion: '2025-06-18' }, () =>
      notFound(2),
    );
    // Not counted here: a 2026-07-28 refusal (the door counts it), a tool's own -32601 (it was served).
    await telemetry.request({ method: '_OTHER', id: 3, params: {}, protocolVersion: '2026-07-28' }, () => notFound(3));
    await telemetry.request(
      { method: 'tools/call', id: 4, params: { name: 'batch' }, protocolVersion: '2025-11-25' },
      () => notFound(4),
    );
    expect(await refusals()).toEqual([
      { attributes: { 'mcp42.server.name': 'counting', 'mcp42.refusal.cause': 'method_not_found' }, value: 2 },
    ]);
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
