import { NestFactory } from '@nestjs/core';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { AppModule } from './app.module.js';

// #region main
// Fastify parses the JSON bodies of your routes, and mcp42 reads MCP bodies itself: nothing to set up.
const app = await NestFactory.create<NestFastifyApplication>(AppModule, new FastifyAdapter());
app.setGlobalPrefix('v1'); // route-backed tools follow the prefix (and versioning) as the router does
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
// #endregion main
console.log(`MCP endpoint: ${await app.getUrl()}/v1/mcp`);
