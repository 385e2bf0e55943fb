import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { AppModule } from './app.module.js';
import { createApp, platformFromEnv } from './http-platform.js';

const HOST = '127.0.0.1';

async function bootstrap(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  const bearerToken = process.env.MCP_BEARER_TOKEN;
  const adminToken = process.env.MCP_ADMIN_TOKEN;
  const stateSecret = process.env.MCP_STATE_SECRET;
  const redisUrl = process.env.MCP_REDIS_URL || undefined;
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
  const app = await createApp(AppModule.register({ bearerToken, adminToken, stateSecret, redisUrl }), platform);
  app.enableShutdownHooks();
  await app.listen(port, HOST);
  const logger = new Logger('SampleApp');
  if (!bearerToken) {
    logger.warn(`MCP_BEARER_TOKEN is not set: the endpoint runs WITHOUT authentication, reachable from ${HOST} only`);
  }
  logger.log(
    `MCP endpoint: http://${HOST}:${port}/mcp on ${platform}${bearerToken ? ' (bearer token required)' : ''}` +
      (redisUrl ? ', sessions shared through Redis' : ''),
  );
}

bootstrap().catch((error: unknown) => {
  new Logger('SampleApp').error(error instanceof Error ? error.message : String(error));
  process.exit(1);
});
