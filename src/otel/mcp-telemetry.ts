import type { McpTelemetry } from '../interfaces/mcp-telemetry.interface.js';
import type { McpTelemetryOptions } from './mcp-telemetry-options.js';
import { OtelServerTelemetry } from './otel-server-telemetry.js';

/**
 * OpenTelemetry for an MCP server, by the MCP semantic conventions: pass it as the `telemetry`
 * option. Each server of the application records with its own name (`mcp42.server.name`).
 *
 * @example
 * ```ts
 * McpModule.forRoot({ name: 'weather', version: '1.0.0', telemetry: mcpTelemetry() })
 * ```
 * @category Observability
 */
export function mcpTelemetry(options: McpTelemetryOptions = {}): McpTelemetry {
  const settings = { ...options };
  return Object.freeze({
    kind: 'mcp42.telemetry' as const,
    port: Object.freeze({
      forServer: (server: { name: string; version: string }) => new OtelServerTelemetry(server, settings),
    }),
  });
}
