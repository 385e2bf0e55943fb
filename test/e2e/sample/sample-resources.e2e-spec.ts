/**
 * The sample app's resources, prompt and completions through the official MCP SDK client, over
 * real HTTP behind the bearer guard: the known cities, a forecast read through the template, the
 * forecast summary prompt embedding it, completion of city names, and subscribers hearing of refreshes.
 */
import { jest } from '@jest/globals';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ResourceUpdatedNotificationSchema } from '@modelcontextprotocol/sdk/types.js';
import { AppModule } from '../../../sample-app/app.module.js';
import { WeatherService } from '../../../sample-app/weather.service.js';
import { McpResourceRegistry } from '../../../src/index.js';
import type { ClientSession } from '../../internals/index.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';
import { rpcError } from '../../utils/thrown.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { SessionStore } from '../../internals/index.js';
import { serverInstance } from '../../utils/server-instance.js';

const TOKEN = 'reader';
const CITIES = ['Lisbon', 'Oslo', 'Nairobi', 'Lima', 'Osaka', 'Toronto', 'Cairo', 'Sydney'];
const FORECAST_TEMPLATE = 'weather://forecast/{city}';
const ISO_TIMESTAMP = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;
const FORECAST_DESCRIPTION =
  'Three-day forecast of a known city (metric), and when it was last refreshed; subscribe to hear of refreshes';
const PROMPT_DESCRIPTION = "Asks the model to summarise a city's forecast, which comes embedded with the request";

/** The only contents item of a resources/read result, as text. */
function onlyTextContents(result: { contents: object[] }): { uri: string; mimeType?: string; text: string } {
  expect(result.contents).toHaveLength(1);
  const contents = result.contents[0] as { uri: string; mimeType?: string; text?: unknown };
  expect(typeof contents.text).toBe('string');
  return contents as { uri: string; mimeType?: string; text: string };
}

describe('the sample resources, prompt and completions through the official MCP SDK client (e2e)', () => {
  let running: RunningApp;
  let weather: WeatherService;
  let sessions: SessionStore;
  // Ended, not just left: a session left open would still be subscribed while the next test counts updates.
  const sdk = useSdkClients({ terminate: true });

  beforeAll(async () => {
    running = await startApp(AppModule.register({ bearerToken: TOKEN }));
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

  async function connect(prepare?: (client: Client) => void): Promise<{ client: Client; session: ClientSession }> {
    const { client, transport } = await sdk.connect(running.mcpUrl, {
      info: { name: 'sample-resources-e2e', version: '1.0.0' },
      headers: { Authorization: `Bearer ${TOKEN}` },
      prepare,
    });
    const session = sessions.get(transport.sessionId!);
    expect(session).toBeDefined();
    return { client, session: session! };
  }

  /** What `weather_forecast` says of `city`'s first three days, metric: what the forecast resource must agree with. */
  async function toolDays(client: Client, city: string): Promise<{ condition: string; high: number; low: number }[]> {
    const result = await client.callTool({ name: 'weather_forecast', arguments: { city, days: 3 } });
    const [block] = result.content as { type: string; text: string }[];
    return block!.text
      .split('\n')
      .slice(1)
      .map((line) => {
        const match = /^Day \d: ([a-z ]+), high (-?\d+)°C, low (-?\d+)°C$/.exec(line);
        expect(match).not.toBeNull();
        return { condition: match![1]!, high: Number(match![2]), low: Number(match![3]) };
      });
  }

  describe('resources', () => {
    it('lists the cities resource and the forecast template with their definitions', async () => {
      const { client } = await connect();

      expect(await client.listResources()).toEqual({
        resources: [
          {
            uri: 'weather://cities',
            name: 'cities',
            title: 'Known cities',
            description: 'The cities the weather service has forecasts for, as a JSON array of names',
            mimeType: 'application/json',
          },
        ],
      });
      expect(await client.listResourceTemplates()).toEqual({
        resourceTemplates: [
          {
            uriTemplate: FORECAST_TEMPLATE,
            name: 'forecast',
            title: 'City forecast',
            description: FORECAST_DESCRIPTION,
            mimeType: 'application/json',
          },
        ],
      });
    });

    it('reads weather://cities: the known cities as one JSON text', async () => {
      const { client } = await connect();
      const contents = onlyTextContents(await client.readResource({ uri: 'weather://cities' }));

      expect(contents).toEqual({ uri: 'weather://cities', mimeType: 'application/json', text: expect.any(String) });
      expect(JSON.parse(contents.text)).toEqual(CITIES);
    });

    it('reads a forecast through the template: three metric days agreeing with weather_forecast, never refreshed', async () => {
      const { client } = await connect();
      const contents = onlyTextContents(await client.readResource({ uri: 'weather://forecast/Oslo' }));

      expect(contents.uri).toBe('weather://forecast/Oslo');
      expect(contents.mimeType).toBe('application/json');
      const days = await toolDays(client, 'Oslo');
      expect(days).toHaveLength(3);
      expect(JSON.parse(contents.text)).toEqual({
        city: 'Oslo',
        units: 'metric',
        refreshedAt: null,
        days: days.map((day, index) => ({ day: index + 1, ...day })),
      });
    });

    it('says when the forecast was last refreshed once the backend refreshed it', async () => {
      await weather.refresh('Cairo', 0, new AbortController().signal);
      const { client } = await connect();
      const contents = onlyTextContents(await client.readResource({ uri: 'weather://forecast/Cairo' }));

      const report = JSON.parse(contents.text) as { city: string; refreshedAt: string };
      expect(report.city).toBe('Cairo');
      expect(report.refreshedAt).toMatch(ISO_TIMESTAMP);
      expect(report.refreshedAt).toBe(weather.refreshedAt('Cairo')!.toISOString());
    });

    it.each([
      ['a city the service does not know', 'weather://forecast/Atlantis'],
      ['a known city spelled otherwise (one URI per forecast)', 'weather://forecast/lisbon'],
      ['a URI no resource or template serves', 'weather://forecast/Lisbon/tomorrow'],
    ])('answers -32002 with the URI in data for %s', async (_label, uri) => {
      const { client } = await connect();

      expect(await rpcError(client.readResource({ uri }))).toEqual({
        code: -32002,
        message: 'MCP error -32002: Resource not found',
        data: { uri },
      });
    });

    it('answers -32602 for a city variable the variables DTO refuses (longer than 100 characters)', async () => {
      const { client } = await connect();
      const error = await rpcError(client.readResource({ uri: `weather://forecast/${'X'.repeat(101)}` }));

      expect(error.code).toBe(-32602);
      expect(error.message).toBe(
        `MCP error -32602: Invalid params: invalid variables for ${FORECAST_TEMPLATE}: ` +
          'city: city must be shorter than or equal to 100 characters',
      );
    });
  });

  describe('the forecast_summary prompt', () => {
    it('is listed with its arguments: city required, style optional', async () => {
      const { client } = await connect();

      expect(await client.listPrompts()).toEqual({
        prompts: [
          {
            name: 'forecast_summary',
            title: 'Summarise a forecast',
            description: PROMPT_DESCRIPTION,
            arguments: [
              {
                name: 'city',
                description: 'The city whose forecast to summarise, as weather://cities spells it',
                required: true,
              },
              {
                name: 'style',
                description: 'brief (one or two sentences, the default) or detailed (day by day)',
                required: false,
              },
            ],
          },
        ],
      });
    });

    it('embeds the forecast resource, exactly as a read gives it, then asks for a brief summary', async () => {
      const { client } = await connect();
      const read = onlyTextContents(await client.readResource({ uri: 'weather://forecast/Lisbon' }));
      const prompt = await client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Lisbon' } });

      expect(prompt).toEqual({
        description: PROMPT_DESCRIPTION,
        messages: [
          {
            role: 'user',
            content: {
              type: 'resource',
              resource: { uri: 'weather://forecast/Lisbon', mimeType: 'application/json', text: read.text },
            },
          },
          {
            role: 'user',
            content: {
              type: 'text',
              text: 'Summarise the weather in Lisbon over the next days in one or two sentences, for a traveller.',
            },
          },
        ],
      });
    });

    it('asks for a day-by-day summary with style detailed', async () => {
      const { client } = await connect();
      const prompt = await client.getPrompt({
        name: 'forecast_summary',
        arguments: { city: 'Nairobi', style: 'detailed' },
      });

      expect(prompt.messages).toHaveLength(2);
      expect(prompt.messages[0]!.content).toMatchObject({
        type: 'resource',
        resource: { uri: 'weather://forecast/Nairobi' },
      });
      expect(prompt.messages[1]).toEqual({
        role: 'user',
        content: {
          type: 'text',
          text: 'Summarise the weather in Nairobi day by day: conditions, highs and lows, and what a traveller should pack.',
        },
      });
    });

    it.each<[string, Record<string, string>, string]>([
      ['an unknown city', { city: 'Atlantis' }, `city: city must be one of the following values: ${CITIES.join(', ')}`],
      [
        'an unknown style',
        { city: 'Lima', style: 'verbose' },
        'style: style must be one of the following values: brief, detailed',
      ],
      ['no city', { style: 'brief' }, `city: city must be one of the following values: ${CITIES.join(', ')}`],
      ['an undeclared argument', { city: 'Lima', days: '3' }, 'days: property days should not exist'],
    ])('refuses %s with -32602 naming the problem', async (_label, args, problem) => {
      const { client } = await connect();

      expect(await rpcError(client.getPrompt({ name: 'forecast_summary', arguments: args }))).toEqual({
        code: -32602,
        message: `MCP error -32602: Invalid params: invalid arguments for prompt forecast_summary: ${problem}`,
        data: undefined,
      });
    });
  });

  describe('completion of city names', () => {
    const PROMPT_REF = { type: 'ref/prompt', name: 'forecast_summary' } as const;
    const TEMPLATE_REF = { type: 'ref/resource', uri: FORECAST_TEMPLATE } as const;

    it.each<[string, string[]]>([
      ['', CITIES],
      ['os', ['Oslo', 'Osaka']],
      ['L', ['Lisbon', 'Lima']],
      ['SYD', ['Sydney']],
      ['x', []],
    ])('completes the prompt city %j by prefix, ignoring case, through the WeatherService', async (value, values) => {
      const lookup = jest.spyOn(WeatherService.prototype, 'citiesStartingWith');
      const { client } = await connect();

      expect(await client.complete({ ref: PROMPT_REF, argument: { name: 'city', value } })).toEqual({
        completion: { values, total: values.length, hasMore: false },
      });
      // The @McpCompletion method answered, not the list derived from @IsIn(CITIES).
      expect(lookup.mock.calls).toEqual([[value]]);
    });

    it.each<[string, string[]]>([
      ['', CITIES],
      ['ca', ['Cairo']],
      ['O', ['Oslo', 'Osaka']],
      ['Lisbonx', []],
    ])('completes the template variable city %j with the same method', async (value, values) => {
      const lookup = jest.spyOn(WeatherService.prototype, 'citiesStartingWith');
      const { client } = await connect();

      expect(await client.complete({ ref: TEMPLATE_REF, argument: { name: 'city', value } })).toEqual({
        completion: { values, total: values.length, hasMore: false },
      });
      expect(lookup.mock.calls).toEqual([[value]]);
    });

    it('completes the prompt style from its @IsIn list', async () => {
      const { client } = await connect();

      expect(await client.complete({ ref: PROMPT_REF, argument: { name: 'style', value: 'D' } })).toEqual({
        completion: { values: ['detailed'], total: 1, hasMore: false },
      });
    });

    it('refuses an argument the prompt does not have with -32602', async () => {
      const { client } = await connect();
      const error = await rpcError(client.complete({ ref: PROMPT_REF, argument: { name: 'days', value: '' } }));

      expect(error.code).toBe(-32602);
      expect(error.message).toBe('MCP error -32602: Invalid params: forecast_summary has no argument days');
    });
  });

  describe('subscriptions to a forecast', () => {
    it('refresh_forecasts notifies a subscriber of each forecast it subscribed to, and no more once unsubscribed', async () => {
      const updated: string[] = [];
      const { client, session } = await connect((c) =>
        c.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
          updated.push(notification.params.uri);
        }),
      );
      const notify = jest.spyOn(serverInstance(running.app, 'mcp42-sample', McpResourceRegistry), 'notifyUpdated');
      expect(await client.subscribeResource({ uri: 'weather://forecast/Lisbon' })).toEqual({});
      expect(await client.subscribeResource({ uri: 'weather://forecast/Oslo' })).toEqual({});
      expect(session.isSubscribed('weather://forecast/Lisbon')).toBe(true);
      // Updates travel on the GET stream, which the SDK opens in the background after connecting.
      await until(() => session.hasStream, 'the GET stream of the SDK client', 5000);

      const first = await client.callTool({ name: 'refresh_forecasts', arguments: {} });
      expect(first.isError).toBeFalsy();
      // One call per refreshed city, in refresh order; only the two subscribed forecasts reached a session.
      expect(notify.mock.calls).toEqual(CITIES.map((city) => [`weather://forecast/${city}`]));
      expect(notify.mock.results.map((result) => result.value)).toEqual([1, 1, 0, 0, 0, 0, 0, 0]);
      await until(() => updated.length >= 2, 'two resources/updated notifications', 5000);
      expect(updated).toEqual(['weather://forecast/Lisbon', 'weather://forecast/Oslo']);
      // What the notification announces: a read now shows the refresh.
      const read = onlyTextContents(await client.readResource({ uri: 'weather://forecast/Lisbon' }));
      expect((JSON.parse(read.text) as { refreshedAt: unknown }).refreshedAt).toMatch(ISO_TIMESTAMP);

      expect(await client.unsubscribeResource({ uri: 'weather://forecast/Lisbon' })).toEqual({});
      expect(session.isSubscribed('weather://forecast/Lisbon')).toBe(false);
      notify.mockClear();
      await client.callTool({ name: 'refresh_forecasts', arguments: {} });

      expect(notify.mock.results.map((result) => result.value)).toEqual([0, 1, 0, 0, 0, 0, 0, 0]);
      // Lisbon is refreshed before Oslo, on the same stream: by the time Oslo's update is here, Lisbon's would be too.
      await until(() => updated.length >= 3, "Oslo's second resources/updated notification", 5000);
      expect(updated).toEqual(['weather://forecast/Lisbon', 'weather://forecast/Oslo', 'weather://forecast/Oslo']);
    }, 30_000);

    it('tells only the subscribed session: another client connected alongside hears nothing', async () => {
      const heard = { subscriber: [] as string[], bystander: [] as string[] };
      const listen = (list: string[]) => (c: Client) =>
        c.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
          list.push(notification.params.uri);
        });
      const subscriber = await connect(listen(heard.subscriber));
      const bystander = await connect(listen(heard.bystander));
      await subscriber.client.subscribeResource({ uri: 'weather://forecast/Sydney' });
      await until(() => subscriber.session.hasStream && bystander.session.hasStream, 'both GET streams', 5000);
      const notify = jest.spyOn(serverInstance(running.app, 'mcp42-sample', McpResourceRegistry), 'notifyUpdated');

      await subscriber.client.callTool({ name: 'refresh_forecasts', arguments: {} });

      expect(notify.mock.results.map((result) => result.value)).toEqual([0, 0, 0, 0, 0, 0, 0, 1]);
      await until(() => heard.subscriber.length >= 1, "Sydney's resources/updated notification", 5000);
      expect(heard.subscriber).toEqual(['weather://forecast/Sydney']);
      expect(bystander.session.isSubscribed('weather://forecast/Sydney')).toBe(false);
      expect(heard.bystander).toEqual([]);
    }, 30_000);

    it('refuses with -32002 a subscription to a URI nothing serves', async () => {
      const { client, session } = await connect();

      expect(await rpcError(client.subscribeResource({ uri: 'weather://radar/Lisbon' }))).toEqual({
        code: -32002,
        message: 'MCP error -32002: Resource not found',
        data: { uri: 'weather://radar/Lisbon' },
      });
      expect(session.subscriptionCount).toBe(0);
    });
  });
});
