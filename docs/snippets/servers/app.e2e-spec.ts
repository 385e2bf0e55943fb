/// <reference types="jest" />
// The line above stands in for the project's tsconfig (`"types": ["vitest/globals"]` in a Nest 12
// project, @types/jest in a Nest 11 one): the docs test compiles this file with Jest's globals.
// #region path
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { createMcpTestClient } from 'mcp42/testing';
import { AppModule } from './app.module.js';

describe('two servers in one app (e2e)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    app = moduleRef.createNestApplication({ bodyParser: false });
    await app.init();
  });

  afterAll(async () => {
    await app.close();
  });

  it('serves the public tools at /public/mcp, to anyone', async () => {
    // `path` picks the server: its endpoint's path (with the app's global prefix, if any).
    const client = await createMcpTestClient(app, { path: '/public/mcp' });

    expect(client.getServerVersion()?.name).toBe('weather-public');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['get_forecast', 'status']);
    await client.close();
  });

  it('keeps /mcp, the default path, behind its guard', async () => {
    await expect(createMcpTestClient(app)).rejects.toMatchObject({ status: 401 });
  });
});
// #endregion path
