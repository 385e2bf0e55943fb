/**
 * The endpoint's door (Origin/Host, CORS, methods) fails closed: a request that reaches the transport
 * without meeting it is refused with 500 and the log says why once, never served unchecked. On
 * Fastify the door finds the endpoint by its route config: an `onRoute` hook of the application that
 * replaces route configs after mcp42's loses that marker (Express's middleware cannot be lost so).
 */
import { Module, type MiddlewareConsumer, type NestModule } from '@nestjs/common';
import { HttpAdapterHost } from '@nestjs/core';
import { EchoTools } from '../../../sample-app/echo.tools.js';
import { McpModule } from '../../../src/index.js';
import { httpExchange } from '../../utils/http-exchange.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { expectRefusal } from '../../utils/refusal.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, TEST_ADAPTER, type RunningApp } from '../../utils/start-app.js';

/** Replaces every route's config and handler as it is registered, as some plugins do. */
@Module({ imports: [McpModule.forRoot({ name: 'door', version: '1.0.0' })], providers: [EchoTools] })
class DoorLostModule implements NestModule {
  constructor(private readonly adapterHost: HttpAdapterHost) {}

  configure(_consumer: MiddlewareConsumer): void {
    type Handler = (this: unknown, ...args: unknown[]) => unknown;
    const fastify = this.adapterHost.httpAdapter.getInstance<{
      addHook(name: 'onRoute', hook: (route: { config?: object; handler: Handler }) => void): void;
    }>();
    fastify.addHook('onRoute', (route) => {
      // A config of its own, and the handler wrapped (as tracing plugins do): nothing of mcp42's
      // marker is left, whichever hook runs first.
      route.config = { replacedByTheApplication: true };
      const handler = route.handler;
      route.handler = function (this: unknown, ...args: unknown[]) {
        return handler.apply(this, args);
      };
    });
  }
}

const describeFastify = TEST_ADAPTER === 'fastify' ? describe : describe.skip;

describeFastify('a door that did not install (e2e, Fastify)', () => {
  let running: RunningApp;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    running = await startApp(DoorLostModule, { logger });
  });

  afterAll(() => running?.close());

  it('refuses every request with 500, a foreign Host included, and says why once', async () => {
    for (const host of ['127.0.0.1', 'rebound.example']) {
      const answer = await httpExchange(
        running.mcpUrl,
        'POST',
        { ...MCP_POST_HEADERS, host },
        JSON.stringify(initializeRequest()),
      );
      expectRefusal(answer, 500, { message: 'Internal Server Error: the endpoint is not configured' });
    }
    const errors = logger.at('error').filter((line) => line.includes('without its Origin/Host check'));
    expect(errors).toHaveLength(1);
  });
});
