/**
 * The sample app through the official MCP SDK v2 client (`@modelcontextprotocol/client`) speaking
 * the stateless 2026-07-28 revision (`versionNegotiation: { mode: 'auto' }`): discovery without a
 * session, tools, resources, the prompt and completions; the admin purge confirmed through an MRTR
 * input round the client answers with its `elicitation/create` handler; `subscriptions/listen`;
 * progress and cancellation of a long call. Then 2025 clients (SDK v1, and the v2 client in its
 * default mode) against the same running app, still on sessions.
 */
import { jest } from '@jest/globals';
import {
  ProtocolError,
  ResourceNotFoundError,
  SdkError,
  SdkErrorCode,
  type Client as ModernClient,
  type ElicitRequest,
  type ElicitResult,
  type Progress,
} from '@modelcontextprotocol/client';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  type ElicitRequest as LegacyElicitRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { AppModule } from '../../../sample-app/app.module.js';
import { WeatherService } from '../../../sample-app/weather.service.js';
import { McpCallAbortedError, McpToolRegistry } from '../../../src/index.js';
import {
  CLEAR_FORECAST_CACHE_TOOL_DEFINITION,
  ECHO_TOOL_DEFINITION,
  REFRESH_FORECASTS_TOOL_DEFINITION,
  SAMPLE_ADMIN_TOOL_NAMES,
  SAMPLE_TOOL_NAMES,
  WEATHER_FORECAST_TOOL_DEFINITION,
  WEATHER_SUMMARY_TOOL_DEFINITION,
} from '../../fixtures/sample-tool-definitions.js';
import { SessionStore } from '../../internals/index.js';
import { serverInstance } from '../../utils/server-instance.js';
import {
  rpcMethodOf,
  useModernSdkClients,
  type ModernConnectOptions,
  type ModernSdkConnection,
} from '../../utils/modern-sdk-clients.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { thrown } from '../../utils/thrown.js';
import { onlyText } from '../../utils/tool-results.js';
import { delay, until } from '../../utils/wait.js';

const READER_TOKEN = 'reader';
const ADMIN_TOKEN = 'admin';
const MODERN = '2026-07-28';
const SERVER_INFO = { name: 'mcp42-sample', title: 'mcp42 sample: echo and weather', version: '1.0.0' };
const CITIES = ['Lisbon', 'Oslo', 'Nairobi', 'Lima', 'Osaka', 'Toronto', 'Cairo', 'Sydney'];
const CONFIRM_SCHEMA = {
  type: 'object',
  properties: { confirm: { type: 'boolean', title: 'Yes, delete them', default: false } },
  required: ['confirm'],
};
/** The key mcp42 gives the first unanswered elicitation of a call (no `options.key` in the sample). */
const ELICITATION_KEY = 'elicitation-1';

describe('the sample app through the official SDK v2 client on 2026-07-28, and 2025 clients beside it (e2e)', () => {
  let running: RunningApp;
  let weather: WeatherService;
  const modern = useModernSdkClients();
  // Sessions ended, not just left: one left open would still be subscribed in the next test.
  const legacy = useSdkClients({ terminate: true });

  beforeAll(async () => {
    running = await startApp(AppModule.register({ bearerToken: READER_TOKEN, adminToken: ADMIN_TOKEN }));
    weather = running.app.get(WeatherService);
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

  /** A v2 client with `token`; unless told otherwise, it negotiates 'auto' and must have got 2026-07-28. */
  async function connectModern(token: string, options: ModernConnectOptions = {}): Promise<ModernSdkConnection> {
    const connection = await modern.connect(running.mcpUrl, {
      info: { name: 'sample-modern-e2e', version: '2.0.0' },
      headers: { Authorization: `Bearer ${token}` },
      ...options,
    });
    if (options.negotiation === undefined) expect(connection.client.getProtocolEra()).toBe('modern');
    return connection;
  }

  /** Fills the cache with the first `count` cities, as finished refreshes would. */
  async function cacheCities(count: number): Promise<void> {
    const signal = new AbortController().signal;
    for (const city of weather.cities.slice(0, count)) await weather.refresh(city, 0, signal);
    expect(weather.cached).toBe(count);
  }

  describe('negotiation', () => {
    it('picks 2026-07-28 from server/discover: no initialize, no session, the server named by discover', async () => {
      const { client, transport, exchanges } = await connectModern(READER_TOKEN);

      expect(client.getProtocolEra()).toBe('modern');
      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(transport.sessionId).toBeUndefined();
      // Identity comes only from the discover result's _meta serverInfo.
      expect(client.getServerVersion()).toEqual(SERVER_INFO);
      const discovered = client.getDiscoverResult()!;
      expect(discovered.supportedVersions).toEqual([
        MODERN,
        '2025-11-25',
        '2025-06-18',
        '2025-03-26',
        '2024-11-05',
        '2024-10-07',
      ]);
      expect(discovered.capabilities).toEqual({
        logging: {},
        completions: {},
        prompts: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        tools: { listChanged: true },
        // refresh_forecasts may run as a task.
        extensions: { 'io.modelcontextprotocol/tasks': {} },
      });
      expect(discovered.instructions).toMatch(/^Use weather_forecast or weather_summary/);

      await client.callTool({ name: 'echo', arguments: { text: 'after discover' } });
      expect(exchanges.map((exchange) => [exchange.httpMethod, rpcMethodOf(exchange), exchange.status])).toEqual([
        ['POST', 'server/discover', 200],
        ['POST', 'tools/call', 200],
      ]);
      for (const { headers, body } of exchanges) {
        expect(headers['mcp-session-id']).toBeUndefined();
        expect(headers['mcp-protocol-version']).toBe(MODERN);
        expect((body as { params: { _meta: Record<string, unknown> } }).params._meta).toMatchObject({
          'io.modelcontextprotocol/protocolVersion': MODERN,
          'io.modelcontextprotocol/clientInfo': { name: 'sample-modern-e2e', version: '2.0.0' },
        });
      }
      expect(exchanges[0]!.response).toMatchObject({
        id: 'server-discover-probe-1',
        result: { resultType: 'complete', _meta: { 'io.modelcontextprotocol/serverInfo': SERVER_INFO } },
      });
    });

    it('also connects when the client pins 2026-07-28 (no fallback allowed)', async () => {
      const { client, transport } = await connectModern(READER_TOKEN, { negotiation: { pin: MODERN } });

      expect(client.getNegotiatedProtocolVersion()).toBe(MODERN);
      expect(transport.sessionId).toBeUndefined();
      expect(onlyText(await client.callTool({ name: 'echo', arguments: { text: 'pinned' } }))).toBe('pinned');
    });
  });

  describe('tools', () => {
    it('lists the sample tools by scope with the definitions a 2025 client sees', async () => {
      const reader = await connectModern(READER_TOKEN);
      const { tools } = await reader.client.listTools();
      const byName = new Map(tools.map((tool) => [tool.name, tool]));

      expect([...byName.keys()].sort()).toEqual(SAMPLE_TOOL_NAMES);
      expect(byName.get('echo')).toEqual(ECHO_TOOL_DEFINITION);
      expect(byName.get('weather_forecast')).toEqual(WEATHER_FORECAST_TOOL_DEFINITION);
      expect(byName.get('weather_summary')).toEqual(WEATHER_SUMMARY_TOOL_DEFINITION);
      // The SDK v2 client's 2026-07-28 Tool has no `execution`: it keeps the rest of the definition.
      const { execution: _taskSupport, ...refreshForecasts } = REFRESH_FORECASTS_TOOL_DEFINITION;
      expect(byName.get('refresh_forecasts')).toEqual(refreshForecasts);
      expect(reader.posts('tools/list')[0]!.response).toMatchObject({
        result: { tools: expect.arrayContaining([REFRESH_FORECASTS_TOOL_DEFINITION]) },
      });
      // A list result carries the caching hints the revision requires.
      expect(reader.posts('tools/list')[0]!.response).toMatchObject({ result: { ttlMs: 0, cacheScope: 'private' } });

      const admin = await connectModern(ADMIN_TOKEN);
      const adminTools = (await admin.client.listTools()).tools;
      expect(adminTools.map((tool) => tool.name).sort()).toEqual(SAMPLE_ADMIN_TOOL_NAMES);
      const { execution: _clearTaskSupport, ...clearForecastCache } = CLEAR_FORECAST_CACHE_TOOL_DEFINITION;
      expect(adminTools.find((tool) => tool.name === 'clear_forecast_cache')).toEqual(clearForecastCache);
    });

    it('calls echo, with Mcp-Method and Mcp-Name mirrored in headers', async () => {
      const { client, posts } = await connectModern(READER_TOKEN);
      const result = await client.callTool({ name: 'echo', arguments: { text: 'stateless ✓' } });

      expect(result.isError).toBeFalsy();
      expect(result.content).toEqual([{ type: 'text', text: 'stateless ✓' }]);
      const [call] = posts('tools/call');
      expect(call!.headers).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'echo' });
      expect(call!.response).toMatchObject({ result: { resultType: 'complete' } });
    });

    it('returns structured output the client validated against the listed outputSchema', async () => {
      const { client } = await connectModern(READER_TOKEN);
      // The v2 client validates structuredContent only for tools it has listed (cached tools/list).
      await client.listTools();
      const result = await client.callTool({ name: 'weather_summary', arguments: { city: 'Oslo' } });

      expect(result.isError).toBeFalsy();
      expect(result.structuredContent).toMatchObject({ city: 'Oslo', units: 'metric', days: 3 });
      expect(JSON.parse(onlyText(result))).toEqual(result.structuredContent);
    });

    it('answers arguments the input DTO refuses with an isError result, not a JSON-RPC error', async () => {
      const { client } = await connectModern(READER_TOKEN);
      const result = await client.callTool({ name: 'weather_forecast', arguments: { city: 42 } });

      expect(result.isError).toBe(true);
      expect(onlyText(result)).toBe(
        'Invalid arguments for tool weather_forecast:\n' +
          '- city: city must be longer than or equal to 1 and shorter than or equal to 100 characters\n' +
          '- city: city must be a string',
      );
    });

    it('answers the reader token calling clear_forecast_cache as an unknown tool (-32602 on 2026-07-28), deleting nothing', async () => {
      await cacheCities(2);
      const { client, posts } = await connectModern(READER_TOKEN, { capabilities: { elicitation: { form: {} } } });
      const error = await thrown(client.callTool({ name: 'clear_forecast_cache', arguments: {} }));

      // A 2025 session gets an isError result instead; this revision prescribes the protocol error.
      expect(error).toBeInstanceOf(ProtocolError);
      expect(error).toMatchObject({ code: -32602, message: 'Invalid params: Unknown tool: clear_forecast_cache' });
      expect(posts('tools/call')).toHaveLength(1);
      expect(weather.cached).toBe(2);
    });
  });

  describe('resources, the prompt and completion', () => {
    it('lists the cities resource and the forecast template, and reads both', async () => {
      const { client } = await connectModern(READER_TOKEN);

      expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['weather://cities']);
      expect((await client.listResourceTemplates()).resourceTemplates.map((template) => template.uriTemplate)).toEqual([
        'weather://forecast/{city}',
      ]);
      const cities = await client.readResource({ uri: 'weather://cities' });
      expect(cities.contents).toEqual([
        { uri: 'weather://cities', mimeType: 'application/json', text: JSON.stringify(CITIES) },
      ]);
      const forecast = await client.readResource({ uri: 'weather://forecast/Oslo' });
      expect(forecast.contents).toHaveLength(1);
      expect(JSON.parse((forecast.contents[0] as { text: string }).text)).toMatchObject({
        city: 'Oslo',
        units: 'metric',
        refreshedAt: null,
      });
    });

    it.each([
      ['a city the service does not know', 'weather://forecast/Atlantis'],
      ['a URI nothing serves', 'weather://radar/Lisbon'],
    ])("answers %s with -32602 and data {uri}: the client's ResourceNotFoundError", async (_label, uri) => {
      const { client, posts } = await connectModern(READER_TOKEN);
      const error = await thrown(client.readResource({ uri }));

      expect(error).toBeInstanceOf(ResourceNotFoundError);
      expect(error).toMatchObject({ code: -32602, data: { uri } });
      // In-band: the request was served, the resource was missing (-32002 on 2025 sessions).
      const [read] = posts('resources/read');
      expect(read!.status).toBe(200);
      expect(read!.response).toMatchObject({ error: { code: -32602, data: { uri } } });
    });

    it('gets the forecast_summary prompt, which embeds the forecast exactly as a read gives it', async () => {
      const { client } = await connectModern(READER_TOKEN);
      const read = await client.readResource({ uri: 'weather://forecast/Lisbon' });
      const prompt = await client.getPrompt({ name: 'forecast_summary', arguments: { city: 'Lisbon' } });

      expect(prompt.messages).toEqual([
        {
          role: 'user',
          content: {
            type: 'resource',
            resource: {
              uri: 'weather://forecast/Lisbon',
              mimeType: 'application/json',
              text: (read.contents[0] as { text: string }).text,
            },
          },
        },
        {
          role: 'user',
          content: {
            type: 'text',
            text: 'Summarise the weather in Lisbon over the next days in one or two sentences, for a traveller.',
          },
        },
      ]);
    });

    it('completes a city of the prompt and of the template by prefix', async () => {
      const { client } = await connectModern(READER_TOKEN);

      const prompt = await client.complete({
        ref: { type: 'ref/prompt', name: 'forecast_summary' },
        argument: { name: 'city', value: 'os' },
      });
      expect(prompt.completion).toEqual({ values: ['Oslo', 'Osaka'], total: 2, hasMore: false });
      const template = await client.complete({
        ref: { type: 'ref/resource', uri: 'weather://forecast/{city}' },
        argument: { name: 'city', value: 'L' },
      });
      expect(template.completion).toEqual({ values: ['Lisbon', 'Lima'], total: 2, hasMore: false });
    });
  });

  describe('clear_forecast_cache: the confirmation as an input_required round (MRTR)', () => {
    /** An admin v2 client whose elicitation handler answers `answer`, noting what it was asked and under which key. */
    async function adminAnswering(
      answer: ElicitResult,
    ): Promise<ModernSdkConnection & { asked: { key: unknown; params: ElicitRequest['params'] }[] }> {
      const asked: { key: unknown; params: ElicitRequest['params'] }[] = [];
      const connection = await connectModern(ADMIN_TOKEN, {
        capabilities: { elicitation: { form: {} } },
        prepare: (client: ModernClient) =>
          client.setRequestHandler('elicitation/create', (request, ctx) => {
            asked.push({ key: ctx.mcpReq.id, params: request.params });
            return answer;
          }),
      });
      return { ...connection, asked };
    }

    it('asks through the elicitation handler and deletes once the user accepts: two POSTs, state carried back', async () => {
      await cacheCities(3);
      const { client, posts, asked } = await adminAnswering({ action: 'accept', content: { confirm: true } });
      const result = await client.callTool({ name: 'clear_forecast_cache', arguments: {} });

      expect(result.isError).toBeFalsy();
      expect(onlyText(result)).toBe('Deleted 3 cached forecast(s)');
      expect(weather.cached).toBe(0);
      expect(asked).toEqual([
        { key: ELICITATION_KEY, params: { message: 'Delete 3 cached forecast(s)?', requestedSchema: CONFIRM_SCHEMA } },
      ]);

      const [first, retry, ...more] = posts('tools/call');
      expect(more).toEqual([]);
      const round = (first!.response as { result: Record<string, unknown> }).result;
      expect(round).toMatchObject({
        resultType: 'input_required',
        inputRequests: {
          [ELICITATION_KEY]: {
            method: 'elicitation/create',
            params: { message: 'Delete 3 cached forecast(s)?', requestedSchema: CONFIRM_SCHEMA },
          },
        },
      });
      expect(typeof round.requestState).toBe('string');
      expect(retry!.headers).toMatchObject({ 'mcp-method': 'tools/call', 'mcp-name': 'clear_forecast_cache' });
      expect((retry!.body as { params: object }).params).toMatchObject({
        name: 'clear_forecast_cache',
        arguments: {},
        inputResponses: { [ELICITATION_KEY]: { action: 'accept', content: { confirm: true } } },
        requestState: round.requestState,
      });
      expect(retry!.response).toMatchObject({ result: { resultType: 'complete' } });
    });

    it.each<[string, ElicitResult]>([
      ['declines', { action: 'decline' }],
      ['accepts without confirming', { action: 'accept', content: { confirm: false } }],
    ])('deletes nothing when the user %s', async (_label, answer) => {
      await cacheCities(2);
      const { client, posts, asked } = await adminAnswering(answer);
      const result = await client.callTool({ name: 'clear_forecast_cache', arguments: {} });

      expect(result.isError).toBeFalsy();
      expect(onlyText(result)).toBe('Nothing was deleted');
      expect(asked).toHaveLength(1);
      expect(weather.cached).toBe(2);
      const calls = posts('tools/call');
      expect(calls).toHaveLength(2);
      expect((calls[1]!.body as { params: { inputResponses: unknown } }).params.inputResponses).toEqual({
        [ELICITATION_KEY]: answer,
      });
    });

    it('tells an admin client without the elicitation capability that it cannot confirm, in one POST', async () => {
      await cacheCities(2);
      const { client, posts } = await connectModern(ADMIN_TOKEN);
      const result = await client.callTool({ name: 'clear_forecast_cache', arguments: {} });

      expect(result.isError).toBe(true);
      expect(onlyText(result)).toBe(
        'This client cannot ask the user for confirmation (no elicitation); nothing was deleted',
      );
      expect(posts('tools/call')).toHaveLength(1);
      expect(weather.cached).toBe(2);
    });
  });

  describe('subscriptions/listen', () => {
    it('hears the updates of the subscribed forecasts after refresh_forecasts, then a tools list_changed, then nothing once closed', async () => {
      const heard: { method: string; params: Record<string, unknown> }[] = [];
      const { client } = await connectModern(READER_TOKEN, {
        prepare: (c: ModernClient) => {
          c.setNotificationHandler('notifications/resources/updated', (notification) => {
            heard.push({ method: notification.method, params: notification.params });
          });
          c.setNotificationHandler('notifications/tools/list_changed', (notification) => {
            heard.push({ method: notification.method, params: notification.params ?? {} });
          });
        },
      });
      const subscription = await client.listen({
        toolsListChanged: true,
        resourceSubscriptions: ['weather://forecast/Oslo', 'weather://forecast/Cairo'],
      });
      expect(subscription.honoredFilter).toEqual({
        toolsListChanged: true,
        resourceSubscriptions: ['weather://forecast/Oslo', 'weather://forecast/Cairo'],
      });
      const tag = { 'io.modelcontextprotocol/subscriptionId': 'listen:0' };

      expect(onlyText(await client.callTool({ name: 'refresh_forecasts', arguments: {} }))).toBe(
        'Refreshed 8 forecasts',
      );
      // A change published after every refresh: once it is here, on the same stream, every update is too.
      const tools = serverInstance(running.app, 'mcp42-sample', McpToolRegistry);
      tools.add({ name: 'listen_probe', description: 'Added to trigger tools/list_changed' }, () => 'probe');
      try {
        await until(
          () => heard.some((n) => n.method === 'notifications/tools/list_changed'),
          'tools/list_changed',
          5000,
        );
        expect(heard).toEqual([
          { method: 'notifications/resources/updated', params: { uri: 'weather://forecast/Oslo', _meta: tag } },
          { method: 'notifications/resources/updated', params: { uri: 'weather://forecast/Cairo', _meta: tag } },
          { method: 'notifications/tools/list_changed', params: { _meta: tag } },
        ]);

        await subscription.close();
        expect(await subscription.closed).toBe('local');
        heard.length = 0;
      } finally {
        tools.remove('listen_probe');
      }
      await weather.refresh('Oslo', 0, new AbortController().signal);
      // A fixed wait on purpose: the closed subscription must hear NOTHING.
      await delay(200);
      expect(heard).toEqual([]);
    });

    it('leaves a resource nothing serves out of the honoured filter', async () => {
      const { client } = await connectModern(READER_TOKEN);
      const subscription = await client.listen({
        resourceSubscriptions: ['weather://forecast/Lima', 'weather://radar/Lima'],
      });

      expect(subscription.honoredFilter).toEqual({ resourceSubscriptions: ['weather://forecast/Lima'] });
      await subscription.close();
    });
  });

  describe('refresh_forecasts: progress and cancellation without a session', () => {
    it("reports progress 0..8 of 8 to the client's progress callback, on the POST's own SSE stream", async () => {
      const { client, posts } = await connectModern(READER_TOKEN);
      const seen: Progress[] = [];
      const result = await client.callTool(
        { name: 'refresh_forecasts', arguments: {} },
        { onprogress: (progress) => seen.push(progress) },
      );

      expect(onlyText(result)).toBe('Refreshed 8 forecasts');
      expect(seen).toEqual([
        ...CITIES.map((city, index) => ({ progress: index, total: 8, message: `Refreshing ${city}` })),
        { progress: 8, total: 8, message: 'Done' },
      ]);
      expect(weather.cached).toBe(8);
      const [call] = posts('tools/call');
      expect(call!.contentType).toMatch(/^text\/event-stream/);
      expect(
        (call!.body as { params: { _meta: { progressToken?: unknown } } }).params._meta.progressToken,
      ).toBeDefined();
    });

    it('sends log messages only when the request asks for them with a logLevel in _meta', async () => {
      const logs: unknown[] = [];
      const { client } = await connectModern(READER_TOKEN, {
        prepare: (c: ModernClient) =>
          c.setNotificationHandler('notifications/message', (notification) => {
            logs.push(notification.params);
          }),
      });
      await client.callTool({ name: 'refresh_forecasts', arguments: {} });
      expect(logs).toEqual([]);

      await client.callTool({
        name: 'refresh_forecasts',
        arguments: {},
        _meta: { 'io.modelcontextprotocol/logLevel': 'info' },
      });
      expect(logs).toEqual([{ level: 'info', data: 'Refreshing 8 cities' }]);
    });

    it('stops when the caller aborts midway: the response closes, the refresh in flight is interrupted', async () => {
      const refresh = jest.spyOn(weather, 'refresh');
      const { client, exchanges } = await connectModern(READER_TOKEN);
      const controller = new AbortController();
      const seen: number[] = [];
      const calling = client.callTool(
        { name: 'refresh_forecasts', arguments: {} },
        {
          signal: controller.signal,
          onprogress: ({ progress }) => {
            seen.push(progress);
            // From outside the callback, as a stop button would: the v2 client (2.4, Node 20), aborted
            // synchronously inside its progress callback, often closes the stream only when the next event arrives.
            if (progress === 2) setTimeout(() => controller.abort('the user pressed stop'), 0);
          },
        },
      );

      const error = await thrown(calling);
      expect(error).toBeInstanceOf(SdkError);
      expect(error).toMatchObject({ code: SdkErrorCode.RequestTimeout, message: 'the user pressed stop' });
      expect(seen).toEqual([0, 1, 2]);
      // Closing the response is the whole cancellation on this revision: no notifications/cancelled is posted.
      expect(exchanges.map(rpcMethodOf)).toEqual(['server/discover', 'tools/call']);

      await until(() => refresh.mock.results.length > 0, 'a refresh');
      const started = refresh.mock.results.length;
      const interrupted = refresh.mock.results[started - 1]!.value as Promise<void>;
      await expect(interrupted).rejects.toBeInstanceOf(McpCallAbortedError);
      await expect(interrupted).rejects.toHaveProperty('kind', 'cancelled');
      // A fixed wait on purpose: nothing may run after the interrupted refresh.
      await delay(300);
      // Nothing ran after the interrupted refresh: the loop stopped there.
      expect(refresh).toHaveBeenCalledTimes(started);
      expect(weather.cached).toBe(started - 1);
      expect(weather.cached).toBeGreaterThanOrEqual(2);
      expect(weather.cached).toBeLessThan(8);

      const after = await client.callTool({ name: 'weather_forecast', arguments: { city: 'Lima' } });
      expect(onlyText(after)).toMatch(/^Forecast for Lima:\nDay 1: /);
    });
  });

  describe('2025 clients against the same running app', () => {
    it('gives the SDK v1 client a 2025-11-25 session with tools, resources, a subscription and elicitation as before', async () => {
      await cacheCities(2);
      const updated: string[] = [];
      const asked: LegacyElicitRequest['params'][] = [];
      const { client, transport } = await legacy.connect(running.mcpUrl, {
        info: { name: 'sample-v1-beside-v2', version: '1.0.0' },
        headers: { Authorization: `Bearer ${ADMIN_TOKEN}` },
        capabilities: { elicitation: {} },
        prepare: (c: Client) => {
          c.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
            updated.push(notification.params.uri);
          });
          c.setRequestHandler(ElicitRequestSchema, (request) => {
            asked.push(request.params);
            return { action: 'accept', content: { confirm: true } };
          });
        },
      });

      expect(transport.protocolVersion).toBe('2025-11-25');
      const session = serverInstance(running.app, 'mcp42-sample', SessionStore).get(transport.sessionId!);
      expect(session).toBeDefined();
      expect(client.getServerVersion()).toEqual(SERVER_INFO);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(SAMPLE_ADMIN_TOOL_NAMES);
      expect((await client.readResource({ uri: 'weather://cities' })).contents).toHaveLength(1);
      // A miss is still -32002 on 2025 (the modern era answers -32602).
      await expect(client.readResource({ uri: 'weather://forecast/Atlantis' })).rejects.toMatchObject({ code: -32002 });

      // A modern listener on the same app hears the same refresh as the 2025 subscriber.
      const modernHeard: string[] = [];
      const listener = await connectModern(READER_TOKEN, {
        prepare: (c: ModernClient) =>
          c.setNotificationHandler('notifications/resources/updated', (notification) => {
            modernHeard.push(notification.params.uri);
          }),
      });
      await listener.client.listen({ resourceSubscriptions: ['weather://forecast/Lima'] });
      await client.subscribeResource({ uri: 'weather://forecast/Lima' });
      await until(() => session!.hasStream, 'the GET stream of the SDK v1 client', 5000);
      expect(onlyText(await client.callTool({ name: 'refresh_forecasts', arguments: {} }))).toBe(
        'Refreshed 8 forecasts',
      );
      await until(() => updated.length >= 1 && modernHeard.length >= 1, 'both updates of Lima', 5000);
      expect(updated).toEqual(['weather://forecast/Lima']);
      expect(modernHeard).toEqual(['weather://forecast/Lima']);

      // Elicitation is a request to the client on the session, not an input round.
      const cleared = await client.callTool({ name: 'clear_forecast_cache', arguments: {} });
      expect(onlyText(cleared)).toBe('Deleted 8 cached forecast(s)');
      expect(asked).toEqual([{ message: 'Delete 8 cached forecast(s)?', requestedSchema: CONFIRM_SCHEMA }]);
      expect(weather.cached).toBe(0);
    });

    it('gives the v2 client left in its default (legacy) mode a 2025-11-25 session too', async () => {
      const { client, transport, exchanges } = await connectModern(READER_TOKEN, { negotiation: 'legacy' });

      expect(client.getProtocolEra()).toBe('legacy');
      expect(client.getNegotiatedProtocolVersion()).toBe('2025-11-25');
      expect(typeof transport.sessionId).toBe('string');
      expect(serverInstance(running.app, 'mcp42-sample', SessionStore).get(transport.sessionId!)).toBeDefined();
      expect(exchanges.map(rpcMethodOf)[0]).toBe('initialize');
      expect(onlyText(await client.callTool({ name: 'echo', arguments: { text: 'legacy v2' } }))).toBe('legacy v2');
      await transport.terminateSession();
    });
  });
});
