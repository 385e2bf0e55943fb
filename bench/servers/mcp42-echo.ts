import 'reflect-metadata';
import { Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { EchoTools } from '../../sample-app/echo.tools.js';
import type { HttpPlatform } from '../../sample-app/http-platform.js';
import { McpModule, McpSessionRegistry } from '../../src/index.js';
import { appEndpointUrl, HOST, type BenchServer } from './bench-server.js';

/**
 * The sample's MCP endpoint as the bare route is set up: the same module options and the same echo
 * tool at `/mcp`, created with the same application options as the sample (`bodyParser: false`), but
 * without the sample's other modules and controllers. The sample's REST middleware (bound to its
 * weather controller) sends every request through the platform's middleware matching (on Fastify,
 * `@fastify/middie`), which the bare route does not pay; nor does it serve a second MCP endpoint.
 */
@Module({
  imports: [
    McpModule.forRoot({
      name: 'mcp42-sample',
      version: '1.0.0',
      title: 'mcp42 sample: echo and weather',
      instructions: 'Use weather_forecast or weather_summary for weather questions; echo returns its input unchanged.',
      http: { cors: true },
    }),
  ],
  providers: [EchoTools],
})
class EchoAppModule {}

/** The echo endpoint alone on `platform`. */
export async function startMcp42Echo(platform: HttpPlatform = 'express'): Promise<BenchServer> {
  Logger.overrideLogger(false);
  const options = { bodyParser: false, logger: false, forceCloseConnections: true } as const;
  const app =
    platform === 'fastify'
      ? await NestFactory.create(EchoAppModule, new FastifyAdapter(), options)
      : await NestFactory.create(EchoAppModule, options);
  await app.listen(0, HOST);
  const registry = app.get(McpSessionRegistry, { strict: false });
  return {
    url: appEndpointUrl(app),
    sessionCount: () => registry.size,
    close: () => app.close(),
  };
}
