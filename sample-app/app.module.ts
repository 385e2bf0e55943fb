import { Module, type DynamicModule } from '@nestjs/common';
import { McpModule } from '../src/index.js';
import { BearerAuthGuard } from './bearer-auth.guard.js';
import { EchoTools } from './echo.tools.js';
import { WeatherService } from './weather.service.js';
import { WeatherTools } from './weather.tools.js';

export interface SampleAppConfig {
  /** When set, every MCP request must carry `Authorization: Bearer <token>`. */
  readonly bearerToken?: string;
}

/** The sample application: an echo tool and a weather tool behind an optional bearer token. */
@Module({})
export class AppModule {
  static register(config: SampleAppConfig = {}): DynamicModule {
    const guards = config.bearerToken ? [new BearerAuthGuard(config.bearerToken)] : [];
    return {
      module: AppModule,
      imports: [
        McpModule.forRoot({
          name: 'mcp42-sample',
          version: '0.1.0',
          title: 'mcp42 sample: echo and weather',
          instructions: 'Use weather_forecast for weather questions; echo returns its input unchanged.',
          guards,
        }),
      ],
      providers: [WeatherService, WeatherTools, EchoTools],
    };
  }
}
