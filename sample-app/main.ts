import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from './app.module.js';

const HOST = '127.0.0.1';

async function bootstrap(): Promise<void> {
  const port = Number(process.env.PORT ?? 3000);
  // bodyParser off: mcp42 reads MCP bodies itself, with its own size limit and JSON-RPC parse errors.
  const app = await NestFactory.create(AppModule.register({ bearerToken: process.env.MCP_BEARER_TOKEN }), {
    bodyParser: false,
  });
  app.enableShutdownHooks();
  await app.listen(port, HOST);
  new Logger('SampleApp').log(`MCP endpoint: http://${HOST}:${port}/mcp`);
}

void bootstrap();
