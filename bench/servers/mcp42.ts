import 'reflect-metadata';
import { Logger } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { AppModule, type SampleAppConfig } from '../../sample-app/app.module.js';
import type { HttpPlatform } from '../../sample-app/http-platform.js';
import { McpSessionRegistry } from '../../src/index.js';
import { appEndpointUrl, HOST, type BenchServer } from './bench-server.js';

/** Where the sample keeps its 2025 sessions: in its process, or in Redis (shared with other instances). */
export type SessionState = 'memory' | 'redis';

/**
 * The sample app, created as sample-app/main.ts creates it on `platform` (`bodyParser: false`: on
 * Express mcp42 then reads bodies itself; on Fastify it keeps Fastify's parsers away from its endpoint).
 * With `redis` state, MCP_REDIS_URL and MCP_STATE_SECRET come from the environment, as for
 * sample-app/main.ts; the in-memory server ignores them.
 */
export async function startMcp42(
  platform: HttpPlatform = 'express',
  state: SessionState = 'memory',
  stopTelemetry?: () => Promise<void>,
): Promise<BenchServer> {
  // Silences the sample's "no bearer token" warning, logged before the app (and its `logger: false`) exists.
  Logger.overrideLogger(false);
  const options = { bodyParser: false, logger: false, forceCloseConnections: true } as const;
  const module = AppModule.register({
    ...(state === 'redis' ? redisConfigFromEnv() : {}),
    ...(stopTelemetry ? { stopTelemetry } : {}),
  });
  const app =
    platform === 'fastify'
      ? await NestFactory.create(module, new FastifyAdapter(), options)
      : await NestFactory.create(module, options);
  await app.listen(0, HOST);
  // With Redis: the sessions this instance has cached (every session it opened or served). The sample
  // serves two endpoints (its main server and `weather-public`), each with a registry: both count.
  const registries = app.get(McpSessionRegistry, { strict: false, each: true });
  return {
    url: appEndpointUrl(app),
    sessionCount: () => registries.reduce((sum, registry) => sum + registry.size, 0),
    close: () => app.close(),
  };
}

/** The sample's Redis settings from the environment, checked as sample-app/main.ts checks them. */
function redisConfigFromEnv(): SampleAppConfig {
  const redisUrl = process.env.MCP_REDIS_URL || undefined;
  const stateSecret = process.env.MCP_STATE_SECRET;
  if (!redisUrl) throw new Error('a Redis-backed mcp42 bench server needs MCP_REDIS_URL');
  if (stateSecret === undefined || Buffer.byteLength(stateSecret) < 32) {
    throw new Error('MCP_REDIS_URL needs MCP_STATE_SECRET too, of at least 32 bytes');
  }
  return { redisUrl, stateSecret };
}
