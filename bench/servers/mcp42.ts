import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule } from '../../sample-app/app.module.js';
import type { HttpPlatform } from '../../sample-app/http-platform.js';
import { McpSessionRegistry } from '../../src/index.js';
import { endpointUrl, HOST, type BenchServer } from './bench-server.js';

/**
 * The sample app, created as sample-app/main.ts creates it on `platform` (`bodyParser: false`: on
 * Express mcp42 then reads bodies itself; on Fastify it keeps Fastify's parsers away from its endpoint).
 */
export async function startMcp42(platform: HttpPlatform = 'express'): Promise<BenchServer> {
  // Silences the sample's "no bearer token" warning, logged before the app (and its `logger: false`) exists.
  Logger.overrideLogger(false);
  const options = { bodyParser: false, logger: false, forceCloseConnections: true } as const;
  const module = AppModule.register();
  const app =
    platform === 'fastify'
      ? await NestFactory.create(module, new FastifyAdapter(), options)
      : await NestFactory.create(module, options);
  await app.listen(0, HOST);
  const sessions = app.get(McpSessionRegistry);
  return {
    url: endpointUrl(app.getHttpServer().address()),
    sessionCount: () => sessions.size,
    close: () => app.close(),
  };
}
