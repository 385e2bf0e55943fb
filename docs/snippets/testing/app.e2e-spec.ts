/// <reference types="jest" />
// The line above stands in for the project's tsconfig (`"types": ["vitest/globals"]` in a Nest 12
// project, @types/jest in a Nest 11 one): the docs test compiles this file with Jest's globals.
// #region e2e
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { createMcpTestClient, McpHttpError, type McpTestEra } from 'mcp42/testing';
import { AppModule } from './app.module.js';
import { API_TOKEN } from './bearer-token.guard.js';

const TOKEN = 'test-token';

// Both eras of the protocol: a 2025-11-25 session, and the stateless 2026-07-28 requests.
describe.each<McpTestEra>(['2025-11-25', '2026-07-28'])('the MCP endpoint, %s (e2e)', (era) => {
  let app: INestApplication;
  const clients: Client[] = [];

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(API_TOKEN)
      .useValue(TOKEN)
      .compile();
    app = moduleRef.createNestApplication({ bodyParser: false });
    // No listen(): the test client talks to the app inside the process.
    await app.init();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await app.close();
  });

  /** A client of the app that sends `token`, as an MCP client would; closed after the test. */
  async function connect(token: string): Promise<Client> {
    const client = await createMcpTestClient(app, { era, headers: { authorization: `Bearer ${token}` } });
    clients.push(client);
    return client;
  }

  it('lists and calls get_forecast with a valid token', async () => {
    const client = await connect(TOKEN);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['get_forecast', 'clear_cache']);
    const result = await client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Lisbon: sunny, 24 °C' }]);
  });

  it('answers arguments the DTO refuses with an error result', async () => {
    const client = await connect(TOKEN);

    const result = await client.callTool({ name: 'get_forecast', arguments: { city: '' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('city') }]);
  });

  it('refuses a wrong token with 401 and the challenge', async () => {
    const refusal = connect('wrong-token');

    await expect(refusal).rejects.toBeInstanceOf(McpHttpError);
    await expect(refusal).rejects.toMatchObject({ status: 401, challenge: 'Bearer' });
  });
});
// #endregion e2e
