import { mcpTelemetry, type McpTelemetryOptions } from 'mcp42/otel';

// #region options
const options: McpTelemetryOptions = {
  // Opt-in attributes of the conventions: tool arguments and results may hold personal data.
  captureToolCallContent: process.env.MCP_TRACE_TOOL_CONTENT === 'true',
  // `resources/read weather://forecast/Paris` rather than `resources/read`: one name per URI.
  resourceUriInSpanName: false,
  // tracerProvider, meterProvider and propagator default to the global ones.
};
export const telemetry = mcpTelemetry(options);
// #endregion options
