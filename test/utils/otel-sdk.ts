import { context, type Attributes } from '@opentelemetry/api';
import { AsyncLocalStorageContextManager } from '@opentelemetry/context-async-hooks';
import { CompositePropagator, W3CBaggagePropagator, W3CTraceContextPropagator } from '@opentelemetry/core';
import { MeterProvider, MetricReader, type DataPoint, type MetricData } from '@opentelemetry/sdk-metrics';
import {
  BasicTracerProvider,
  InMemorySpanExporter,
  SimpleSpanProcessor,
  type ReadableSpan,
} from '@opentelemetry/sdk-trace-base';

/** A metric reader that exports nowhere: a test collects when it wants to look. */
class CollectingReader extends MetricReader {
  protected onShutdown(): Promise<void> {
    return Promise.resolve();
  }
  protected onForceFlush(): Promise<void> {
    return Promise.resolve();
  }
}

/**
 * The real OpenTelemetry SDK, kept in memory for a test: spans exported as they end, metrics
 * collected on demand, W3C trace context and baggage. Nothing is registered globally but the
 * context manager (see {@link enableContext}): its providers go to `mcpTelemetry()` as options.
 */
export class TestTelemetry {
  readonly exporter = new InMemorySpanExporter();
  readonly tracerProvider = new BasicTracerProvider({ spanProcessors: [new SimpleSpanProcessor(this.exporter)] });
  private readonly reader = new CollectingReader();
  readonly meterProvider = new MeterProvider({ readers: [this.reader] });
  readonly propagator = new CompositePropagator({
    propagators: [new W3CTraceContextPropagator(), new W3CBaggagePropagator()],
  });

  get spans(): ReadableSpan[] {
    return this.exporter.getFinishedSpans();
  }

  /** The one finished span with this name (fails when there is none, or several). */
  span(name: string): ReadableSpan {
    const found = this.spans.filter((span) => span.name === name);
    if (found.length !== 1) {
      throw new Error(
        `expected one span named "${name}", got ${found.length} in ${this.spans.map((s) => s.name).join(', ')}`,
      );
    }
    return found[0]!;
  }

  /** The metric of this name, as collected now. */
  async metric(name: string): Promise<MetricData | undefined> {
    const { resourceMetrics } = await this.reader.collect();
    return resourceMetrics.scopeMetrics.flatMap((scope) => scope.metrics).find((m) => m.descriptor.name === name);
  }

  /** The data points of the metric whose attributes include `attributes`. */
  async points(name: string, attributes: Attributes): Promise<DataPoint<unknown>[]> {
    const metric = await this.metric(name);
    if (!metric) return [];
    return (metric.dataPoints as DataPoint<unknown>[]).filter((point) =>
      Object.entries(attributes).every(([key, value]) => point.attributes[key] === value),
    );
  }

  reset(): void {
    this.exporter.reset();
  }

  async shutdown(): Promise<void> {
    await this.tracerProvider.shutdown();
    await this.meterProvider.shutdown();
  }
}

/**
 * Registers an async-local-storage context manager with the OpenTelemetry API (its own global, as
 * an SDK does), so that a span made active stays active across the handler's awaits.
 * @returns what unregisters it.
 */
export function enableContext(): () => void {
  const manager = new AsyncLocalStorageContextManager().enable();
  context.setGlobalContextManager(manager);
  return () => {
    context.disable();
  };
}
