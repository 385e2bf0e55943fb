import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { AppModule } from '../../sample-app/app.module.js';
import { McpSessionRegistry } from '../../src/index.js';
import { endpointUrl, HOST, type BenchServer } from './bench-server.js';

/** The sample app, created as sample-app/main.ts creates it (Express adapter, mcp42 reads bodies itself). */
export async function startMcp42(): Promise<BenchServer> {
  // Silences the sample's "no bearer token" warning, logged before the app (and its `logger: false`) exists.
  Logger.overrideLogger(false);
  const app = await NestFactory.create(AppModule.register(), {
    bodyParser: false,
    logger: false,
    forceCloseConnections: true,
  });
  await app.listen(0, HOST);
  const sessions = app.get(McpSessionRegistry);
  return {
    url: endpointUrl(app.getHttpServer().address()),
    sessionCount: () => sessions.size,
    close: () => app.close(),
  };
}
