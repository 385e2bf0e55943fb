import {
  context,
  createNoopMeter,
  defaultTextMapGetter,
  defaultTextMapSetter,
  metrics,
  propagation,
  ProxyTracerProvider,
  ROOT_CONTEXT,
  SpanKind,
  SpanStatusCode,
  trace,
  type Attributes,
  type Context,
  type Link,
  type Span,
  type TextMapGetter,
  type TextMapPropagator,
  type Tracer,
} from '@opentelemetry/api';
import type {
  ServerTelemetry,
  TelemetryCatalog,
  TelemetryGauges,
  TelemetryOperation,
  TelemetryRefusal,
} from '../interfaces/mcp-telemetry.interface.js';
import { ErrorCode } from '../protocol/json-rpc.errors.js';
import type { JsonRpcResponse } from '../protocol/json-rpc.types.js';
import { isModernProtocolVersion } from '../protocol/protocol-version.js';
import { createInstruments, type McpInstruments } from './mcp-instruments.js';
import type { McpTelemetryOptions } from './mcp-telemetry-options.js';
import {
  failureOf,
  metricFailureOf,
  OperationKinds,
  spanAttributesOf,
  type OperationFailure,
  type OperationKind,
} from './operation-attributes.js';
import {
  ATTR_ERROR_TYPE,
  ATTR_GEN_AI_TOOL_CALL_ARGUMENTS,
  ATTR_GEN_AI_TOOL_CALL_RESULT,
  ATTR_MCP_PROTOCOL_VERSION,
  ATTR_MCP42_LINK_KIND,
  ATTR_MCP42_REFUSAL_CAUSE,
  ATTR_MCP42_SERVER_NAME,
  ATTR_MCP42_SESSION_END_REASON,
  ATTR_NETWORK_PROTOCOL_NAME,
  ATTR_NETWORK_TRANSPORT,
} from './semconv.js';

const SCOPE = 'mcp42';

/** Reads `params._meta` as a carrier: only string values are trace context. */
const META_GETTER: TextMapGetter<Record<string, unknown>> = {
  keys: (carrier) => Object.keys(carrier),
  get: (carrier, key) => {
    const value = carrier[key];
    return typeof value === 'string' ? value : undefined;
  },
};

/**
 * One MCP server's telemetry on the OpenTelemetry API: a SERVER span per message, active while it
 * is handled, and the conventions' metrics, every record tagged with the server's name.
 */
export class OtelServerTelemetry implements ServerTelemetry {
  readonly enabled = true;
  private tracerOf: Tracer | undefined;
  private instrumentsOf: McpInstruments | undefined;
  /** Whether an SDK was seen: from then on every message is recorded. */
  private recording = false;
  /** Gauges waiting for an SDK, and the removal of each one reported. */
  private readonly gauges = new Map<TelemetryGauges, (() => void) | undefined>();
  private readonly kinds: OperationKinds;

  constructor(
    private readonly server: { readonly name: string; readonly version: string },
    private readonly options: McpTelemetryOptions,
  ) {
    this.kinds = new OperationKinds(server.name, options.resourceUriInSpanName === true);
  }

  /**
   * Whether anything would record: until an SDK registers a global provider (or one was given), the
   * API's providers are no-ops, and describing messages for them would be work for nothing. Checked per
   * message until an SDK is seen, which is two global reads.
   */
  private live(): boolean {
    if (this.recording) return true;
    const tracing = this.options.tracerProvider ?? trace.getTracerProvider();
    const metering = this.options.meterProvider ?? metrics.getMeterProvider();
    const tracerMissing =
      // The one way API 1.x offers to tell that no SDK registered a tracer provider (deprecated for 2.0).
      // eslint-disable-next-line @typescript-eslint/no-deprecated -- see above
      tracing instanceof ProxyTracerProvider && tracing.getDelegateTracer(SCOPE) === undefined;
    if (tracerMissing && metering.getMeter(SCOPE) === createNoopMeter()) return false;
    this.recording = true;
    for (const gauges of this.gauges.keys()) this.gauges.set(gauges, this.attach(gauges));
    return true;
  }

  /** Asked for once an SDK is seen: instruments of the no-op meter would stay no-ops. */
  private get tracer(): Tracer {
    return (this.tracerOf ??= (this.options.tracerProvider ?? trace.getTracerProvider()).getTracer(
      SCOPE,
      this.server.version,
    ));
  }

  private get instruments(): McpInstruments {
    return (this.instrumentsOf ??= createInstruments(
      (this.options.meterProvider ?? metrics.getMeterProvider()).getMeter(SCOPE),
    ));
  }

  /**
   * Not an async function: an `await` here made promises of its own on every request, and under the
   * SDK's AsyncLocalStorage context manager each promise runs the async hooks (the SDK's main cost on
   * Node 20). A promise from `serve` is followed by one `then`; an answer given at once ends at once.
   */
  request<R extends JsonRpcResponse | undefined>(
    operation: TelemetryOperation,
    serve: () => R | Promise<R>,
  ): R | Promise<R> {
    if (!this.live()) return serve();
    const started = performance.now();
    const kind = this.kinds.of(operation);
    const active = this.start(operation, kind);
    const span = trace.getSpan(active)!;
    let served: R | Promise<R>;
    try {
      served = context.with(active, serve);
    } catch (error) {
      this.thrown(span, kind, started, error);
      // As a promise, as the transport's own throws always reached its caller; passed on as it was.
      return Promise.reject(error);
    }
    // A response is never a thenable; a promise may come from another realm (not `instanceof Promise`).
    if (typeof (served as Partial<Promise<R>> | undefined)?.then !== 'function') {
      this.answered(span, kind, started, operation, served as R);
      return served;
    }
    return (served as Promise<R>).then(
      (response) => {
        this.answered(span, kind, started, operation, response);
        return response;
      },
      (error: unknown) => {
        this.thrown(span, kind, started, error);
        throw error;
      },
    );
  }

  /** Ends the operation with its response. */
  private answered(
    span: Span,
    kind: OperationKind,
    started: number,
    operation: TelemetryOperation,
    response: JsonRpcResponse | undefined,
  ): void {
    try {
      if (this.options.captureToolCallContent === true && operation.method === 'tools/call') {
        this.captureToolCall(span, operation, response);
      }
    } catch {
      // Content that cannot be captured (a value JSON cannot hold) is left out; the span still ends.
    } finally {
      this.end(span, kind, started, failureOf(operation.method, response));
      if (notFoundBy2025Dispatcher(operation, response)) this.refused('method_not_found');
    }
  }

  /** The dispatcher answers every failure; a throw is the transport's own, recorded and passed on. */
  private thrown(span: Span, kind: OperationKind, started: number, error: unknown): void {
    span.recordException(error instanceof Error ? error : String(error));
    this.end(span, kind, started, {
      attributes: { [ATTR_ERROR_TYPE]: errorTypeOf(error) },
      message: String(error),
    });
  }

  notification(operation: TelemetryOperation, handle: () => void): void {
    if (!this.live()) {
      handle();
      return;
    }
    const started = performance.now();
    const kind = this.kinds.of(operation);
    const active = this.start(operation, kind);
    const span = trace.getSpan(active)!;
    try {
      context.with(active, handle);
    } finally {
      this.end(span, kind, started, undefined);
    }
  }

  traceMeta(): Record<string, string> | undefined {
    if (!this.recording) return undefined;
    const carrier: Record<string, string> = {};
    (this.options.propagator ?? propagation).inject(context.active(), carrier, defaultTextMapSetter);
    return Object.keys(carrier).length === 0 ? undefined : carrier;
  }

  linkPreviousRound(carried: Readonly<Record<string, string>>): void {
    if (!this.recording) return;
    // Called as the round opens, before guards and the handler: the active span is the operation's.
    const span = trace.getActiveSpan();
    const previous = trace.getSpanContext(
      (this.options.propagator ?? propagation).extract(ROOT_CONTEXT, carried, META_GETTER),
    );
    if (span === undefined || previous === undefined || !trace.isSpanContextValid(previous)) return;
    span.addLink({ context: previous, attributes: { [ATTR_MCP42_LINK_KIND]: 'previous_round' } });
  }

  sessionEnded(protocolVersion: string, durationMs: number, reason: string): void {
    if (!this.live()) return;
    const attributes: Attributes = {
      [ATTR_MCP_PROTOCOL_VERSION]: protocolVersion,
      [ATTR_NETWORK_TRANSPORT]: 'tcp',
      [ATTR_NETWORK_PROTOCOL_NAME]: 'http',
      [ATTR_MCP42_SERVER_NAME]: this.server.name,
      [ATTR_MCP42_SESSION_END_REASON]: reason,
    };
    if (reason === 'overflow') attributes[ATTR_ERROR_TYPE] = 'outbox_overflow';
    this.instruments.sessionDuration.record(durationMs / 1000, attributes);
    if (reason === 'overflow') this.instruments.outboxOverflows.add(1, { [ATTR_MCP42_SERVER_NAME]: this.server.name });
  }

  refused(cause: TelemetryRefusal): void {
    if (!this.live()) return;
    this.instruments.refusals.add(1, { [ATTR_MCP42_SERVER_NAME]: this.server.name, [ATTR_MCP42_REFUSAL_CAUSE]: cause });
  }

  catalog(items: TelemetryCatalog): void {
    this.kinds.know(items);
  }

  observe(gauges: TelemetryGauges): () => void {
    this.gauges.set(gauges, this.recording ? this.attach(gauges) : undefined);
    return () => {
      this.gauges.get(gauges)?.();
      this.gauges.delete(gauges);
    };
  }

  /** Reports `gauges` through the instruments; returns what stops it. */
  private attach(gauges: TelemetryGauges): () => void {
    const { sessions, listenStreams, stateAvailable } = this.instruments;
    const attributes = { [ATTR_MCP42_SERVER_NAME]: this.server.name };
    const observeSessions = (result: { observe(value: number, attributes: Attributes): void }): void => {
      result.observe(gauges.sessions(), attributes);
    };
    const observeListens = (result: { observe(value: number, attributes: Attributes): void }): void => {
      result.observe(gauges.listenStreams(), attributes);
    };
    const available = gauges.stateAvailable;
    const observeState = (result: { observe(value: number, attributes: Attributes): void }): void => {
      if (available) result.observe(available() ? 1 : 0, attributes);
    };
    sessions.addCallback(observeSessions);
    listenStreams.addCallback(observeListens);
    if (available) stateAvailable.addCallback(observeState);
    return () => {
      sessions.removeCallback(observeSessions);
      listenStreams.removeCallback(observeListens);
      if (available) stateAvailable.removeCallback(observeState);
    };
  }

  /**
   * Starts the operation's span. Its parent is the context in `params._meta` (SEP-414), the
   * transport's context linked; without one, the ambient context (an HTTP server span of an
   * instrumentation), else the HTTP headers' W3C context, else a new trace. Returns the context the
   * operation runs in: the parent's, with the span.
   */
  private start(operation: TelemetryOperation, kind: OperationKind): Context {
    const propagator = this.options.propagator ?? propagation;
    const ambient = context.active();
    let transport = ambient;
    const { carrier } = operation;
    if (carrier !== undefined && trace.getSpanContext(ambient) === undefined && carriesAny(carrier, propagator)) {
      transport = propagator.extract(ambient, carrier, defaultTextMapGetter);
    }
    const meta = operation.params?._meta;
    let parent = transport;
    let links: Link[] | undefined;
    if (
      typeof meta === 'object' &&
      meta !== null &&
      typeof (meta as Record<string, unknown>).traceparent === 'string'
    ) {
      parent = propagator.extract(ROOT_CONTEXT, meta as Record<string, unknown>, META_GETTER);
      const linked = trace.getSpanContext(transport);
      if (linked !== undefined && trace.isSpanContextValid(linked)) links = [{ context: linked }];
    }
    const attributes = spanAttributesOf(kind, operation);
    const span = this.tracer.startSpan(
      kind.spanName,
      links === undefined ? { kind: SpanKind.SERVER, attributes } : { kind: SpanKind.SERVER, attributes, links },
      parent,
    );
    return trace.setSpan(parent, span);
  }

  private end(span: Span, kind: OperationKind, started: number, failure: OperationFailure | undefined): void {
    let attributes = kind.metric;
    if (failure !== undefined) {
      attributes = metricFailureOf(kind, failure);
      span.setAttributes(failure.attributes);
      span.setStatus({ code: SpanStatusCode.ERROR, message: failure.message });
    }
    span.end();
    this.instruments.operationDuration.record((performance.now() - started) / 1000, attributes);
  }

  /** The conventions' opt-in attributes, as JSON strings (structured values are not span attributes). */
  private captureToolCall(span: Span, operation: TelemetryOperation, response: JsonRpcResponse | undefined): void {
    span.setAttribute(ATTR_GEN_AI_TOOL_CALL_ARGUMENTS, JSON.stringify(operation.params?.arguments ?? {}));
    if (response === undefined || !('result' in response)) return;
    const result = response.result as { structuredContent?: unknown; content?: unknown; isError?: unknown };
    if (result.isError === true) return;
    span.setAttribute(ATTR_GEN_AI_TOOL_CALL_RESULT, JSON.stringify(result.structuredContent ?? result.content ?? null));
  }
}

/**
 * Whether the transport's carrier holds any field the propagator reads: when it holds none (the usual
 * MCP client sends no `traceparent` header), extracting would only return the context it was given.
 */
function carriesAny(carrier: Readonly<Record<string, unknown>>, propagator: TextMapPropagator): boolean {
  for (const field of propagator.fields()) if (carrier[field] !== undefined) return true;
  return false;
}

/**
 * A 2025 request its dispatcher answered -32601: a method it does not serve, refused before any
 * handler ran, as a 2026-07-28 request is at the door (where the refusal is counted before its
 * operation is recorded, with its modern version). `tools/call` is left out: its one -32601 is a
 * tool's own answer (a task-only tool called without `params.task`).
 */
function notFoundBy2025Dispatcher(operation: TelemetryOperation, response: JsonRpcResponse | undefined): boolean {
  return (
    response !== undefined &&
    'error' in response &&
    response.error.code === ErrorCode.MethodNotFound &&
    operation.method !== 'tools/call' &&
    !isModernProtocolVersion(operation.protocolVersion)
  );
}

function errorTypeOf(error: unknown): string {
  return error instanceof Error ? error.name : '_OTHER';
}
