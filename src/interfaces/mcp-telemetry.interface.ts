import type { JsonRpcParams, JsonRpcResponse, RequestId } from '../protocol/json-rpc.types.js';

/**
 * Telemetry for the `telemetry` option, made by an adapter (`mcpTelemetry()` from `mcp42/otel`).
 * Opaque: how it records spans and metrics is the adapter's business. Without it, the server records
 * nothing and pays nothing for it.
 * @category Observability
 */
export interface McpTelemetry {
  /** Tells a telemetry object from anything else passed as `telemetry`. */
  readonly kind: 'mcp42.telemetry';
  /** @internal */
  readonly port: TelemetryPort;
}

/**
 * What the core asks of a telemetry adapter: one {@link ServerTelemetry} per MCP server of the
 * application, so that two servers (or two applications) record apart.
 * @internal
 */
export interface TelemetryPort {
  forServer(server: { readonly name: string; readonly version: string }): ServerTelemetry;
}

/**
 * Where the message came in, as the transport knows it (the `network.*` and `client.*` attributes).
 * @internal
 */
export interface TelemetryNetwork {
  /** `tcp` for HTTP, `pipe` for stdio. */
  readonly transport: string;
  readonly protocolName?: string;
  readonly protocolVersion?: string;
  readonly clientAddress?: string;
  readonly clientPort?: number;
}

/**
 * One incoming MCP message, as telemetry records it. Transport-agnostic: `carrier` is whatever the
 * transport carries trace context in besides `params._meta` (HTTP headers).
 * @internal
 */
export interface TelemetryOperation {
  readonly method: string;
  /** Absent on a notification. */
  readonly id?: RequestId;
  readonly params: JsonRpcParams | undefined;
  /** The MCP version the message is served under, when known (not yet for `initialize`). */
  readonly protocolVersion?: string;
  /** The 2025 session it belongs to. */
  readonly sessionId?: string;
  readonly carrier?: Readonly<Record<string, string | string[] | undefined>>;
  readonly network?: TelemetryNetwork;
}

/** Why a request was refused before any handler ran (the `mcp42.refusal.cause` attribute). @internal */
export type TelemetryRefusal =
  | 'sessions_full'
  | 'principal_sessions_full'
  | 'listen_streams_full'
  | 'state_unavailable'
  | 'session_not_found'
  | 'host_not_allowed'
  | 'origin_not_allowed'
  // 2026-07-28 requests refused at the door, by their JSON-RPC error.
  | 'header_mismatch'
  | 'unsupported_protocol_version'
  | 'method_not_found'
  | 'invalid_envelope';

/**
 * Which items the server has (registered, enabled or not), asked when a request names one: a name a
 * client sends for an item that does not exist is its own word, with no bound on its values.
 * @internal
 */
export interface TelemetryCatalog {
  hasTool(name: string): boolean;
  hasPrompt(name: string): boolean;
  /** Whether a resource or a resource template serves `uri`. */
  hasResource(uri: string): boolean;
}

/** What the server reports as observable gauges, read when the metric reader collects. @internal */
export interface TelemetryGauges {
  readonly sessions: () => number;
  readonly listenStreams: () => number;
  /** Absent without shared state. */
  readonly stateAvailable?: () => boolean;
}

/**
 * One server's telemetry, as the core calls it. {@link NO_TELEMETRY} is the default: `enabled` false
 * tells the transport not to describe messages at all, so a server without telemetry does no work
 * for it.
 * @internal
 */
export interface ServerTelemetry {
  readonly enabled: boolean;
  /**
   * Serves one request as one operation: `serve` runs with the operation's context active (host
   * spans become its children), and its response (`undefined`: cancelled) ends it.
   */
  request<R extends JsonRpcResponse | undefined>(
    operation: TelemetryOperation,
    serve: () => R | Promise<R>,
  ): R | Promise<R>;
  /** Records a notification from the client, handled by `handle` inside its context. */
  notification(operation: TelemetryOperation, handle: () => void): void;
  /**
   * The trace context of the operation running now, as `_meta` fields for a message the server
   * sends the client; `undefined` when there is none.
   */
  traceMeta(): Record<string, string> | undefined;
  /**
   * The operation running now is a later round of a 2026-07-28 multi round-trip request: `trace` is
   * the trace context of the round before it (carried in the sealed `requestState`), linked to.
   */
  linkPreviousRound(trace: Readonly<Record<string, string>>): void;
  /** A 2025 session ended after `durationMs`; `reason` other than `deleted` is recorded as its `error.type`. */
  sessionEnded(protocolVersion: string, durationMs: number, reason: string): void;
  refused(cause: TelemetryRefusal): void;
  /**
   * The server's items, once they are known (at bootstrap): only a tool, prompt or resource that
   * exists is named in span names and metric attributes. Until then, none is.
   */
  catalog(items: TelemetryCatalog): void;
  /** Starts reporting the gauges; the returned function stops it (on shutdown). */
  observe(gauges: TelemetryGauges): () => void;
}

/** The telemetry of a server without the `telemetry` option: records nothing. @internal */
export const NO_TELEMETRY: ServerTelemetry = Object.freeze({
  enabled: false,
  request: <R extends JsonRpcResponse | undefined>(_operation: TelemetryOperation, serve: () => R | Promise<R>) =>
    serve(),
  notification: (_operation: TelemetryOperation, handle: () => void) => {
    handle();
  },
  traceMeta: () => undefined,
  linkPreviousRound: () => undefined,
  sessionEnded: () => undefined,
  refused: () => undefined,
  catalog: () => undefined,
  observe: () => () => undefined,
});
