/**
 * The sample app's richer tools through the official MCP SDK client, over real HTTP, behind a
 * reader token and an admin token: structured output the SDK validates, progress, cancellation,
 * a tool only the weather:admin scope sees, and a confirmation asked through elicitation.
 */
import { jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  type ElicitRequest,
  type ElicitResult,
  type LoggingMessageNotification,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { AppModule } from '../../../sample-app/app.module.js';
import { WeatherService } from '../../../sample-app/weather.service.js';
import { McpCallAbortedError } from '../../../src/index.js';
import {
  CLEAR_FORECAST_CACHE_TOOL_DEFINITION,
  SAMPLE_ADMIN_TOOL_NAMES,
  SAMPLE_TOOL_NAMES,
  WEATHER_SUMMARY_TOOL_DEFINITION,
} from '../../fixtures/sample-tool-definitions.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { delay, until } from '../../utils/wait.js';
import { onlyText } from '../../utils/tool-results.js';
import {
  RecordingValidator,
  useSdkClients,
  type SdkConnection,
  type SdkConnectOptions,
} from '../../utils/sdk-clients.js';
import { SessionStore } from '../../internals/index.js';
import { serverInstance } from '../../utils/server-instance.js';

const READER_TOKEN = 'reader';
const ADMIN_TOKEN = 'admin';

describe('the sample tools through the official MCP SDK client (e2e)', () => {
  let running: RunningApp;
  let weather: WeatherService;
  let sessions: SessionStore;
  const sdk = useSdkClients();

  beforeAll(async () => {
    running = await startApp(AppModule.register({ bearerToken: READER_TOKEN, adminToken: ADMIN_TOKEN }));
    weather = running.app.get(WeatherService);
    sessions = serverInstance(running.app, 'mcp42-sample', SessionStore);
  });

  beforeEach(() => {
    weather.clearCache();
  });

  afterEach(() => {
    jest.restoreAllMocks();
  });

  afterAll(async () => {
    await running?.close();
  });

  type ConnectOptions = Pick<SdkConnectOptions, 'capabilities' | 'jsonSchemaValidator' | 'prepare'>;

  async function connect(token: string, options: ConnectOptions = {}): Promise<SdkConnection> {
    return sdk.connect(running.mcpUrl, {
      info: { name: 'sample-tools-e2e', version: '1.0.0' },
      headers: { Authorization: `Bearer ${token}` },
      ...options,
    });
  }

  /** An admin client that answers the confirmation with `answer`, noting what it was asked. */
  async function adminAnswering(answer: ElicitResult): Promise<{ client: Client; asked: ElicitRequest['params'][] }> {
    const asked: ElicitRequest['params'][] = [];
    const { client } = await connect(ADMIN_TOKEN, {
      capabilities: { elicitation: {} },
      prepare: (c) =>
        c.setRequestHandler(ElicitRequestSchema, (request) => {
          asked.push(request.params);
          return answer;
        }),
    });
    return { client, asked };
  }

  /** Fills the cache with the first `count` cities, as finished refreshes would. */
  async function cacheCities(count: number): Promise<void> {
    const signal = new AbortController().signal;
    for (const city of weather.cities.slice(0, count)) await weather.refresh(city, 0, signal);
    expect(weather.cached).toBe(count);
  }

  describe('weather_summary', () => {
    it('returns structuredContent the SDK validated against the advertised outputSchema, matching weather_forecast', async () => {
      const validator = new RecordingValidator();
      const { client } = await connect(READER_TOKEN, { jsonSchemaValidator: validator });
      // The SDK validates structured output only for tools it has listed.
      const { tools } = await client.listTools();
      expect(tools.find((tool) => tool.name === 'weather_summary')).toEqual(WEATHER_SUMMARY_TOOL_DEFINITION);

      // Five days: every mean of five integers has one decimal at most, so the server's rounding changes nothing.
      const args = { city: 'Lisbon', days: 5, units: 'imperial' };
      const summary = await client.callTool({ name: 'weather_summary', arguments: args });
      const forecast = await client.callTool({ name: 'weather_forecast', arguments: args });

      expect(summary.isError).toBeFalsy();
      const structured = summary.structuredContent;
      expect(validator.checks).toEqual([
        { schema: WEATHER_SUMMARY_TOOL_DEFINITION.outputSchema, input: structured, valid: true },
      ]);
      // The text block carries the same data, for clients that read only text.
      expect(JSON.parse(onlyText(summary))).toEqual(structured);

      const days = onlyText(forecast)
        .split('\n')
        .slice(1)
        .map((line) => {
          const match = /^Day \d+: ([a-z ]+), high (-?\d+)°F, low (-?\d+)°F$/.exec(line);
          expect(match).not.toBeNull();
          return { condition: match![1]!, high: Number(match![2]), low: Number(match![3]) };
        });
      expect(days).toHaveLength(5);
      const mean = (values: number[]): number => values.reduce((a, b) => a + b, 0) / values.length;
      expect(structured).toEqual({
        city: 'Lisbon',
        units: 'imperial',
        days: 5,
        averageHigh: expect.closeTo(mean(days.map((day) => day.high)), 9),
        averageLow: expect.closeTo(mean(days.map((day) => day.low)), 9),
        conditions: [...new Set(days.map((day) => day.condition))],
      });
    });

    it('covers three days in metric units when days and units are omitted', async () => {
      const { client } = await connect(READER_TOKEN);
      await client.listTools();
      const summary = await client.callTool({ name: 'weather_summary', arguments: { city: 'Oslo' } });

      expect(summary.isError).toBeFalsy();
      expect(summary.structuredContent).toMatchObject({ city: 'Oslo', units: 'metric', days: 3 });
    });
  });

  describe('refresh_forecasts', () => {
    it('reports progress 0..8 of 8 with a message per city, logs, and answers once all are refreshed', async () => {
      const logs: LoggingMessageNotification['params'][] = [];
      const { client } = await connect(READER_TOKEN, {
        prepare: (c) =>
          c.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
            logs.push(notification.params);
          }),
      });
      const seen: Progress[] = [];
      const result = await client.callTool({ name: 'refresh_forecasts', arguments: {} }, undefined, {
        onprogress: (progress) => seen.push(progress),
      });

      expect(result.isError).toBeFalsy();
      expect(onlyText(result)).toBe('Refreshed 8 forecasts');
      expect(weather.cities).toHaveLength(8);
      expect(seen).toEqual([
        ...weather.cities.map((city, index) => ({ progress: index, total: 8, message: `Refreshing ${city}` })),
        { progress: 8, total: 8, message: 'Done' },
      ]);
      expect(logs).toContainEqual({ level: 'info', data: 'Refreshing 8 cities' });
      expect(weather.cached).toBe(8);
    });

    it('stops when the client aborts midway: the promise rejects, the refresh in flight is interrupted, the session goes on', async () => {
      const refresh = jest.spyOn(weather, 'refresh');
      const { client, transport } = await connect(READER_TOKEN);
      const controller = new AbortController();
      const seen: number[] = [];
      const calling = client.callTool({ name: 'refresh_forecasts', arguments: {} }, undefined, {
        signal: controller.signal,
        onprogress: ({ progress }) => {
          seen.push(progress);
          if (progress === 2) controller.abort('the user pressed stop');
        },
      });

      await expect(calling).rejects.toThrow();
      expect(seen).toEqual([0, 1, 2]);
      const session = sessions.get(transport.sessionId!);
      expect(session).toBeDefined();
      await until(() => session!.runningCalls === 0, 'the end of the cancelled call');

      // The refresh under way when the cancellation arrived was cut short by ctx.signal, not left to finish.
      const started = refresh.mock.results.length;
      const interrupted = refresh.mock.results[started - 1]!.value;
      await expect(interrupted).rejects.toBeInstanceOf(McpCallAbortedError);
      await expect(interrupted).rejects.toHaveProperty('kind', 'cancelled');
      // A fixed wait on purpose (one timer turn): no further refresh may start.
      await delay(0);
      expect(refresh).toHaveBeenCalledTimes(started);
      // Normally 2 (Lisbon and Oslo); more only if the cancellation was slower than a city's refresh.
      expect(weather.cached).toBe(started - 1);
      expect(weather.cached).toBeGreaterThanOrEqual(2);
      expect(weather.cached).toBeLessThan(8);

      const after = await client.callTool({ name: 'weather_forecast', arguments: { city: 'Lima' } });
      expect(after.isError).toBeFalsy();
      expect(onlyText(after)).toMatch(/^Forecast for Lima:\nDay 1: /);
    });
  });

  describe('clear_forecast_cache (weather:admin only, confirmed through elicitation)', () => {
    it('is neither listed nor callable with the reader token, and deletes nothing', async () => {
      await cacheCities(2);
      const { client } = await connect(READER_TOKEN, { capabilities: { elicitation: {} } });

      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(SAMPLE_TOOL_NAMES);
      const result = await client.callTool({ name: 'clear_forecast_cache', arguments: {} });
      expect(result.isError).toBe(true);
      expect(onlyText(result)).toBe('Unknown tool: clear_forecast_cache');
      expect(weather.cached).toBe(2);
    });

    it('is listed for the admin token with its definition', async () => {
      const { client } = await connect(ADMIN_TOKEN);
      const { tools } = await client.listTools();

      expect(tools.map((tool) => tool.name).sort()).toEqual(SAMPLE_ADMIN_TOOL_NAMES);
      expect(tools.find((tool) => tool.name === 'clear_forecast_cache')).toEqual(CLEAR_FORECAST_CACHE_TOOL_DEFINITION);
    });

    it('asks for confirmation and deletes once the user accepts', async () => {
      await cacheCities(3);
      const { client, asked } = await adminAnswering({ action: 'accept', content: { confirm: true } });
      const result = await client.callTool({ name: 'clear_forecast_cache', arguments: {} });

      expect(result.isError).toBeFalsy();
      expect(onlyText(result)).toBe('Deleted 3 cached forecast(s)');
      expect(weather.cached).toBe(0);
      expect(asked).toEqual([
        {
          message: 'Delete 3 cached forecast(s)?',
          requestedSchema: {
            type: 'object',
            properties: { confirm: { type: 'boolean', title: 'Yes, delete them', default: false } },
            required: ['confirm'],
          },
        },
      ]);
    });

    it.each<[string, ElicitResult]>([
      ['declines', { action: 'decline' }],
      ['cancels', { action: 'cancel' }],
      ['accepts without confirming', { action: 'accept', content: { confirm: false } }],
    ])('deletes nothing when the user %s', async (_label, answer) => {
      await cacheCities(2);
      const { client, asked } = await adminAnswering(answer);
      const result = await client.callTool({ name: 'clear_forecast_cache', arguments: {} });

      expect(result.isError).toBeFalsy();
      expect(onlyText(result)).toBe('Nothing was deleted');
      expect(asked).toHaveLength(1);
      expect(weather.cached).toBe(2);
    });

    it('answers an admin client without the elicitation capability with an isError result, deleting nothing', async () => {
      await cacheCities(2);
      const { client } = await connect(ADMIN_TOKEN);
      const result = await client.callTool({ name: 'clear_forecast_cache', arguments: {} });

      expect(result.isError).toBe(true);
      expect(onlyText(result)).toBe(
        'This client cannot ask the user for confirmation (no elicitation); nothing was deleted',
      );
      expect(weather.cached).toBe(2);
    });
  });
});
