import { Module, type DynamicModule, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { TerminusModule } from '@nestjs/terminus';
import type { Redis } from 'ioredis';
import { McpModule, type McpModuleOptions } from '../src/index.js';
import { McpOAuthGuard, McpOAuthModule } from '../src/oauth/index.js';
import { mcpTelemetry } from '../src/otel/index.js';
import { redisState } from '../src/redis/index.js';
import { McpHealthIndicator } from '../src/terminus/index.js';
import { API_GRANTS } from './api-auth.guards.js';
import { HealthController } from './health.controller.js';
import { TelemetryShutdown } from './telemetry-shutdown.js';
import { BearerAuthGuard, type BearerTokenGrant } from './bearer-auth.guard.js';
import { EchoTools } from './echo.tools.js';
import { JsonBodyMiddleware } from './json-body.middleware.js';
import { PublicWeatherModule } from './public-weather.module.js';
import { ForecastUpdates } from './forecast-updates.js';
import { WeatherAdminTools } from './weather-admin.tools.js';
import { WeatherAlerts } from './weather-alerts.js';
import { WeatherController } from './weather.controller.js';
import { WeatherCompletions } from './weather.completions.js';
import { WeatherPrompts } from './weather.prompts.js';
import { WeatherResources } from './weather.resources.js';
import { WeatherService } from './weather.service.js';
import { WeatherTools } from './weather.tools.js';
import { RedisClientModule, SAMPLE_REDIS } from './redis-client.module.js';

export interface SampleAppConfig {
  /** When set, every MCP request must carry `Authorization: Bearer <token>` (this one, or the admin one). */
  readonly bearerToken?: string;
  /** A second token that also grants the `weather:admin` scope (for `clear_forecast_cache`). */
  readonly adminToken?: string;
  /**
   * The secret that seals 2026-07-28 `requestState` and list cursors: the same for every instance
   * of the sample that serves one endpoint.
   */
  readonly stateSecret?: string;
  /**
   * A Redis URL: instances of the sample given the same one (and the same `stateSecret` and tokens)
   * share sessions, streams and updates, so any of them serves any request.
   */
  readonly redisUrl?: string;
  /**
   * An OAuth 2.1 authorization server: when set (with `oauthAudience`, this server's canonical URL),
   * the endpoint takes JWTs it issued for this server instead of the static bearer tokens.
   */
  readonly oauthIssuer?: string;
  readonly oauthAudience?: string;
  /**
   * Serve on stdin/stdout instead of HTTP (`--stdio`), for clients that spawn local servers. stdio
   * has no headers: the process that spawned the server is the local user, granted every scope.
   */
  readonly stdio?: boolean;
  /**
   * Stops the OpenTelemetry SDK, given when it was started (see `telemetry.ts`): the servers then
   * record traces and metrics (`mcpTelemetry()`); without it they record nothing and pay nothing.
   */
  readonly stopTelemetry?: () => Promise<void>;
}

/** The user of a stdio server: whoever spawned it, holding every scope the sample knows. */
const STDIO_USER = { sub: 'local', scope: 'weather:read weather:admin' };

/**
 * The sample application: echo and weather tools (one with structured output), a long-running
 * refresh that reports progress and can be cancelled, and a cache purge that needs the
 * `weather:admin` scope and asks the user to confirm; the known cities and each city's forecast as
 * resources (subscribers hear of refreshes), a forecast summary prompt, and completion of city names;
 * two routes of its REST API (`WeatherController`) served as the tools `get_forecast` and
 * `create_alert`; all behind optional bearer tokens, at `/mcp`. A second server, `weather-public` at `/public/mcp`,
 * serves the forecast tool and the city list to anyone (`PublicWeatherModule`). With `stdio`, the
 * main server alone, on stdin and stdout, to the local user holding every scope.
 */
@Module({})
export class AppModule implements NestModule {
  static register(config: SampleAppConfig = {}): DynamicModule {
    if (config.adminToken && config.adminToken === config.bearerToken) {
      // The first matching grant wins: the admin scope would silently never be granted.
      throw new Error('The admin token must differ from the bearer token');
    }
    const grants: BearerTokenGrant[] = [];
    if (config.bearerToken) grants.push({ token: config.bearerToken, scopes: ['weather:read'] });
    if (config.adminToken) grants.push({ token: config.adminToken, scopes: ['weather:read', 'weather:admin'] });
    const options: McpModuleOptions = {
      name: 'mcp42-sample',
      version: '1.0.0',
      title: 'mcp42 sample: echo and weather',
      instructions: 'Use weather_forecast or weather_summary for weather questions; echo returns its input unchanged.',
      ...(config.stateSecret === undefined ? {} : { state: { secret: config.stateSecret } }),
      // With OAuth, clients can step up: clear_forecast_cache is listed for everyone, and a call without
      // weather:admin gets a 403 challenge naming it. The static tokens cannot grow, so they hide it.
      ...(config.oauthIssuer === undefined ? {} : { auth: { scopeDenial: 'challenge' as const } }),
      // Browser pages of the allowed origins (loopback, any port, by default) may call it directly.
      http: { cors: true },
      ...(config.stopTelemetry ? { telemetry: mcpTelemetry() } : {}),
    };
    const oauth =
      config.oauthIssuer === undefined
        ? undefined
        : McpOAuthModule.forRoot({ resource: config.oauthAudience!, issuers: [config.oauthIssuer] });
    const guards = oauth ? [McpOAuthGuard] : grants.length > 0 ? [new BearerAuthGuard(grants)] : [];
    const mcp = config.stdio
      ? McpModule.forRoot({ ...options, stdio: { user: STDIO_USER }, transport: 'stdio' })
      : config.redisUrl === undefined
        ? McpModule.forRoot({ ...options, guards })
        : McpModule.forRootAsync({
            imports: [RedisClientModule.forUrl(config.redisUrl)],
            inject: [SAMPLE_REDIS],
            useFactory: (client: Redis) => ({
              ...options,
              state: { ...options.state, shared: redisState({ client, keyPrefix: 'mcp42-sample:' }) },
            }),
            guards,
          });
    return {
      module: AppModule,
      // The public server is an HTTP endpoint: on stdio, the one client is the local user, served everything.
      imports: [
        ...(oauth ? [oauth] : []),
        mcp,
        ...(config.stdio ? [] : [PublicWeatherModule.register(config.stateSecret, config.stopTelemetry !== undefined)]),
        TerminusModule,
      ],
      controllers: [WeatherController, HealthController],
      providers: [
        { provide: API_GRANTS, useValue: grants },
        WeatherAlerts,
        McpHealthIndicator,
        ...(config.stopTelemetry
          ? [{ provide: TelemetryShutdown, useValue: new TelemetryShutdown(config.stopTelemetry) }]
          : []),
        WeatherService,
        WeatherTools,
        WeatherAdminTools,
        EchoTools,
        WeatherResources,
        WeatherPrompts,
        WeatherCompletions,
        ForecastUpdates,
      ],
    };
  }

  configure(consumer: MiddlewareConsumer): void {
    consumer.apply(JsonBodyMiddleware).forRoutes(WeatherController);
  }
}
