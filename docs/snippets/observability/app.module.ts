import { Module } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import { McpModule } from 'mcp42';
import { mcpTelemetry } from 'mcp42/otel';
import { McpHealthIndicator } from 'mcp42/terminus';
import { HealthController } from './health.controller.js';
import { TelemetryShutdown } from './telemetry-shutdown.js';
import { WeatherTools } from './weather.tools.js';

// #region module
@Module({
  imports: [
    McpModule.forRoot({
      name: 'weather',
      version: '1.0.0',
      // Spans and metrics through the global OpenTelemetry API, as the Node SDK registered it.
      telemetry: mcpTelemetry(),
    }),
    TerminusModule,
  ],
  controllers: [HealthController],
  providers: [WeatherTools, McpHealthIndicator, TelemetryShutdown],
})
export class AppModule {}
// #endregion module
