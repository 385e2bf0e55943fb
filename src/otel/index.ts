// The public API of mcp42/otel: OpenTelemetry traces and metrics by the MCP semantic conventions.
// Everything else in this folder is internal.

export { mcpTelemetry } from './mcp-telemetry.js';
export type { McpTelemetryOptions } from './mcp-telemetry-options.js';
export {
  METRIC_MCP_SERVER_OPERATION_DURATION,
  METRIC_MCP_SERVER_SESSION_DURATION,
  METRIC_MCP42_SERVER_LISTEN_STREAMS,
  METRIC_MCP42_SERVER_OUTBOX_OVERFLOWS,
  METRIC_MCP42_SERVER_REFUSALS,
  METRIC_MCP42_SERVER_SESSIONS,
  METRIC_MCP42_SERVER_STATE_AVAILABLE,
} from './semconv.js';
