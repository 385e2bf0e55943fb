import 'reflect-metadata';
import { Body, Controller, HttpCode, Module, Post } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { endpointUrl, HOST, type BenchServer } from './bench-server.js';

interface EchoCall {
  readonly id: string | number;
  readonly params: { readonly arguments: { readonly text: string } };
}

/**
 * What a Nest user typically writes for one JSON endpoint: `@Body()` parsed by Nest's default JSON
 * body parser, and the returned object serialised by Nest. It answers the same JSON-RPC result as
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

/** A bare Nest app on the same Express adapter as the mcp42 sample, default body parser on. */
export async function startBareNest(): Promise<BenchServer> {
  const app = await NestFactory.create(BareModule, { logger: false, forceCloseConnections: true });
  await app.listen(0, HOST);
  return {
    url: endpointUrl(app.getHttpServer().address()),
    sessionCount: () => undefined,
    close: () => app.close(),
  };
}
