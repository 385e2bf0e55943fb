import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { ConformanceModule } from './conformance.module.js';

const HOST = '127.0.0.1';

async function bootstrap(): Promise<void> {
  const port = Number(process.env.PORT ?? 3001);
  // bodyParser off: mcp42 reads MCP bodies itself, with its own size limit and JSON-RPC parse errors.
  const app = await NestFactory.create(ConformanceModule, { bodyParser: false });
  app.enableShutdownHooks();
  await app.listen(port, HOST);
  new Logger('ConformanceFixture').log(`MCP endpoint: http://${HOST}:${port}/mcp`);
}

bootstrap().catch((error: unknown) => {
  new Logger('ConformanceFixture').error(error instanceof Error ? (error.stack ?? error.message) : String(error));
  process.exit(1);
});
