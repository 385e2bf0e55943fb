import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';

// #region main
// Fastify: mcp42 reads MCP bodies itself there, whatever the app's parsers.
const app = await NestFactory.create<NestFastifyApplication>(
  AppModule,
  // Keep connections open longer than the load balancer in front does (Fastify's default: 72 s).
  new FastifyAdapter({ keepAliveTimeout: 75_000 }),
);
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
console.log(`MCP endpoint: ${await app.getUrl()}/mcp`);
// #endregion main
