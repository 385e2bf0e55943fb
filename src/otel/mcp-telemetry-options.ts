import type { MeterProvider, TextMapPropagator, TracerProvider } from '@opentelemetry/api';

/**
 * Options of {@link mcpTelemetry}. Every field is optional: by default the telemetry records through
 * the providers and propagator registered globally with the OpenTelemetry API (as the Node SDK does).
 * @category Observability
 */
export interface McpTelemetryOptions {
  /**
   * Where spans go.
   * @default the global tracer provider (`trace.getTracerProvider()`)
   */
  tracerProvider?: TracerProvider;
  /**
   * Where metrics go.
   * @default the global meter provider (`metrics.getMeterProvider()`), read when the first metric is recorded
   */
  meterProvider?: MeterProvider;
  /**
   * Reads the caller's trace context from `params._meta` and the HTTP headers, and writes the
   * server's into the `_meta` of what it sends the client.
   * @default the global propagator (W3C trace context and baggage under the Node SDK)
   */
  propagator?: TextMapPropagator;
  /**
   * Records the conventions' opt-in `gen_ai.tool.call.arguments` and `gen_ai.tool.call.result` on
   * `tools/call` spans, as JSON. Off by default: arguments and results may hold personal data.
   * @default false
   */
  captureToolCallContent?: boolean;
  /**
   * Names `resources/read`, `resources/subscribe` and `resources/unsubscribe` spans with the
   * resource URI (`resources/read weather://cities`). Off by default, as the conventions ask: URIs
   * make span names of high cardinality. Only a URI a resource or template of the server serves
   * names a span; others are named by the method alone. The `mcp.resource.uri` attribute is recorded
   * either way.
   * @default false
   */
  resourceUriInSpanName?: boolean;
}
