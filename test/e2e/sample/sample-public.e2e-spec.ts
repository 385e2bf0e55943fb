/**
 * The sample's second MCP server, `weather-public` at `/public/mcp`: with bearer tokens set, it
 * still answers without one, serving exactly `weather_forecast` and `weather://cities`, while `/mcp`
 * refuses a client without a token; its tool answers as the main server's does.
 */
import { AppModule } from '../../../sample-app/app.module.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';

const TOKEN = 'public-sample-token';

describe('the sample app: the public server beside the guarded one (e2e)', () => {
  let running: RunningApp;
  const clients = useSdkClients();

  beforeAll(async () => {
    running = await startApp(AppModule.register({ bearerToken: TOKEN }));
  });

  afterAll(() => running?.close());

  it('lists exactly weather_forecast and weather://cities at /public/mcp, without a token', async () => {
    const { client } = await clients.connect(`${running.baseUrl}/public/mcp`);
    expect(client.getServerVersion()).toMatchObject({ name: 'weather-public' });
    const tools = (await client.listTools()).tools;
    expect(tools.map((tool) => tool.name)).toEqual(['weather_forecast']);
    expect(tools[0]!.annotations).toMatchObject({ readOnlyHint: true });
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['weather://cities']);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);

    const forecast = await client.callTool({ name: 'weather_forecast', arguments: { city: 'Lisbon', days: 2 } });
    expect(forecast.isError).toBeUndefined();
    expect((forecast.content as { text: string }[])[0]!.text).toMatch(/^Forecast for Lisbon:\nDay 1: .+\nDay 2: .+$/);
    expect(await client.callTool({ name: 'clear_forecast_cache', arguments: {} })).toMatchObject({ isError: true });
  });

  it('refuses a client without a token at /mcp, and serves every item there with one', async () => {
    await expect(clients.connect(running.mcpUrl)).rejects.toThrow(/"message":"Unauthorized"/);
    const { client } = await clients.connect(running.mcpUrl, { headers: { authorization: `Bearer ${TOKEN}` } });
    expect(client.getServerVersion()).toMatchObject({ name: 'mcp42-sample' });
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('weather_forecast');
  });
});
