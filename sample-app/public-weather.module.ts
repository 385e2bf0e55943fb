import { Module, type DynamicModule } from '@nestjs/common';
import { McpModule } from '../src/index.js';
import { mcpTelemetry } from '../src/otel/index.js';

/**
 * The sample's second MCP server, `weather-public` at `/public/mcp`: read-only, open to anyone (no
 * endpoint guard, even when the main server has one), serving one tool and one resource of the
 * application's decorated items. Its own module, so that the application's providers inject the main
 * server's registries, and this server's sessions, guards and items stay apart.
 *
 * Without sessions (2025 clients are served request by request): a public, read-only server needs
 * none, and any instance of a deployment serves any request without shared state.
 */
@Module({})
export class PublicWeatherModule {
  static register(stateSecret: string | undefined, telemetry = false): DynamicModule {
    return {
      module: PublicWeatherModule,
      imports: [
        McpModule.forRoot({
          name: 'weather-public',
          version: '1.0.0',
          title: 'mcp42 sample: public weather',
          instructions: 'Use weather_forecast for a forecast; weather://cities lists the known cities.',
          path: 'public/mcp',
          items: { tools: ['weather_forecast'], resources: ['weather://cities'] },
          sessions: { enabled: false },
          http: { cors: true },
          ...(stateSecret === undefined ? {} : { state: { secret: stateSecret } }),
          // Its spans and metrics carry its own name (mcp42.server.name: weather-public).
          ...(telemetry ? { telemetry: mcpTelemetry() } : {}),
        }),
      ],
    };
  }
}
