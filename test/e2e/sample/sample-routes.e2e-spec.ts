/**
 * The sample's REST routes served as tools (`@McpRoute()`): `get_forecast` and `create_alert` on
 * `/mcp`, through the official SDK clients of both eras (v1 on 2025 sessions, v2 speaking
 * 2026-07-28), with the bearer and admin tokens set. A call runs the route in process: its guards
 * see the token the MCP client sent, its ValidationPipe refuses what it refuses, and what it
 * returns is what the same route returns over plain HTTP.
 */
import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { AppModule } from '../../../sample-app/app.module.js';
import { WeatherAlerts } from '../../../sample-app/weather-alerts.js';
import { useModernSdkClients } from '../../utils/modern-sdk-clients.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { onlyText } from '../../utils/tool-results.js';

const READER_TOKEN = 'reader';
const ADMIN_TOKEN = 'admin';

/** What both eras' clients give back from `tools/list` and `tools/call`, as far as these tests read it. */
interface ToolsClient {
  listTools(): Promise<{ tools: Tool[] }>;
  callTool(params: { name: string; arguments?: Record<string, unknown> }): Promise<unknown>;
}

interface CallResult {
  readonly content: readonly { type: string; text?: string }[];
  readonly structuredContent?: Record<string, unknown>;
  readonly isError?: boolean;
}

describe('the sample REST routes as tools (e2e)', () => {
  let running: RunningApp;
  let alerts: WeatherAlerts;
  const legacy = useSdkClients();
  const modern = useModernSdkClients();

  beforeAll(async () => {
    running = await startApp(AppModule.register({ bearerToken: READER_TOKEN, adminToken: ADMIN_TOKEN }));
    alerts = running.app.get(WeatherAlerts);
  });

  afterAll(async () => {
    await running?.close();
  });

  const bearer = (token: string): Record<string, string> => ({ authorization: `Bearer ${token}` });

  const clients: [string, (token: string) => Promise<ToolsClient>][] = [
    [
      'the v1 SDK client (2025 session)',
      async (token) => (await legacy.connect(running.mcpUrl, { headers: bearer(token) })).client,
    ],
    [
      'the v2 SDK client (2026-07-28)',
      async (token) => (await modern.connect(running.mcpUrl, { headers: bearer(token) })).client as ToolsClient,
    ],
  ];

  const call = async (client: ToolsClient, name: string, args: Record<string, unknown>): Promise<CallResult> =>
    (await client.callTool({ name, arguments: args })) as CallResult;

  describe.each(clients)('through %s', (_label, connect) => {
    it('lists get_forecast with its path and query fields, read-only', async () => {
      const { tools } = await (await connect(READER_TOKEN)).listTools();
      const tool = tools.find((candidate) => candidate.name === 'get_forecast');
      expect(tool).toMatchObject({
        name: 'get_forecast',
        inputSchema: {
          type: 'object',
          properties: {
            city: { type: 'string', minLength: 1, maxLength: 100 },
            days: { type: 'integer', minimum: 1, maximum: 7 },
          },
          required: ['city'],
          additionalProperties: false,
        },
        annotations: { readOnlyHint: true },
        // From the route's @ApiOkResponse({ type: ForecastResponseDto }), inline.
        outputSchema: {
          type: 'object',
          properties: {
            city: { type: 'string' },
            days: { type: 'number' },
            forecasts: {
              type: 'array',
              items: {
                type: 'object',
                properties: { day: { type: 'number' }, summary: { type: 'string' } },
                required: ['day', 'summary', 'highC', 'lowC'],
              },
            },
          },
          required: ['city', 'days', 'forecasts'],
        },
      });
      expect(JSON.stringify(tool)).not.toContain('$ref');
    });

    it('lists create_alert to the admin with its body fields and no read-only hint, and hides it from the reader', async () => {
      const admin = (await (await connect(ADMIN_TOKEN)).listTools()).tools;
      const tool = admin.find((candidate) => candidate.name === 'create_alert');
      expect(tool).toMatchObject({
        inputSchema: {
          type: 'object',
          properties: { city: { type: 'string' }, message: { type: 'string', maxLength: 500 } },
          required: ['city', 'message'],
          additionalProperties: false,
        },
      });
      expect(tool?.annotations?.readOnlyHint).toBeUndefined();
      const reader = (await (await connect(READER_TOKEN)).listTools()).tools;
      expect(reader.map((candidate) => candidate.name)).toContain('get_forecast');
      expect(reader.map((candidate) => candidate.name)).not.toContain('create_alert');
    });

    it('returns as structuredContent exactly what the route returns over plain HTTP', async () => {
      const client = await connect(READER_TOKEN);
      const result = await call(client, 'get_forecast', { city: 'Lisbon', days: 4 });
      const http = await fetch(`${running.baseUrl}/api/forecasts/Lisbon?days=4`, { headers: bearer(READER_TOKEN) });
      expect(http.status).toBe(200);
      const body = (await http.json()) as Record<string, unknown>;
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toEqual(body);
      expect(JSON.parse(onlyText(result as never))).toEqual(body);
      expect(body).toMatchObject({ city: 'Lisbon', days: 4 });
      expect((body.forecasts as unknown[]).length).toBe(4);
    });

    it('fills the path parameter encoded, and the route default when days is left out', async () => {
      const client = await connect(READER_TOKEN);
      const result = await call(client, 'get_forecast', { city: 'São Paulo / Centro' });
      expect(result.structuredContent).toMatchObject({ city: 'São Paulo / Centro', days: 3 });
    });

    it('answers days: 99 with a tool error naming days', async () => {
      const client = await connect(READER_TOKEN);
      const result = await call(client, 'get_forecast', { city: 'Lisbon', days: 99 });
      expect(result.isError).toBe(true);
      expect(onlyText(result as never)).toMatch(/days/);
    });

    it('creates an alert with the admin token (201 body as structuredContent)', async () => {
      const client = await connect(ADMIN_TOKEN);
      const before = alerts.list().length;
      const result = await call(client, 'create_alert', { city: 'Oslo', message: 'Storm tonight' });
      expect(result.isError).toBeUndefined();
      expect(result.structuredContent).toMatchObject({ city: 'Oslo', message: 'Storm tonight' });
      expect(typeof result.structuredContent?.id).toBe('string');
      expect(alerts.list()).toHaveLength(before + 1);
    });

    it('refuses create_alert with the reader token as not allowed: no 500, no alert', async () => {
      const client = await connect(READER_TOKEN);
      const before = alerts.list().length;
      const result = await call(client, 'create_alert', { city: 'Oslo', message: 'Storm tonight' });
      expect(result.isError).toBe(true);
      expect(onlyText(result as never)).toMatch(/not allowed/);
      expect(onlyText(result as never)).not.toMatch(/internal/i);
      expect(alerts.list()).toHaveLength(before);
    });

    it('names a refused body field', async () => {
      const client = await connect(ADMIN_TOKEN);
      const result = await call(client, 'create_alert', { city: 'Oslo', message: '' });
      expect(result.isError).toBe(true);
      expect(onlyText(result as never)).toMatch(/message/);
    });
  });

  describe('over plain HTTP', () => {
    it('still serves both routes, behind their guards', async () => {
      const unauthenticated = await fetch(`${running.baseUrl}/api/forecasts/Oslo`);
      expect(unauthenticated.status).toBe(401);
      const invalid = await fetch(`${running.baseUrl}/api/forecasts/Oslo?days=99`, { headers: bearer(READER_TOKEN) });
      expect(invalid.status).toBe(400);
      const post = (token: string): Promise<Response> =>
        fetch(`${running.baseUrl}/api/alerts`, {
          method: 'POST',
          headers: { ...bearer(token), 'content-type': 'application/json' },
          body: JSON.stringify({ city: 'Lima', message: 'Fog' }),
        });
      expect((await post(READER_TOKEN)).status).toBe(403);
      const created = await post(ADMIN_TOKEN);
      expect(created.status).toBe(201);
      expect(await created.json()).toMatchObject({ city: 'Lima', message: 'Fog' });
    });
  });
});
