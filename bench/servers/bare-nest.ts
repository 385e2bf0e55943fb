import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { HttpPlatform } from '../../sample-app/http-platform.js';
import { appEndpointUrl, HOST, type BenchServer } from './bench-server.js';

interface EchoCall {
  readonly id: string | number;
  readonly params: { readonly arguments: { readonly text: string } };
}

/**
 * What a Nest user typically writes for one JSON endpoint: `@Body()` parsed by the platform's default
 * JSON body parser, and the returned object serialised by Nest. It answers the same JSON-RPC result as
 * the echo tool, without any MCP checks (headers, session, validation).
 */
@Controller('mcp')
class EchoController {
  @Post()
  @HttpCode(200)
  call(@Body() body: EchoCall): object {
    return { jsonrpc: '2.0', id: body.id, result: { content: [{ type: 'text', text: body.params.arguments.text }] } };
  }
}

@Module({ controllers: [EchoController] })
class BareModule {}

/**
 * A bare Nest app on the same adapter as the mcp42 sample it is compared with, default body parser on;
 * `middleware`, if given, runs first on every request (Express only).
 */
export async function startBareNest(
  platform: HttpPlatform = 'express',
  middleware?: (req: IncomingMessage, res: ServerResponse, next: () => void) => void,
): Promise<BenchServer> {
  const options = { logger: false, forceCloseConnections: true } as const;
  const app =
    platform === 'fastify'
      ? await NestFactory.create(BareModule, new FastifyAdapter(), options)
      : await NestFactory.create(BareModule, options);
  if (middleware) app.use(middleware);
  await app.listen(0, HOST);
  return {
    url: appEndpointUrl(app),
    sessionCount: () => undefined,
    close: () => app.close(),
  };
}
