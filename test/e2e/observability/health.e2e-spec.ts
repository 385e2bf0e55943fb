import 'reflect-metadata';
import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, TerminusModule, type HealthCheckResult } from '@nestjs/terminus';
import { Redis } from 'ioredis';
import { McpModule } from '../../../src/index.js';
import { mcpTelemetry } from '../../../src/otel/index.js';
import { redisState } from '../../../src/redis/index.js';
import { McpHealthIndicator } from '../../../src/terminus/index.js';
import { openSession } from '../../utils/open-session.js';
import { TestTelemetry } from '../../utils/otel-sdk.js';
import { RedisServer } from '../../utils/redis-server.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';

const SECRET = 'a shared secret of at least 32 bytes, the same on every instance';

@Controller('health')
class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mcp: McpHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check(): Promise<HealthCheckResult> {
    return this.health.check([() => this.mcp.isHealthy('mcp', 500)]);
  }
}

const health = async (app: RunningApp): Promise<{ status: number; body: Record<string, unknown> }> => {
  const response = await fetch(`${app.baseUrl}/health`);
  return { status: response.status, body: (await response.json()) as Record<string, unknown> };
};

describe('McpHealthIndicator (mcp42/terminus)', () => {
  it('reports the live sessions of a server without shared state', async () => {
    const app = await startApp({
      imports: [McpModule.forRoot({ name: 'healthy', version: '1.0.0' }), TerminusModule],
      controllers: [HealthController],
      providers: [McpHealthIndicator],
    });
    try {
      expect(await health(app)).toEqual({
        status: 200,
        body: expect.objectContaining({
          status: 'ok',
          info: { mcp: { status: 'up', sessions: 0, sessionsEverywhere: 0 } },
        }) as unknown,
      });
      await openSession(app.mcpUrl);
      expect((await health(app)).body).toMatchObject({ info: { mcp: { sessions: 1, sessionsEverywhere: 1 } } });
    } finally {
      await app.close();
    }
  });

  describe('with shared state on Redis', () => {
    const otel = new TestTelemetry();
    let redis: RedisServer;
    let client: Redis;
    let app: RunningApp;

    beforeAll(async () => {
      redis = await RedisServer.start();
      client = new Redis(redis.url);
      app = await startApp({
        imports: [
          McpModule.forRoot({
            name: 'shared',
            version: '1.0.0',
            state: { secret: SECRET, shared: redisState({ client, keyPrefix: 'health-e2e:' }) },
            telemetry: mcpTelemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider }),
          }),
          TerminusModule,
        ],
        controllers: [HealthController],
        providers: [McpHealthIndicator],
      });
    }, 30_000);

    afterAll(async () => {
      redis.resume();
      await app.close();
      client.disconnect();
      await redis.stop();
      await otel.shutdown();
    });

    it('is up while Redis answers, and reports it available', async () => {
      await openSession(app.mcpUrl);
      expect(await health(app)).toMatchObject({
        status: 200,
        body: { info: { mcp: { status: 'up', sessions: 1, sessionsEverywhere: 1 } } },
      });
      const [available] = await otel.points('mcp42.server.state.available', { 'mcp42.server.name': 'shared' });
      expect(available?.value).toBe(1);
    });

    it('is down (503) while Redis does not answer, and up again once it does', async () => {
      redis.pause();
      try {
        const down = await health(app);
        expect(down.status).toBe(503);
        expect(down.body).toMatchObject({ status: 'error', error: { mcp: { status: 'down' } } });
      } finally {
        redis.resume();
      }
      expect((await health(app)).status).toBe(200);
    }, 15_000);
  });
});
