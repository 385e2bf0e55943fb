import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { McpModule } from '../src/index.js';
import { AppModule } from './app.module.js';
import { createApp, platformFromEnv } from './http-platform.js';
import { startTelemetry } from './telemetry.js';

const HOST = '127.0.0.1';

/**
 * `--stdio`: the same items, served on stdin/stdout to the client that spawned the process (Claude
 * Desktop, Claude Code, VS Code). No HTTP server; logs go to stderr; the process exits when the
 * client closes stdin.
 */
async function serveStdio(): Promise<void> {
  const stateSecret = process.env.MCP_STATE_SECRET;
  // Bootstrap logs wait in Nest's buffer until stdout is reserved for JSON-RPC, then go to stderr.
  const app = await NestFactory.createApplicationContext(AppModule.register({ stdio: true, stateSecret }), {
    bufferLogs: true,
  });
  await McpModule.serveStdio(app);
}

async function bootstrap(): Promise<void> {
  if (process.argv.includes('--stdio')) return serveStdio();
  const port = Number(process.env.PORT ?? 3000);
  const bearerToken = process.env.MCP_BEARER_TOKEN;
  const adminToken = process.env.MCP_ADMIN_TOKEN;
  const stateSecret = process.env.MCP_STATE_SECRET;
  const redisUrl = process.env.MCP_REDIS_URL || undefined;
  const oauthIssuer = process.env.MCP_OAUTH_ISSUER || undefined;
  const oauthAudience = process.env.MCP_OAUTH_AUDIENCE || undefined;
  if (oauthIssuer && !oauthAudience) {
    throw new Error(
      "MCP_OAUTH_ISSUER needs MCP_OAUTH_AUDIENCE too: this server's canonical URL, which tokens must name",
    );
  }
  if (oauthIssuer && bearerToken) throw new Error('Set MCP_OAUTH_ISSUER or MCP_BEARER_TOKEN, not both');
  // Set but empty is a configuration mistake, not a wish to run open: refuse rather than fail open.
  if (bearerToken === '') throw new Error('MCP_BEARER_TOKEN is set but empty; unset it to run without auth');
  if (adminToken === '') throw new Error('MCP_ADMIN_TOKEN is set but empty; unset it or give it a value');
  if (adminToken && !bearerToken) throw new Error('MCP_ADMIN_TOKEN needs MCP_BEARER_TOKEN too');
  if (stateSecret !== undefined && Buffer.byteLength(stateSecret) < 32) {
    throw new Error('MCP_STATE_SECRET must have at least 32 bytes (e.g. `openssl rand -base64 32`)');
  }
  if (redisUrl && stateSecret === undefined) {
    throw new Error('MCP_REDIS_URL needs MCP_STATE_SECRET too: every instance must seal with the same secret');
  }
  const platform = platformFromEnv();
  // Before the application is built: the SDK registers the global providers the telemetry records with.
  const stopTelemetry = await startTelemetry();
  const telemetry = stopTelemetry !== undefined;
  const app = await createApp(
    AppModule.register({
      bearerToken,
      adminToken,
      stateSecret,
      redisUrl,
      oauthIssuer,
      oauthAudience,
      ...(stopTelemetry ? { stopTelemetry } : {}),
    }),
    platform,
  );
  app.enableShutdownHooks();
  await app.listen(port, HOST);
  const logger = new Logger('SampleApp');
  if (oauthIssuer)
    logger.log(`OAuth: JWTs of ${oauthIssuer} for ${oauthAudience} (clear_forecast_cache needs weather:admin)`);
  else if (!bearerToken) {
    logger.warn(`MCP_BEARER_TOKEN is not set: the endpoint runs WITHOUT authentication, reachable from ${HOST} only`);
  }
  logger.log(
    `MCP endpoint: http://${HOST}:${port}/mcp on ${platform}${bearerToken ? ' (bearer token required)' : ''}` +
      (redisUrl ? ', sessions shared through Redis' : ''),
  );
  logger.log(`Health: http://${HOST}:${port}/health${telemetry ? '; OpenTelemetry: exporting over OTLP' : ''}`);
  logger.log(`Public MCP endpoint: http://${HOST}:${port}/public/mcp (weather_forecast and weather://cities, open)`);
  logger.log(
    `REST API: GET http://${HOST}:${port}/api/forecasts/:city?days=N and POST /api/alerts, ` +
      'also served on /mcp as the tools get_forecast and create_alert',
  );
}

bootstrap().catch((error: unknown) => {
  new Logger('SampleApp').error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
