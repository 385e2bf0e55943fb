import { Catch, Inject, Injectable, Scope, type ArgumentsHost, type ExceptionFilter } from '@nestjs/common';
import { APP_FILTER, HttpAdapterHost, REQUEST } from '@nestjs/core';
import request from 'supertest';
import { McpModule, McpSessionRegistry, McpTool, McpToolError } from '../../src/index.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../utils/start-app.js';

let instances = 0;
@Injectable({ scope: Scope.REQUEST })
class ScopedTools {
  constructor(@Inject(REQUEST) readonly req: unknown) { instances++; }
  @McpTool({ description: 'a' }) a(): string { return 'a'; }
  @McpTool({ description: 'b' }) b(): string { return 'b'; }
  @McpTool({ description: 'c' }) c(): string { return 'c'; }
}

@Injectable()
class ErrTools {
  @McpTool({ description: 'fails for the model' }) fails(): string { throw new McpToolError('city not found'); }
}

/** The usual catch-all HTTP filter from the Nest docs. */
@Catch()
class AllExceptionsFilter implements ExceptionFilter {
  constructor(private readonly adapterHost: HttpAdapterHost) {}
  catch(exception: unknown, host: ArgumentsHost): void {
    const { httpAdapter } = this.adapterHost;
    const ctx = host.switchToHttp();
    httpAdapter.reply(ctx.getResponse(), { statusCode: 500 }, 500);
  }
}

describe('probe', () => {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({
      imports: [McpModule.forRoot({ name: 'p', version: '1', outboxLimit: 5 })],
      providers: [ScopedTools, ErrTools, { provide: APP_FILTER, useClass: AllExceptionsFilter }],
    });
  });
  afterAll(() => app?.close());

  async function session(version = '2025-06-18') {
    const init = await request(app.baseUrl).post('/mcp').set(MCP_POST_HEADERS).send(initializeRequest(version));
    const sid = init.headers['mcp-session-id'] as string;
    return { sid, post: (body: object) =>
      request(app.baseUrl).post('/mcp').set(MCP_POST_HEADERS).set('mcp-session-id', sid).set('mcp-protocol-version', version).send(body) };
  }

  it('request-scoped instances per HTTP request', async () => {
    const { post } = await session();
    instances = 0;
    await post({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    console.log('instances for ONE tools/list request:', instances);
    instances = 0;
    const r = await post({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'a', arguments: {} } });
    console.log('instances for ONE tools/call:', instances, JSON.stringify(r.body));
  });

  it('catch-all HTTP filter vs McpToolError', async () => {
    const { post } = await session();
    const r = await post({ jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'fails', arguments: {} } });
    console.log('FILTER', r.status, JSON.stringify(r.body));
  });

  it('logAll kills sessions without GET', async () => {
    const { sid, post } = await session();
    const registry = app.app.get(McpSessionRegistry);
    for (let i = 0; i < 6; i++) registry.logAll('warning', { i });
    const r = await post({ jsonrpc: '2.0', id: 4, method: 'ping' });
    console.log('after 6 logAll: session alive?', registry.get(sid) !== undefined, 'ping status', r.status);
  });
});
