/**
 * Interoperability with the official MCP TypeScript SDK: its `Client` over `StreamableHTTPClientTransport`
 * talks to the sample application over real HTTP, exactly as an MCP host would.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { TransportSendOptions } from '@modelcontextprotocol/sdk/shared/transport.js';
import { AppModule } from '../../../sample-app/app.module.js';
import {
  ECHO_TOOL_DEFINITION,
  REFRESH_FORECASTS_TOOL_DEFINITION,
  SAMPLE_OPEN_TOOL_NAMES,
  WEATHER_FORECAST_TOOL_DEFINITION,
  WEATHER_SUMMARY_TOOL_DEFINITION,
} from '../../fixtures/sample-tool-definitions.js';
import { MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';
import { onlyText } from '../../utils/tool-results.js';
import { useSdkClients, type SdkConnection } from '../../utils/sdk-clients.js';

const CLIENT_INFO = { name: 'sdk-e2e-client', version: '1.2.3' };
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** A transport that asks for a chosen protocol version in `initialize` (the SDK always asks for its latest). */
class VersionedTransport extends StreamableHTTPClientTransport {
  constructor(
    url: URL,
    private readonly requestedVersion: string,
  ) {
    super(url);
  }

  override send(message: JSONRPCMessage, options?: TransportSendOptions): Promise<void> {
    if ('method' in message && message.method === 'initialize' && 'id' in message) {
      const params = { ...message.params, protocolVersion: this.requestedVersion };
      return super.send({ ...message, params }, options);
    }
    return super.send(message, options);
  }
}

describe('official MCP SDK client against the sample app', () => {
  let running: RunningApp;
  const sdk = useSdkClients();

  const connect = (transport?: StreamableHTTPClientTransport): Promise<SdkConnection> =>
    sdk.connect(running.mcpUrl, { info: CLIENT_INFO, transport });

  beforeAll(async () => {
    running = await startApp(AppModule.register());
  });

  afterAll(async () => {
    await running.close();
  });

  test('connects: server info, capabilities, instructions, session id and the latest protocol version', async () => {
    const { client, transport } = await connect();

    expect(client.getServerVersion()).toEqual({
      name: 'mcp42-sample',
      version: '1.0.0',
      title: 'mcp42 sample: echo and weather',
    });
    expect(client.getServerCapabilities()).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    });
    expect(client.getInstructions()).toBe(
      'Use weather_forecast or weather_summary for weather questions; echo returns its input unchanged.',
    );
    expect(transport.sessionId).toMatch(UUID);
    expect(transport.protocolVersion).toBe('2025-11-25');
  });

  test('two clients get two different sessions', async () => {
    const a = await connect();
    const b = await connect();
    expect(a.transport.sessionId).toMatch(UUID);
    expect(b.transport.sessionId).toMatch(UUID);
    expect(a.transport.sessionId).not.toBe(b.transport.sessionId);
  });

  test('lists the sample tools with exactly the advertised schemas and annotations, the admin one hidden', async () => {
    const { client } = await connect();
    const { tools, nextCursor } = await client.listTools();

    expect(nextCursor).toBeUndefined();
    // Without a token nobody holds the weather:admin scope, so clear_forecast_cache is not listed.
    expect(tools.map((tool) => tool.name).sort()).toEqual(SAMPLE_OPEN_TOOL_NAMES);
    const byName = new Map(tools.map((tool) => [tool.name, tool]));

    expect(byName.get('echo')).toEqual(ECHO_TOOL_DEFINITION);
    expect(byName.get('weather_forecast')).toEqual(WEATHER_FORECAST_TOOL_DEFINITION);
    expect(byName.get('weather_summary')).toEqual(WEATHER_SUMMARY_TOOL_DEFINITION);
    expect(byName.get('refresh_forecasts')).toEqual(REFRESH_FORECASTS_TOOL_DEFINITION);
  });

  test.each([
    ['emoji (ZWJ sequences, skin tones, flags)', '👩🏽‍💻 🏳️‍🌈 🇵🇹 👨‍👩‍👧‍👦 😀'],
    ['CJK and Hangul', '漢字 かな カナ 한국어 中文测试'],
    ['combining characters (NFD, must not be normalised)', 'e\u0301 a\u0308 n\u0303 Z\u0335\u0321\u031b'],
    ['right-to-left scripts with direction marks', 'שלום עולם \u200fمرحبا بالعالم\u200e!'],
    ['astral plane letters and symbols', '𝔘𝔫𝔦𝔠𝔬𝔡𝔢 𝄞 𠜎𠜱'],
    ['JSON-sensitive characters', 'quotes " and \\ backslash\n\ttab \u2028\u2029 \u0000 </script>'],
  ])('echo returns %s unchanged', async (_label, text) => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'echo', arguments: { text } });

    expect(result.isError).toBeFalsy();
    expect(result.content).toEqual([{ type: 'text', text }]);
  });

  test('echo returns a large multi-byte text unchanged (body split across many TCP chunks)', async () => {
    const { client } = await connect();
    const text = '👩🏽‍💻漢字e\u0301שלום'.repeat(20_000);
    const result = await client.callTool({ name: 'echo', arguments: { text } });

    expect(result.isError).toBeFalsy();
    expect(onlyText(result)).toBe(text);
  });

  test('concurrent calls on one session each get their own result', async () => {
    const { client } = await connect();
    const inputs = Array.from({ length: 25 }, (_, i) => `call #${i} ✓`);
    const results = await Promise.all(inputs.map((text) => client.callTool({ name: 'echo', arguments: { text } })));
    expect(results.map(onlyText)).toEqual(inputs);
  });

  test('weather_forecast answers with deterministic validated data', async () => {
    const { client } = await connect();
    const args = { city: 'Lisbon', days: 3, units: 'imperial' };
    const first = await client.callTool({ name: 'weather_forecast', arguments: args });
    const second = await client.callTool({ name: 'weather_forecast', arguments: args });

    expect(first.isError).toBeFalsy();
    const lines = onlyText(first).split('\n');
    expect(lines[0]).toBe('Forecast for Lisbon:');
    expect(lines.slice(1)).toHaveLength(3);
    for (const [i, line] of lines.slice(1).entries()) {
      expect(line).toMatch(new RegExp(`^Day ${i + 1}: [a-z ]+, high -?\\d+°F, low -?\\d+°F$`));
    }
    expect(second).toEqual(first);

    const defaults = await client.callTool({ name: 'weather_forecast', arguments: { city: 'Lisbon' } });
    const defaultLines = onlyText(defaults).split('\n');
    expect(defaultLines).toHaveLength(2);
    expect(defaultLines[1]).toMatch(/^Day 1: .*°C, low -?\d+°C$/);
  });

  test('a validation failure is an isError result naming each failing property and constraint', async () => {
    const { client } = await connect();
    const result = await client.callTool({
      name: 'weather_forecast',
      arguments: { city: '', days: 9, units: 'kelvin' },
    });

    expect(result.isError).toBe(true);
    const text = onlyText(result);
    expect(text).toContain('weather_forecast');
    const problems = text.split('\n').filter((line) => line.startsWith('- '));
    expect(problems).toHaveLength(3);
    expect(problems).toEqual(
      expect.arrayContaining([
        expect.stringMatching(/^- city: .*longer than or equal to 1 /),
        expect.stringMatching(/^- days: .*not be greater than 7/),
        expect.stringMatching(/^- units: .*one of the following values: metric, imperial/),
      ]),
    );
  });

  test('type errors name the property and the expected type', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'weather_forecast', arguments: { city: 42, days: 2.5 } });

    expect(result.isError).toBe(true);
    const text = onlyText(result);
    expect(text).toMatch(/^- city: city must be a string$/m);
    expect(text).toMatch(/^- days: days must be an integer number$/m);
  });

  test('a missing required property and an empty echo text are reported', async () => {
    const { client } = await connect();

    const missing = await client.callTool({ name: 'weather_forecast', arguments: {} });
    expect(missing.isError).toBe(true);
    expect(onlyText(missing)).toMatch(/^- city: /m);

    const empty = await client.callTool({ name: 'echo', arguments: { text: '' } });
    expect(empty.isError).toBe(true);
    expect(onlyText(empty)).toMatch(/^- text: text should not be empty$/m);
  });

  test('an unknown property is rejected, and the tool does not run', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'echo', arguments: { text: 'hello', shout: true } });

    expect(result.isError).toBe(true);
    const text = onlyText(result);
    expect(text).toMatch(/^- shout: property shout should not exist$/m);
    expect(text).not.toBe('hello');
  });

  test('an unknown tool is an isError result, not a thrown error', async () => {
    const { client } = await connect();
    const result = await client.callTool({ name: 'no_such_tool', arguments: {} });

    expect(result.isError).toBe(true);
    expect(onlyText(result)).toContain('no_such_tool');
    // The session still works afterwards.
    expect(onlyText(await client.callTool({ name: 'echo', arguments: { text: 'still here' } }))).toBe('still here');
  });

  test('ping answers an empty result', async () => {
    const { client } = await connect();
    await expect(client.ping()).resolves.toEqual({});
  });

  test('terminateSession() ends the session: the old id then gets 404', async () => {
    const { client, transport } = await connect();
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(UUID);
    await client.listTools();

    await transport.terminateSession();
    expect(transport.sessionId).toBeUndefined();

    const response = await fetch(running.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
    });
    expect(response.status).toBe(404);
    await response.body?.cancel();

    const deleteAgain = await fetch(running.mcpUrl, { method: 'DELETE', headers: { 'mcp-session-id': sessionId } });
    expect(deleteAgain.status).toBe(404);
    await deleteAgain.body?.cancel();

    // The client has forgotten its session id; the server refuses a session-less non-initialize request.
    await expect(client.listTools()).rejects.toThrow();
  });

  test.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'])(
    'an SDK client requesting protocol version %s gets it and can call tools',
    async (version) => {
      const { client, transport } = await connect(new VersionedTransport(new URL(running.mcpUrl), version));

      expect(transport.protocolVersion).toBe(version);
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name).sort()).toEqual(SAMPLE_OPEN_TOOL_NAMES);
      const result = await client.callTool({ name: 'echo', arguments: { text: `hello ${version} 🌍` } });
      expect(result.content).toEqual([{ type: 'text', text: `hello ${version} 🌍` }]);
      await expect(client.ping()).resolves.toEqual({});
    },
  );

  test('an SDK client requesting an unknown protocol version is offered the latest one', async () => {
    const { client, transport } = await connect(new VersionedTransport(new URL(running.mcpUrl), '2099-01-01'));
    expect(transport.protocolVersion).toBe('2025-11-25');
    await expect(client.ping()).resolves.toEqual({});
  });
});

describe('official MCP SDK client against the bearer-protected sample app', () => {
  const TOKEN = 'e2e-secret-token-7f3c9a';
  let running: RunningApp;
  const clients: Client[] = [];

  function transportWith(authorization?: string): StreamableHTTPClientTransport {
    return new StreamableHTTPClientTransport(
      new URL(running.mcpUrl),
      authorization === undefined ? undefined : { requestInit: { headers: { Authorization: authorization } } },
    );
  }

  function newClient(): Client {
    const client = new Client(CLIENT_INFO);
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    running = await startApp(AppModule.register({ bearerToken: TOKEN }));
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await running.close();
  });

  test('connects and calls tools with the right token', async () => {
    const client = newClient();
    const transport = transportWith(`Bearer ${TOKEN}`);
    await client.connect(transport);

    expect(transport.sessionId).toMatch(UUID);
    expect(client.getServerVersion()?.name).toBe('mcp42-sample');
    const result = await client.callTool({ name: 'echo', arguments: { text: 'authorised ✓' } });
    expect(result.content).toEqual([{ type: 'text', text: 'authorised ✓' }]);
    await transport.terminateSession();
  });

  test('a wrong token fails to connect with 401', async () => {
    const client = newClient();
    await expect(client.connect(transportWith('Bearer not-the-token'))).rejects.toMatchObject({ code: 401 });
  });

  test('a token of another scheme or no Authorization header fails to connect with 401', async () => {
    await expect(newClient().connect(transportWith(`Basic ${TOKEN}`))).rejects.toMatchObject({ code: 401 });
    await expect(newClient().connect(transportWith())).rejects.toMatchObject({ code: 401 });
  });

  test('the 401 carries WWW-Authenticate: Bearer and no session is created', async () => {
    const response = await fetch(running.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, authorization: `Bearer ${TOKEN}x` },
      body: JSON.stringify({
        jsonrpc: '2.0',
        id: 0,
        method: 'initialize',
        params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: CLIENT_INFO },
      }),
    });
    expect(response.status).toBe(401);
    expect(response.headers.get('www-authenticate')).toMatch(/^Bearer\b/);
    expect(response.headers.get('mcp-session-id')).toBeNull();
    await response.body?.cancel();
  });
});
