import { NestFactory } from '@nestjs/core';
import type { Server } from 'node:http';
import { AppModule } from './app.module.js';

// #region main
// bodyParser: false lets mcp42 read MCP bodies itself, within limits.bodyBytes (Express only).
const app = await NestFactory.create(AppModule, { bodyParser: false });
// Ends sessions and listen streams gracefully on SIGTERM, as orchestrators stop containers.
app.enableShutdownHooks();

const server = app.getHttpServer() as Server;
// Headers come before any route: the HTTP server bounds them, not mcp42 (Node: 60 s).
server.headersTimeout = 10_000;
// Receiving one whole request (Node: 300 s); an SSE answer is not bounded by it.
server.requestTimeout = 60_000;
// Longer than the idle timeout of the load balancer in front, so that it closes idle connections
// first and never sends a request on one Node is closing (Node: 5 s).
server.keepAliveTimeout = 65_000;

// 0.0.0.0 in a container behind a proxy; loopback when nothing else should reach the process.
await app.listen(Number(process.env.PORT ?? 3000), process.env.HOST ?? '127.0.0.1');
console.log(`MCP endpoint: ${await app.getUrl()}/mcp`);
// #endregion main
