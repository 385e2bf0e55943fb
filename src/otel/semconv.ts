// Attribute and metric names of the OpenTelemetry semantic conventions for MCP
// (open-telemetry/semantic-conventions-genai, docs/gen-ai/mcp.md; status Development), and of
// mcp42's own operator metrics, named in the same style under `mcp42.`.

export const ATTR_MCP_METHOD_NAME = 'mcp.method.name';
export const ATTR_MCP_PROTOCOL_VERSION = 'mcp.protocol.version';
export const ATTR_MCP_SESSION_ID = 'mcp.session.id';
export const ATTR_MCP_RESOURCE_URI = 'mcp.resource.uri';
export const ATTR_JSONRPC_REQUEST_ID = 'jsonrpc.request.id';
export const ATTR_RPC_RESPONSE_STATUS_CODE = 'rpc.response.status_code';
export const ATTR_ERROR_TYPE = 'error.type';
export const ATTR_GEN_AI_OPERATION_NAME = 'gen_ai.operation.name';
export const ATTR_GEN_AI_TOOL_NAME = 'gen_ai.tool.name';
export const ATTR_GEN_AI_PROMPT_NAME = 'gen_ai.prompt.name';
export const ATTR_GEN_AI_TOOL_CALL_ARGUMENTS = 'gen_ai.tool.call.arguments';
export const ATTR_GEN_AI_TOOL_CALL_RESULT = 'gen_ai.tool.call.result';
export const ATTR_NETWORK_TRANSPORT = 'network.transport';
export const ATTR_NETWORK_PROTOCOL_NAME = 'network.protocol.name';
export const ATTR_NETWORK_PROTOCOL_VERSION = 'network.protocol.version';
export const ATTR_CLIENT_ADDRESS = 'client.address';
export const ATTR_CLIENT_PORT = 'client.port';

/** Which of the application's MCP servers recorded it (`McpModuleOptions.name`). Ours: not in the conventions. */
export const ATTR_MCP42_SERVER_NAME = 'mcp42.server.name';
/** Why a span links to another: `previous_round`, the round before it of a multi round-trip request. */
export const ATTR_MCP42_LINK_KIND = 'mcp42.link.kind';
/** Why a request was refused before any handler ran. */
export const ATTR_MCP42_REFUSAL_CAUSE = 'mcp42.refusal.cause';
/** Why a 2025 session ended: `deleted`, `idle`, `overflow` or `shutdown`. */
export const ATTR_MCP42_SESSION_END_REASON = 'mcp42.session.end_reason';

/** Histogram (s): how long each MCP request or notification took to serve (conventions). @category Observability */
export const METRIC_MCP_SERVER_OPERATION_DURATION = 'mcp.server.operation.duration';
/** Histogram (s): how long 2025 sessions lived on this instance (conventions). @category Observability */
export const METRIC_MCP_SERVER_SESSION_DURATION = 'mcp.server.session.duration';
/** Gauge: live 2025 sessions held by this instance. @category Observability */
export const METRIC_MCP42_SERVER_SESSIONS = 'mcp42.server.sessions';
/** Gauge: open 2026-07-28 `subscriptions/listen` streams. @category Observability */
export const METRIC_MCP42_SERVER_LISTEN_STREAMS = 'mcp42.server.listen_streams';
/** Counter: sessions ended because their undelivered messages passed a bound (`limits.outboxMessages`, `limits.outboxChars`, `limits.bufferedChars`). @category Observability */
export const METRIC_MCP42_SERVER_OUTBOX_OVERFLOWS = 'mcp42.server.outbox.overflows';
/** Counter: requests refused before any handler ran, by `mcp42.refusal.cause`. @category Observability */
export const METRIC_MCP42_SERVER_REFUSALS = 'mcp42.server.refusals';
/** Gauge: with shared state, 1 while it answers, 0 while it does not. @category Observability */
export const METRIC_MCP42_SERVER_STATE_AVAILABLE = 'mcp42.server.state.available';

/** The buckets the conventions advise for the MCP duration histograms, in seconds. */
export const DURATION_BUCKETS = [0.01, 0.02, 0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 30, 60, 120, 300];
