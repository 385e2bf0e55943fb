import type { INestApplication, Type, DynamicModule } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { FastifyAdapter } from '@nestjs/platform-fastify';

/** The HTTP platforms the sample runs on. */
export type HttpPlatform = 'express' | 'fastify';

/**
 * The platform named by `MCP_HTTP_ADAPTER` (`express` unless it says `fastify`).
 * @throws Error for any other value: a typo must not silently start the other platform.
 */
export function platformFromEnv(value = process.env.MCP_HTTP_ADAPTER): HttpPlatform {
  if (value === undefined || value === '' || value === 'express') return 'express';
  if (value === 'fastify') return 'fastify';
  throw new Error(`MCP_HTTP_ADAPTER must be express or fastify, got ${JSON.stringify(value)}`);
}

/**
 * Creates the application on the platform. `bodyParser: false` matters on Express only (mcp42 then
 * reads MCP bodies itself); on Fastify mcp42 keeps the parsers away from its endpoint by itself.
 */
export function createApp(module: Type<unknown> | DynamicModule, platform: HttpPlatform): Promise<INestApplication> {
  return platform === 'fastify'
    ? NestFactory.create(module, new FastifyAdapter(), { bodyParser: false })
    : NestFactory.create(module, { bodyParser: false });
}
