import { Controller, Get, Module, Post, Req, SetMetadata, type Type } from '@nestjs/common';
import { HttpAdapterHost, NestFactory } from '@nestjs/core';
import { request } from 'node:http';
import type { AddressInfo } from 'node:net';
import { ExpressAdapter } from '@nestjs/platform-express';
import { FastifyAdapter, type NestFastifyApplication } from '@nestjs/platform-fastify';
import { MCP_ENDPOINT_CONFIG, MCP_ENDPOINT_METADATA, FASTIFY_ROUTE_CONFIG_METADATA } from '../../mcp.constants.js';
import { resolveMcpOptions } from '../../mcp-options.defaults.js';
import type { ResolvedMcpOptions } from '../../interfaces/resolved-mcp-options.interface.js';
import { FastifyEndpointDoor } from './fastify-endpoint-door.js';
import { FastifyEndpointRoute } from './fastify-endpoint-route.js';
import { FastifyRawBody } from './fastify-raw-body.js';

const options: ResolvedMcpOptions = resolveMcpOptions({ name: 'door', version: '1.0.0' });

/** The Fastify request parts the endpoint-like route reports on. */
interface SeenRequest {
  readonly body?: unknown;
  readonly raw: { readonly headers: Record<string, unknown> };
}

/**
 * An endpoint-like controller at `path`, its routes marked as mcp42 marks the endpoint's. It says
 * `served`, and what it saw of a body: Fastify's parsed body, and the headers that framed it.
 */
function endpointAt(path: string): Type<unknown> {
  @Controller(path)
  @SetMetadata(MCP_ENDPOINT_METADATA, path)
  class Endpoint {
    @Post()
    @SetMetadata(FASTIFY_ROUTE_CONFIG_METADATA, { [MCP_ENDPOINT_CONFIG]: path })
    post(@Req() request: SeenRequest): string {
      const { headers } = request.raw;
      if (headers['content-type'] === undefined) return 'served';
      return `served; parsed ${JSON.stringify(request.body)}; ${String(headers['content-type'])}, ${String(headers['content-length'])} bytes`;
    }
  }
  return Endpoint;
}

@Controller('other')
class Other {
  @Get()
  get(): string {
    return 'other';
  }
}

interface Answer {
  readonly status: number;
  readonly type: string | undefined;
  readonly body: string;
}

/** One request to the app on loopback, with the `Host` and `Origin` given (Node's client sends them as they are). */
function send(
  app: NestFastifyApplication,
  method: string,
  path: string,
  headers: Record<string, string>,
  body?: string,
): Promise<Answer> {
  const { port } = app.getHttpServer().address() as AddressInfo;
  return new Promise((resolve, reject) => {
    const req = request({ host: '127.0.0.1', port, method, path, headers }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (chunk: string) => (body += chunk));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, type: res.headers['content-type'], body }));
    });
    req.on('error', reject);
    req.end(body);
  });
}

const hostOf = (adapter: FastifyAdapter | ExpressAdapter): HttpAdapterHost => {
  const host = new HttpAdapterHost();
  host.httpAdapter = adapter;
  return host;
};

/** The preparation of a module's endpoint at `endpoint`, on the adapter given. */
const routeOf = (adapter: FastifyAdapter | ExpressAdapter, endpoint: Type<unknown>): FastifyEndpointRoute =>
  new FastifyEndpointRoute(hostOf(adapter), endpoint, new FastifyEndpointDoor(options), new FastifyRawBody());

describe('FastifyEndpointRoute', () => {
  let app: NestFastifyApplication | undefined;

  afterEach(async () => {
    await app?.close();
    app = undefined;
  });

  /** A real Nest + Fastify app on loopback whose `mcp` endpoint gets the hooks, prepared before init as configure() prepares it. */
  async function fastifyApp(): Promise<{ app: NestFastifyApplication; installed: boolean }> {
    const endpoint = endpointAt('mcp');
    @Module({ controllers: [endpoint, Other, endpointAt('elsewhere')] })
    class AppModule {}
    const adapter = new FastifyAdapter();
    const created = await NestFactory.create<NestFastifyApplication>(AppModule, adapter, { logger: false });
    const installed = routeOf(adapter, endpoint).install();
    await created.listen(0, '127.0.0.1');
    return { app: created, installed };
  }

  it('refuses a foreign Host or Origin on the endpoint with 403 and a JSON-RPC error, before the route', async () => {
    const made = await fastifyApp();
    app = made.app;
    expect(made.installed).toBe(true);
    const foreignHost = await send(app, 'POST', '/mcp', { host: 'evil.example' });
    expect(foreignHost.status).toBe(403);
    expect(foreignHost.type).toContain('application/json');
    expect(JSON.parse(foreignHost.body)).toMatchObject({
      jsonrpc: '2.0',
      error: { message: 'Forbidden: Host not allowed' },
    });
    const foreignOrigin = await send(app, 'POST', '/mcp', { host: 'localhost:3000', origin: 'https://evil.example' });
    expect(foreignOrigin.status).toBe(403);
    expect(JSON.parse(foreignOrigin.body)).toMatchObject({ error: { message: 'Forbidden: Origin not allowed' } });
    const allowed = await send(app, 'POST', '/mcp', { host: 'localhost:3000' });
    expect(allowed).toMatchObject({ status: 201, body: 'served' });
  });

  it("leaves the application's other routes, and another module's endpoint, to themselves", async () => {
    app = (await fastifyApp()).app;
    expect(await send(app, 'GET', '/other', { host: 'evil.example' })).toMatchObject({ status: 200, body: 'other' });
    expect(await send(app, 'POST', '/elsewhere', { host: 'evil.example' })).toMatchObject({
      status: 201,
      body: 'served',
    });
  });

  it("keeps Fastify's parsers from the endpoint's body, its headers back for the handler, and nowhere else", async () => {
    app = (await fastifyApp()).app;
    const json = '{"jsonrpc":"2.0"}';
    const headers = { host: 'localhost', 'content-type': 'application/json' };
    expect(await send(app, 'POST', '/mcp', headers, json)).toMatchObject({
      status: 201,
      body: 'served; parsed undefined; application/json, 17 bytes',
    });
    expect(await send(app, 'POST', '/elsewhere', headers, json)).toMatchObject({
      status: 201,
      body: 'served; parsed {"jsonrpc":"2.0"}; application/json, 17 bytes',
    });
  });

  it('is not installed off Fastify, nor once Fastify has started (the middleware checks then)', async () => {
    expect(routeOf(new ExpressAdapter(), endpointAt('mcp')).install()).toBe(false);
    app = (await fastifyApp()).app;
    expect(routeOf(app.getHttpAdapter() as FastifyAdapter, endpointAt('late')).install()).toBe(false);
  });
});
