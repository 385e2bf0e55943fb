import { NestFactory } from '@nestjs/core';
import type { Server } from 'node:http';
import { AppModule } from './app.module.js';

// #region main
const app = await NestFactory.create(AppModule, { bodyParser: false });
const server = app.getHttpServer() as Server;
server.headersTimeout = 10_000;
server.requestTimeout = 30_000;
// Loopback only: nothing but this machine reaches a server without authentication.
await app.listen(Number(process.env.PORT ?? 3000), '127.0.0.1');
console.log(`MCP endpoint: ${await app.getUrl()}/mcp`);
// #endregion main
