/**
 * The sample's route-backed tools through the testing kit (`mcp42/testing`), as an application's own
 * tests would check them: no port, the app initialised only, both eras. The kit's request reaches the
 * MCP endpoint in process, and the tool's request reaches the REST route in process from there.
 */
import type { INestApplication } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import { Test } from '@nestjs/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { AppModule } from '../../../sample-app/app.module.js';
import { WeatherAlerts } from '../../../sample-app/weather-alerts.js';
import { createMcpTestClient, type McpTestEra } from '../../../src/testing/index.js';
import { TEST_ADAPTER } from '../../utils/start-app.js';
import { onlyText } from '../../utils/tool-results.js';

const READER_TOKEN = 'reader';
const ADMIN_TOKEN = 'admin';

describe.each<McpTestEra>(['2025-11-25', '2026-07-28'])(
  'the sample routes through the testing kit, era %s (e2e)',
  (era) => {
    let app: INestApplication;
    const clients: Client[] = [];

    beforeAll(async () => {
      const moduleRef = await Test.createTestingModule({
        imports: [AppModule.register({ bearerToken: READER_TOKEN, adminToken: ADMIN_TOKEN })],
      }).compile();
      const settings = { bodyParser: false, logger: false as const };
      app =
        TEST_ADAPTER === 'fastify'
          ? moduleRef.createNestApplication(new FastifyAdapter(), settings)
          : moduleRef.createNestApplication(settings);
      await app.init();
    });

    afterEach(async () => {
      await Promise.all(clients.splice(0).map((client) => client.close()));
    });

    afterAll(async () => {
      await app?.close();
    });

    const clientFor = async (token: string): Promise<Client> => {
      const client = await createMcpTestClient(app, { era, headers: { authorization: `Bearer ${token}` } });
      clients.push(client);
      return client;
    };

    it('lists get_forecast to the reader, and create_alert to the admin only', async () => {
      const reader = (await (await clientFor(READER_TOKEN)).listTools()).tools.map((tool) => tool.name);
      expect(reader).toContain('get_forecast');
      expect(reader).not.toContain('create_alert');
      const admin = (await (await clientFor(ADMIN_TOKEN)).listTools()).tools.map((tool) => tool.name);
      expect(admin).toEqual(expect.arrayContaining(['get_forecast', 'create_alert']));
    });

    it('calls get_forecast through the route', async () => {
      const result = await (
        await clientFor(READER_TOKEN)
      ).callTool({ name: 'get_forecast', arguments: { city: 'Cairo', days: 2 } });
      expect(result.structuredContent).toMatchObject({ city: 'Cairo', days: 2 });
      expect((result.structuredContent as { forecasts: unknown[] }).forecasts).toHaveLength(2);
    });

    it('creates an alert with the admin token only', async () => {
      const alerts = app.get(WeatherAlerts);
      const before = alerts.list().length;
      const refused = await (
        await clientFor(READER_TOKEN)
      ).callTool({
        name: 'create_alert',
        arguments: { city: 'Cairo', message: 'Sandstorm' },
      });
      expect(refused.isError).toBe(true);
      expect(onlyText(refused)).toContain('not allowed');
      expect(alerts.list()).toHaveLength(before);
      const created = await (
        await clientFor(ADMIN_TOKEN)
      ).callTool({
        name: 'create_alert',
        arguments: { city: 'Cairo', message: 'Sandstorm' },
      });
      expect(created.structuredContent).toMatchObject({ city: 'Cairo', message: 'Sandstorm' });
      expect(alerts.list()).toHaveLength(before + 1);
    });
  },
);
