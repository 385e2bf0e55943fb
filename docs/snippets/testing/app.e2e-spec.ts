/// <reference types="jest" />
// The line above stands in for the project's tsconfig (`"types": ["vitest/globals"]` in a Nest 12
// project, @types/jest in a Nest 11 one): the docs test compiles this file with Jest's globals.
// #region e2e
import type { INestApplication } from '@nestjs/common';
import { Test } from '@nestjs/testing';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { AppModule } from './app.module.js';
import { API_TOKEN } from './bearer-token.guard.js';

const TOKEN = 'test-token';

describe('the MCP endpoint (e2e)', () => {
  let app: INestApplication;
  let url: URL;
  const clients: Client[] = [];

  beforeAll(async () => {
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] })
      .overrideProvider(API_TOKEN)
      .useValue(TOKEN)
      .compile();
    app = moduleRef.createNestApplication({ bodyParser: false });
    // Port 0: the system picks a free port, so test files can run in parallel.
    await app.listen(0, '127.0.0.1');
    url = new URL(`${await app.getUrl()}/mcp`);
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await app.close();
  });

  /** An official SDK client (v1), connected with `token`; closed after the test. */
  async function connect(token: string): Promise<Client> {
    const client = new Client({ name: 'e2e-test', version: '1.0.0' });
    clients.push(client);
    const transport = new StreamableHTTPClientTransport(url, {
      requestInit: { headers: { Authorization: `Bearer ${token}` } },
    });
    await client.connect(transport);
    return client;
  }

  it('lists and calls get_forecast with a valid token', async () => {
    const client = await connect(TOKEN);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(['get_forecast']);
    const result = await client.callTool({ name: 'get_forecast', arguments: { city: 'Lisbon' } });
    expect(result.content).toEqual([{ type: 'text', text: 'Lisbon: sunny, 24 °C' }]);
  });

  it('answers arguments the DTO refuses with an error result', async () => {
    const client = await connect(TOKEN);

    const result = await client.callTool({ name: 'get_forecast', arguments: { city: '' } });
    expect(result.isError).toBe(true);
    expect(result.content).toEqual([{ type: 'text', text: expect.stringContaining('city') }]);
  });

  it('refuses a wrong token with 401', async () => {
    await expect(connect('wrong-token')).rejects.toMatchObject({ code: 401 });
  });
});
// #endregion e2e
