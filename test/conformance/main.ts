import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { createApp, platformFromEnv } from '../../sample-app/http-platform.js';
import { ConformanceModule } from './conformance.module.js';

const HOST = '127.0.0.1';

async function bootstrap(): Promise<void> {
  const port = Number(process.env.PORT ?? 3001);
  // MCP_HTTP_ADAPTER=fastify serves it on Fastify (the conformance run covers both platforms).
  const platform = platformFromEnv();
  const app = await createApp(ConformanceModule, platform);
  app.enableShutdownHooks();
  await app.listen(port, HOST);
  new Logger('ConformanceFixture').log(`MCP endpoint: http://${HOST}:${port}/mcp on ${platform}`);
}

bootstrap().catch((error: unknown) => {
  new Logger('ConformanceFixture').error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
