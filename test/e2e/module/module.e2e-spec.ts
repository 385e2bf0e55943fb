/**
 * McpModule end to end: configuration, discovery, result mapping, errors, hostile arguments and
 * results that cannot be sent as they are, McpContext, nested DTOs, isolation between applications
 * and the application's own body parser, over real HTTP with small fixture applications.
 */
import 'reflect-metadata';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  Controller,
  Injectable,
  Logger,
  Module,
  type DynamicModule,
  type ModuleMetadata,
  type Type,
} from '@nestjs/common';
import { IsString, MinLength } from 'class-validator';
import { EchoTools as SampleEchoTools } from '../../../sample-app/echo.tools.js';
import { McpModule, McpTool, type McpContext, type McpModuleOptions } from '../../../src/index.js';
import { AppConfigModule, AppConfigService, McpOptionsFromConfig } from '../../fixtures/app-config.module.js';
import { CatalogModule } from '../../fixtures/catalog.module.js';
import { ContextProbeTools, UserFromHeaderGuard, type ContextSnapshot } from '../../fixtures/context-probe.tools.js';
import { NoteTools } from '../../fixtures/note.tools.js';
import { OrderTools } from '../../fixtures/nested-order.tools.js';
import {
  ALL_CONTENT_BLOCKS,
  FULL_CALL_TOOL_RESULT,
  INTERNAL_SECRET,
  PLAIN_OBJECT,
  ResultMappingTools,
  TOOL_ERROR_MESSAGE,
  TOOL_FAILURE_RESULT,
  UnsendableResultTools,
} from '../../fixtures/result-mapping.tools.js';
import { bootstrapFailure, definitionError } from '../../utils/bootstrap-failure.js';
import { bodyOf, HttpMcpClient, type ReplyBody } from '../../utils/http-mcp-client.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { openSession } from '../../utils/open-session.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, TEST_ADAPTER, type RunningApp } from '../../utils/start-app.js';
import { within } from '../../utils/wait.js';

// ---------------------------------------------------------------------------------------------
// A minimal raw MCP client: every byte on the wire stays visible to the assertions.
// ---------------------------------------------------------------------------------------------

interface JsonRpcErrorBody {
  code: number;
  message: string;
  data?: unknown;
}

interface JsonRpcReplyBody {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown>;
  error?: JsonRpcErrorBody;
}

interface HttpReply {
  status: number;
  headers: Headers;
  text: string;
  body: JsonRpcReplyBody | undefined;
}

interface ToolResult {
  content: Record<string, unknown>[];
  isError?: boolean;
  structuredContent?: Record<string, unknown>;
  _meta?: Record<string, unknown>;
}

interface ToolDefinitionBody {
  name: string;
  title?: string;
  description?: string;
  inputSchema: Record<string, unknown>;
  annotations?: Record<string, unknown>;
}

/** The last JSON-RPC message of a JSON or SSE body. */
function parseReply(text: string, contentType: string | null): JsonRpcReplyBody | undefined {
  if (text === '') return undefined;
  if (contentType?.startsWith('text/event-stream')) {
    const data = text
      .split('\n')
      .filter((line) => line.startsWith('data:'))
      .map((line) => line.slice(5).trim());
    return data.length === 0 ? undefined : (JSON.parse(data[data.length - 1]!) as JsonRpcReplyBody);
  }
  return JSON.parse(text) as JsonRpcReplyBody;
}

class RawMcpClient {
  sessionId: string | undefined;
  protocolVersion: string | undefined;
  private nextId = 1;

  constructor(
    readonly url: string,
    private readonly defaultHeaders: Record<string, string> = {},
  ) {}

  async post(message: unknown, headers: Record<string, string> = {}): Promise<HttpReply> {
    const response = await fetch(this.url, {
      method: 'POST',
      headers: {
        ...MCP_POST_HEADERS,
        ...this.defaultHeaders,
        ...(this.sessionId === undefined ? {} : { 'mcp-session-id': this.sessionId }),
        ...(this.protocolVersion === undefined ? {} : { 'mcp-protocol-version': this.protocolVersion }),
        ...headers,
      },
      body: JSON.stringify(message),
    });
    const text = await response.text();
    return {
      status: response.status,
      headers: response.headers,
      text,
      body: parseReply(text, response.headers.get('content-type')),
    };
  }

  /** Opens a session (acknowledged with `notifications/initialized`); returns the initialize result. */
  async initialize(protocolVersion = '2025-06-18'): Promise<Record<string, unknown>> {
    const session = await openSession(this.url, { protocolVersion, headers: this.defaultHeaders });
    this.sessionId = session.id;
    this.protocolVersion = session.protocolVersion;
    return session.result;
  }

  request(
    method: string,
    params?: Record<string, unknown>,
    headers?: Record<string, string>,
    id: string | number = this.nextId++,
  ): Promise<HttpReply> {
    return this.post({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) }, headers);
  }

  /** Calls a tool and expects a JSON-RPC result (which may still be a tool error). */
  async callTool(
    name: string,
    args?: Record<string, unknown>,
    headers?: Record<string, string>,
    id?: string | number,
  ): Promise<ToolResult> {
    const reply = await this.request(
      'tools/call',
      { name, ...(args === undefined ? {} : { arguments: args }) },
      headers,
      id,
    );
    expect(reply.status).toBe(200);
    expect(reply.body?.error).toBeUndefined();
    return reply.body!.result as unknown as ToolResult;
  }

  async listTools(): Promise<ToolDefinitionBody[]> {
    const reply = await this.request('tools/list');
    expect(reply.status).toBe(200);
    expect(reply.body?.error).toBeUndefined();
    return reply.body!.result!.tools as ToolDefinitionBody[];
  }

  async toolNames(): Promise<string[]> {
    return (await this.listTools()).map((tool) => tool.name).sort();
  }

  async delete(): Promise<number> {
    const response = await fetch(this.url, {
      method: 'DELETE',
      headers: { ...this.defaultHeaders, ...(this.sessionId ? { 'mcp-session-id': this.sessionId } : {}) },
    });
    await response.body?.cancel();
    return response.status;
  }
}

/** Starts `module`, initializes one session, runs `body`, and always closes the app. */
async function withApp(
  module: Type<unknown> | DynamicModule | ModuleMetadata,
  body: (client: RawMcpClient, running: RunningApp) => Promise<void>,
  options: Parameters<typeof startApp>[1] = {},
): Promise<void> {
  const running = await startApp(module, options);
  try {
    const client = new RawMcpClient(running.mcpUrl);
    await client.initialize();
    await body(client, running);
  } finally {
    await running.close();
  }
}

/** A class with one method decorated by `@McpTool(options)`, built at run time. */
function toolClass(className: string, options: Parameters<typeof McpTool>[0], methodName = 'run'): Type<unknown> {
  const holder = {
    [className]: class {
      [methodName](): string {
        return 'ok';
      }
    },
  };
  const cls = holder[className]!;
  const descriptor = Object.getOwnPropertyDescriptor(cls.prototype, methodName)!;
  McpTool(options)(cls.prototype, methodName, descriptor);
  Injectable()(cls);
  return cls;
}

const mcpRoot = (name = 'fixture') => McpModule.forRoot({ name, version: '1.0.0' });

class EchoTextArgs {
  @IsString()
  @MinLength(1)
  text!: string;
}

@Injectable()
class EchoTools {
  @McpTool({ name: 'echo_text', description: 'Returns its text', input: EchoTextArgs })
  echo(args: EchoTextArgs): string {
    return args.text;
  }
}

/** Tells whether the HTTP framework parsed the body before mcp42 saw the request. */
@Injectable()
class HostBodyProbe {
  @McpTool({ name: 'host_body', description: 'Reports who parsed the request body' })
  who(_args: object, context: McpContext): string {
    const body = (context.request as { body?: unknown }).body;
    return typeof body === 'object' && body !== null ? 'parsed by the host' : 'read by mcp42';
  }
}

// ---------------------------------------------------------------------------------------------
// Configuration: forRoot, forRootAsync (useFactory + inject, useClass), custom path
// ---------------------------------------------------------------------------------------------

describe('McpModule configuration', () => {
  const config = {
    MCP_NAME: 'configured-server',
    MCP_VERSION: '3.1.4',
    MCP_INSTRUCTIONS: 'Configured through a config service',
  };

  async function expectServes(client: RawMcpClient, result: Record<string, unknown>): Promise<void> {
    expect(result.serverInfo).toEqual({ name: 'configured-server', version: '3.1.4' });
    expect(result.instructions).toBe('Configured through a config service');
    expect(result.capabilities).toEqual({
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
    });
    expect(await client.toolNames()).toEqual(['echo_text']);
    expect(await client.callTool('echo_text', { text: 'configured ✓' })).toEqual({
      content: [{ type: 'text', text: 'configured ✓' }],
    });
  }

  test('forRoot serves the tools of the application', async () => {
    await withApp(
      {
        imports: [McpModule.forRoot({ name: 'root-server', version: '2.0.0', title: 'Root' })],
        providers: [EchoTools, HostBodyProbe],
      },
      async (client) => {
        expect(await client.toolNames()).toEqual(['echo_text', 'host_body']);
        expect((await client.callTool('echo_text', { text: 'hi' })).content).toEqual([{ type: 'text', text: 'hi' }]);
        expect((await client.callTool('host_body')).content).toEqual([{ type: 'text', text: 'read by mcp42' }]);
      },
    );
  });

  test('forRootAsync with useFactory and inject reads options from a config provider', async () => {
    let factoryCalls = 0;
    const running = await startApp({
      imports: [
        McpModule.forRootAsync({
          imports: [AppConfigModule.forValues(config)],
          inject: [AppConfigService],
          useFactory: async (settings: AppConfigService) => {
            factoryCalls++;
            await Promise.resolve();
            return {
              name: settings.get('MCP_NAME'),
              version: settings.get('MCP_VERSION'),
              instructions: settings.get('MCP_INSTRUCTIONS'),
            };
          },
        }),
      ],
      providers: [EchoTools],
    });
    try {
      const client = new RawMcpClient(running.mcpUrl);
      await expectServes(client, await client.initialize());
      expect(factoryCalls).toBe(1);
    } finally {
      await running.close();
    }
  });

  test('forRootAsync with useClass serves tools like forRoot', async () => {
    const running = await startApp({
      imports: [
        McpModule.forRootAsync({
          imports: [AppConfigModule.forValues(config)],
          useClass: McpOptionsFromConfig,
        }),
      ],
      providers: [EchoTools],
    });
    try {
      const client = new RawMcpClient(running.mcpUrl);
      await expectServes(client, await client.initialize());
    } finally {
      await running.close();
    }
  });

  test('forRootAsync options are validated at bootstrap', async () => {
    const { error } = await bootstrapFailure({
      imports: [McpModule.forRootAsync({ useFactory: () => ({ name: 'no-version' }) as McpModuleOptions })],
    });
    expect(error.message).toMatch(/version/);
  });

  test('a custom path serves the endpoint there, and not at /mcp', async () => {
    const path = 'api/v2/agent-tools';
    await withApp(
      { imports: [McpModule.forRoot({ name: 'custom-path', version: '1.0.0', path })], providers: [EchoTools] },
      async (client, running) => {
        expect(running.mcpUrl).toBe(`${running.baseUrl}/${path}`);
        expect(await client.toolNames()).toEqual(['echo_text']);

        const atDefault = await fetch(`${running.baseUrl}/mcp`, {
          method: 'POST',
          headers: MCP_POST_HEADERS,
          body: JSON.stringify(initializeRequest()),
        });
        expect(atDefault.status).toBe(404);
        expect(atDefault.headers.get('mcp-session-id')).toBeNull();
        await atDefault.body?.cancel();

        expect(await client.delete()).toBe(204);
      },
      { path },
    );
  });

  test('forRootAsync takes the path too', async () => {
    const path = 'async-mcp';
    await withApp(
      {
        imports: [McpModule.forRootAsync({ path, useFactory: () => ({ name: 'async-path', version: '1.0.0' }) })],
        providers: [EchoTools],
      },
      async (client) => {
        expect(await client.toolNames()).toEqual(['echo_text']);
      },
      { path },
    );
  });
});

// ---------------------------------------------------------------------------------------------
// Discovery and tool definitions
// ---------------------------------------------------------------------------------------------

describe('tool discovery', () => {
  test('finds tools on providers and controllers of an imported module, and on factory providers', async () => {
    await withApp({ imports: [mcpRoot(), CatalogModule] }, async (client, running) => {
      expect(await client.toolNames()).toEqual([
        'catalog_lookup',
        'catalog_size',
        'inventory_first_category',
        'listCategories',
      ]);
      // Each handler runs bound to its instance, with its injected dependencies.
      expect((await client.callTool('catalog_lookup', { sku: 'B-1234' })).content).toEqual([
        { type: 'text', text: 'SKU B-1234 is in stock' },
      ]);
      expect((await client.callTool('catalog_size')).content).toEqual([{ type: 'text', text: '3 categories' }]);
      expect((await client.callTool('inventory_first_category')).content).toEqual([{ type: 'text', text: 'books' }]);
      // The controller still serves its ordinary routes.
      const health = await fetch(`${running.baseUrl}/catalog/health`);
      expect(health.status).toBe(200);
      expect(await health.json()).toEqual({ ok: true });
    });
  });

  test('a tool name defaults to the method name', async () => {
    await withApp({ imports: [mcpRoot(), CatalogModule] }, async (client) => {
      const tool = (await client.listTools()).find((candidate) => candidate.name === 'listCategories');
      expect(tool).toEqual({
        name: 'listCategories',
        description: 'Lists the catalog categories',
        inputSchema: { type: 'object', additionalProperties: false },
      });
      // An array that is not content blocks is sent as JSON text.
      expect((await client.callTool('listCategories', {})).content).toEqual([
        { type: 'text', text: JSON.stringify(['books', 'music', 'games']) },
      ]);
    });
  });

  test('a duplicate tool name fails app.init() with a message naming both classes', async () => {
    const First = toolClass('WeatherToolsOne', { name: 'forecast', description: 'First forecast' });
    const Second = toolClass('WeatherToolsTwo', { name: 'forecast', description: 'Second forecast' }, 'predict');

    const error = await definitionError({ imports: [mcpRoot()], providers: [First, Second] });
    expect(error.message).toContain('"forecast"');
    expect(error.message).toContain('WeatherToolsOne');
    expect(error.message).toContain('WeatherToolsTwo');
  });

  test('a duplicate between a provider and a controller fails too, naming both', async () => {
    const ProviderTools = toolClass('ProviderSide', { name: 'shared_name', description: 'On a provider' });
    @Controller('dup')
    class ControllerSide {
      @McpTool({ name: 'shared_name', description: 'On a controller' })
      run(): string {
        return 'ok';
      }
    }
    const error = await definitionError({
      imports: [mcpRoot()],
      providers: [ProviderTools],
      controllers: [ControllerSide],
    });
    expect(error.message).toContain('ProviderSide');
    expect(error.message).toContain('ControllerSide');
  });

  test.each([
    ['empty', ''],
    ['129 characters', 'a'.repeat(129)],
    ['with spaces', 'get weather'],
    ['with unicode letters', 'météo'],
    ['with an emoji', 'tool_🌦'],
    ['with a slash', 'weather/forecast'],
  ])('an invalid tool name (%s) fails bootstrap', async (_label, name) => {
    const Tools = toolClass('BadlyNamedTools', { name, description: 'Has an invalid name' });
    const error = await definitionError({ imports: [mcpRoot()], providers: [Tools] });
    expect(error.message).toContain('BadlyNamedTools.run');
    expect(error.message).toContain(`"${name}"`);
  });

  test('names at the limits of the rules are served: 128 characters, every allowed character', async () => {
    const longest = 'x'.repeat(128);
    const mixed = 'Az09_-.tool';
    await withApp(
      {
        imports: [mcpRoot()],
        providers: [
          toolClass('LongestName', { name: longest, description: '128 characters' }),
          toolClass('MixedName', { name: mixed, description: 'Every character class' }),
        ],
      },
      async (client) => {
        expect(await client.toolNames()).toEqual([mixed, longest].sort());
        expect((await client.callTool(longest)).content).toEqual([{ type: 'text', text: 'ok' }]);
      },
    );
  });

  test.each([
    ['missing', undefined],
    ['empty', ''],
    ['blank', '   '],
  ])('a %s description fails bootstrap', async (_label, description) => {
    const Tools = toolClass('UndescribedTools', { name: 'undescribed', description: description as string });
    const error = await definitionError({ imports: [mcpRoot()], providers: [Tools] });
    expect(error.message).toContain('UndescribedTools.run');
    expect(error.message).toMatch(/description/);
  });
});

// ---------------------------------------------------------------------------------------------
// Calls: no-input tools, result mapping, errors, nested DTOs, McpContext
// ---------------------------------------------------------------------------------------------

@Module({
  imports: [McpModule.forRoot({ name: 'fixtures', version: '1.0.0', guards: [UserFromHeaderGuard] })],
  providers: [ResultMappingTools, ContextProbeTools, OrderTools],
})
class ToolboxModule {}

describe('tool calls', () => {
  let running: RunningApp;
  let client: RawMcpClient;

  beforeAll(async () => {
    running = await startApp(ToolboxModule);
    client = new RawMcpClient(running.mcpUrl);
    await client.initialize();
  });

  afterAll(async () => {
    await running?.close();
  });

  describe('a tool without input', () => {
    test('advertises an empty closed object schema', async () => {
      const tool = (await client.listTools()).find((candidate) => candidate.name === 'returns_string');
      expect(tool?.inputSchema).toEqual({ type: 'object', additionalProperties: false });
    });

    test('accepts no arguments and empty arguments', async () => {
      expect(await client.callTool('returns_string')).toEqual({ content: [{ type: 'text', text: 'plain text ✓' }] });
      expect(await client.callTool('returns_string', {})).toEqual({
        content: [{ type: 'text', text: 'plain text ✓' }],
      });
    });

    test('rejects unexpected arguments with an isError result, without running', async () => {
      const tools = running.app.get(ResultMappingTools);
      const before = tools.calls;
      const result = await client.callTool('returns_string', { verbose: true, limit: 3 });
      expect(result.isError).toBe(true);
      expect(result.content).toHaveLength(1);
      expect(result.content[0]!.type).toBe('text');
      expect(result.content[0]!.text).toContain('verbose');
      expect(result.content[0]!.text).toContain('limit');
      expect(tools.calls).toBe(before);
    });
  });

  describe('result mapping', () => {
    test('a string becomes one text block', async () => {
      expect(await client.callTool('returns_string')).toEqual({ content: [{ type: 'text', text: 'plain text ✓' }] });
    });

    test('an array of content blocks becomes the content: text, image, audio, resource_link, resources', async () => {
      expect(await client.callTool('returns_blocks')).toEqual({ content: ALL_CONTENT_BLOCKS });
    });

    test('a CallToolResult passes through, structuredContent and _meta included', async () => {
      expect(await client.callTool('returns_result')).toEqual(FULL_CALL_TOOL_RESULT);
    });

    test('a CallToolResult with isError passes through as a tool error', async () => {
      expect(await client.callTool('returns_failure_result')).toEqual(TOOL_FAILURE_RESULT);
    });

    test('undefined becomes an empty content list', async () => {
      expect(await client.callTool('returns_undefined')).toEqual({ content: [] });
    });

    test('a plain object becomes its JSON text', async () => {
      const result = await client.callTool('returns_object');
      expect(result.isError).toBeUndefined();
      expect(result.content).toHaveLength(1);
      expect(result.content[0]!.type).toBe('text');
      expect(JSON.parse(result.content[0]!.text as string)).toEqual(PLAIN_OBJECT);
    });

    test('a number becomes its JSON text', async () => {
      expect(await client.callTool('returns_number')).toEqual({ content: [{ type: 'text', text: '42' }] });
    });
  });

  describe('errors', () => {
    test('McpToolError becomes an isError result carrying its message', async () => {
      expect(await client.callTool('throws_tool_error')).toEqual({
        content: [{ type: 'text', text: TOOL_ERROR_MESSAGE }],
        isError: true,
      });
    });

    test('an unknown tool is an isError result', async () => {
      const result = await client.callTool('no_such_tool', {});
      expect(result.isError).toBe(true);
      expect(result.content[0]!.text).toContain('no_such_tool');
    });

    test.each(['throws_internal', 'rejects_internal', 'throws_string'])(
      'any other exception (%s) is -32603 "Internal error", leaks nothing, is logged, and serving goes on',
      async (tool) => {
        const logger = new RecordingLogger();
        running.app.useLogger(logger);
        try {
          const reply = await client.request('tools/call', { name: tool, arguments: {} }, {}, `internal-${tool}`);

          expect(reply.status).toBe(200);
          expect(reply.body).toEqual({
            jsonrpc: '2.0',
            id: `internal-${tool}`,
            error: { code: -32603, message: 'Internal error' },
          });
          for (const leak of ['hunter2', 'secret', 'config.ts', 'result-mapping', 'Error:', 'TypeError', ' at ']) {
            expect(reply.text).not.toContain(leak);
          }

          // Logged, with what the client was not told: the exception itself (by Nest's exception
          // handler or by mcp42), and a line that names the tool.
          const errors = logger.at('error');
          expect(errors.length).toBeGreaterThanOrEqual(1);
          expect(errors.length).toBeLessThanOrEqual(2);
          expect(errors.some((line) => line.includes(INTERNAL_SECRET))).toBe(true);
          expect(errors.some((line) => line.includes(`Tool ${tool} `))).toBe(true);

          // The server, and this very session, keep serving.
          expect(await client.callTool('returns_string')).toEqual({
            content: [{ type: 'text', text: 'plain text ✓' }],
          });
          expect((await client.request('ping')).body?.result).toEqual({});
        } finally {
          Logger.overrideLogger(false);
        }
      },
    );

    test('after many internal errors in a row the server still serves new sessions', async () => {
      Logger.overrideLogger(false);
      const replies = await Promise.all(
        Array.from({ length: 10 }, () => client.request('tools/call', { name: 'throws_internal' })),
      );
      expect(replies.map((reply) => reply.body?.error?.code)).toEqual(Array(10).fill(-32603));
      const fresh = new RawMcpClient(running.mcpUrl);
      await fresh.initialize();
      expect((await fresh.callTool('returns_number')).content).toEqual([{ type: 'text', text: '42' }]);
      expect(await fresh.delete()).toBe(204);
    });
  });

  describe('nested DTOs', () => {
    test('advertise $defs and $ref schemas, closed at every level', async () => {
      const tool = (await client.listTools()).find((candidate) => candidate.name === 'place_order');
      expect(tool?.inputSchema).toEqual({
        type: 'object',
        properties: {
          address: { $ref: '#/$defs/ShippingAddress' },
          lines: { type: 'array', items: { $ref: '#/$defs/OrderLine' } },
          note: { type: 'string' },
        },
        required: ['address', 'lines'],
        additionalProperties: false,
        $defs: {
          ShippingAddress: {
            type: 'object',
            properties: {
              street: { type: 'string', minLength: 1 },
              zip: { type: 'string', pattern: '^\\d{4}-\\d{3}$' },
            },
            required: ['street', 'zip'],
            additionalProperties: false,
          },
          OrderLine: {
            type: 'object',
            properties: { sku: { type: 'string' }, quantity: { type: 'integer', minimum: 1 } },
            required: ['sku', 'quantity'],
            additionalProperties: false,
          },
        },
      });
    });

    test('valid nested arguments reach the handler as DTO instances', async () => {
      const result = await client.callTool('place_order', {
        address: { street: 'Rua Augusta 1', zip: '1100-048' },
        lines: [
          { sku: 'A', quantity: 2 },
          { sku: 'B', quantity: 3 },
        ],
      });
      expect(result.isError).toBeUndefined();
      expect(JSON.parse(result.content[0]!.text as string)).toEqual({
        addressIsInstance: true,
        linesAreInstances: true,
        units: 5,
        zip: '1100-048',
      });
    });

    test('nested failures are named with dotted paths', async () => {
      const result = await client.callTool('place_order', {
        address: { street: '', zip: 'nope', floor: 3 },
        lines: [
          { sku: 'A', quantity: 0 },
          { sku: 7, quantity: 1 },
        ],
      });
      expect(result.isError).toBe(true);
      const text = result.content[0]!.text as string;
      expect(text).toMatch(/^- address\.street: .*empty/m);
      expect(text).toMatch(/^- address\.zip: .*match/m);
      expect(text).toMatch(/^- address\.floor: .*should not exist/m);
      expect(text).toMatch(/^- lines\.0\.quantity: .*less than 1/m);
      expect(text).toMatch(/^- lines\.1\.sku: .*string/m);
      expect(text).not.toMatch(/^- note/m);
    });

    test('a nested value of the wrong shape is reported, not thrown', async () => {
      const result = await client.callTool('place_order', { address: 'Rua Augusta', lines: [null] });
      expect(result.isError).toBe(true);
      const text = result.content[0]!.text as string;
      expect(text).toMatch(/^- address: /m);
      expect(text).toMatch(/^- lines\.0: /m);
    });
  });

  describe('McpContext', () => {
    let probe: ContextProbeTools;

    beforeAll(() => {
      probe = running.app.get(ContextProbeTools);
    });

    async function probeWith(
      caller: RawMcpClient,
      id: string | number,
      headers: Record<string, string> = {},
      meta?: Record<string, unknown>,
    ): Promise<ContextSnapshot> {
      probe.snapshots.length = 0;
      const reply = await caller.request(
        'tools/call',
        { name: 'probe_context', arguments: {}, ...(meta ? { _meta: meta } : {}) },
        headers,
        id,
      );
      expect(reply.body?.result).toEqual({ content: [{ type: 'text', text: 'probed' }] });
      expect(probe.snapshots).toHaveLength(1);
      return probe.snapshots[0]!;
    }

    test('carries the session, version, request id, tool name, client, headers, user and a live signal', async () => {
      // The session belongs to the user who created it, so alice creates it.
      const caller = new RawMcpClient(running.mcpUrl, { 'x-user-id': 'alice' });
      await caller.initialize('2025-06-18');
      const seen = await probeWith(caller, 'req-ü-1', { 'x-trace-id': 'trace-42' }, { 'example.com/origin': 'e2e' });

      expect(seen.sessionId).toBe(caller.sessionId);
      expect(seen.protocolVersion).toBe('2025-06-18');
      expect(seen.requestId).toBe('req-ü-1');
      expect(seen.name).toBe('probe_context');
      expect(seen.clientInfo).toEqual({ name: 'test-client', version: '1.0.0' });
      expect(seen.clientCapabilities).toEqual({});
      expect(seen.meta).toEqual({ 'example.com/origin': 'e2e' });
      expect(seen.headers['x-trace-id']).toBe('trace-42');
      expect(seen.headers['mcp-session-id']).toBe(caller.sessionId);
      expect(seen.requestHasHeaders).toBe(true);
      expect(seen.user).toEqual({ id: 'alice', roles: ['reader'], via: 'UserFromHeaderGuard' });
      expect(seen.signalIsAbortSignal).toBe(true);
      expect(seen.abortedDuringCall).toBe(false);
      expect(seen.signal.aborted).toBe(false);
      expect(await caller.delete()).toBe(204);
    });

    test('is per call: integer ids, another session, another negotiated version, another user', async () => {
      const other = new RawMcpClient(running.mcpUrl, { 'x-user-id': 'bob' });
      await other.initialize('2025-03-26');
      const seen = await probeWith(other, 7);

      expect(seen.requestId).toBe(7);
      expect(seen.sessionId).toBe(other.sessionId);
      expect(seen.sessionId).not.toBe(client.sessionId);
      expect(seen.protocolVersion).toBe('2025-03-26');
      expect(seen.meta).toBeUndefined();
      expect(seen.headers['x-trace-id']).toBeUndefined();
      expect(seen.user).toEqual({ id: 'bob', roles: ['reader'], via: 'UserFromHeaderGuard' });
      expect(await other.delete()).toBe(204);
    });

    test("a session answers only its creator: another user's requests get 404, the creator's still work", async () => {
      const owner = new RawMcpClient(running.mcpUrl, { 'x-user-id': 'carol' });
      await owner.initialize();
      const intruder = { 'x-user-id': 'mallory' };
      const stolen = await owner.request('tools/call', { name: 'probe_context', arguments: {} }, intruder, 'steal-1');
      expect(stolen.status).toBe(404);
      expect(stolen.body?.result).toBeUndefined();
      const own = await owner.request('ping', {}, {}, 'own-1');
      expect(own.status).toBe(200);
      expect(own.body?.result).toEqual({});
      expect(await owner.delete()).toBe(204);
    });

    test('the signal aborts when the session is DELETEd during a long-running call', async () => {
      const caller = new RawMcpClient(running.mcpUrl);
      await caller.initialize();
      const started = probe.nextStart();
      const aborted = probe.nextAbort();
      const pending = caller.request('tools/call', { name: 'wait_for_abort', arguments: {} }, {}, 'long-1');
      const context = await within(started, 5_000, 'the long-running call start');
      expect(context.signal.aborted).toBe(false);
      expect(context.sessionId).toBe(caller.sessionId);

      expect(await caller.delete()).toBe(204);
      const reason = await within(aborted, 5_000, 'the abort of the running call');
      expect(context.signal.aborted).toBe(true);
      expect(String(reason)).toMatch(/deleted/);

      // The POST that carried the call ends one way or another; the session is gone.
      await within(
        pending.catch(() => undefined),
        5_000,
        'the end of the aborted POST',
      );
      const after = await caller.request('ping');
      expect(after.status).toBe(404);
    });
  });
});

test('a tool that throws because its signal aborted gets an isError result, not an internal error', async () => {
  const logger = new RecordingLogger();
  const running = await startApp(
    {
      imports: [McpModule.forRoot({ name: 'abort', version: '1.0.0' })],
      providers: [ContextProbeTools],
    },
    { logger },
  );
  try {
    const probe = running.app.get(ContextProbeTools);
    const caller = new RawMcpClient(running.mcpUrl);
    await caller.initialize();
    const started = probe.nextStart();
    const pending = caller.request('tools/call', { name: 'throw_when_aborted', arguments: {} }, {}, 'abort-1');
    await within(started, 5_000, 'the call start');
    expect(await caller.delete()).toBe(204);
    const reply = await within(pending, 5_000, 'the answer of the aborted call');
    expect(reply.status).toBe(200);
    expect(reply.body?.error).toBeUndefined();
    expect(reply.body?.result).toEqual({
      content: [{ type: 'text', text: 'Tool throw_when_aborted was aborted: MCP session ended (deleted)' }],
      isError: true,
    });
    expect(logger.at('error')).toEqual([]);
  } finally {
    await running.close();
  }
});

test('the signal of a running call aborts when the application shuts down', async () => {
  const running = await startApp({
    imports: [McpModule.forRoot({ name: 'shutdown', version: '1.0.0' })],
    providers: [ContextProbeTools],
  });
  const probe = running.app.get(ContextProbeTools);
  const caller = new RawMcpClient(running.mcpUrl);
  let pending: Promise<unknown> = Promise.resolve();
  try {
    await caller.initialize();
    const started = probe.nextStart();
    const aborted = probe.nextAbort();
    pending = caller.request('tools/call', { name: 'wait_for_abort' }).catch(() => undefined);
    const context = await within(started, 5_000, 'the long-running call start');
    await running.close();
    expect(context.signal.aborted).toBe(true);
    expect(String(await within(aborted, 5_000, 'the abort at shutdown'))).toMatch(/shutdown/);
  } finally {
    await running.close().catch(() => undefined);
    await pending;
  }
});

// ---------------------------------------------------------------------------------------------
// Isolation between applications, and hosts that keep Nest's JSON body parser
// ---------------------------------------------------------------------------------------------

@Injectable()
class AlphaTools {
  @McpTool({ name: 'alpha_only', description: 'Only in app A' })
  alpha(_args: object, context: McpContext): string {
    return `alpha in ${context.sessionId}`;
  }
}

@Injectable()
class BetaTools {
  @McpTool({ name: 'beta_only', description: 'Only in app B' })
  beta(): string {
    return 'beta';
  }
}

describe('tool calls with hostile arguments, or results that cannot be sent as they are (e2e)', () => {
  let running: RunningApp;
  let tools: NoteTools;
  let client: HttpMcpClient;

  beforeAll(async () => {
    running = await startApp({
      imports: [mcpRoot('unsendable')],
      providers: [UnsendableResultTools, NoteTools, SampleEchoTools],
    });
    tools = running.app.get(NoteTools);
    client = new HttpMcpClient(running.mcpUrl);
    await client.initialize();
  });

  afterEach(() => {
    Logger.overrideLogger(false);
  });

  afterAll(async () => {
    await running?.close();
  });

  describe('a result that cannot be serialised', () => {
    it.each(['bigint_result', 'circular_result'])(
      '%s: HTTP 200 with -32603 for its id, logged through Nest with the id, and the session goes on',
      async (tool) => {
        const logger = new RecordingLogger();
        running.app.useLogger(logger);
        const id = `bad-${tool}`;

        const reply = await client.call(tool, {}, id);

        expect(reply.status).toBe(200);
        expect(bodyOf(reply)).toEqual({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } });
        const errors = logger.at('error');
        expect(errors).toHaveLength(1);
        expect(errors[0]).toContain(id);

        expect(await client.ping()).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
        const echo = bodyOf(await client.call('echo', { text: 'still here' }, 'after'));
        expect(echo.result).toEqual({ content: [{ type: 'text', text: 'still here' }] });
      },
    );

    it('in a 2025-03-26 batch [bad call, ping] the ping still gets {} and the bad call -32603', async () => {
      const logger = new RecordingLogger();
      running.app.useLogger(logger);
      const old = new HttpMcpClient(running.mcpUrl);
      await old.initialize('2025-03-26');

      const reply = await old.post([
        { jsonrpc: '2.0', id: 'bad', method: 'tools/call', params: { name: 'bigint_result', arguments: {} } },
        { jsonrpc: '2.0', id: 'p', method: 'ping' },
      ]);

      expect(reply.status).toBe(200);
      const replies = JSON.parse(reply.text) as ReplyBody[];
      expect(Array.isArray(replies)).toBe(true);
      expect(replies).toHaveLength(2);
      expect(replies).toContainEqual({ jsonrpc: '2.0', id: 'p', result: {} });
      expect(replies).toContainEqual({ jsonrpc: '2.0', id: 'bad', error: { code: -32603, message: 'Internal error' } });
      expect(logger.at('error').some((line) => line.includes('"bad"'))).toBe(true);
    });
  });

  describe('hostile arguments', () => {
    it('50,000 levels of nesting under an unknown key give an isError result, and serving goes on', async () => {
      const depth = 50_000;
      const deep = '{"a":'.repeat(depth) + '1' + '}'.repeat(depth);
      const body =
        '{"jsonrpc":"2.0","id":"deep","method":"tools/call","params":{"name":"note","arguments":' +
        `{"text":"hi","deep":${deep}}}}`;
      const before = tools.noteCalls;

      const reply = await client.post(body);

      expect(reply.status).toBe(200);
      const result = bodyOf(reply);
      expect(result.error).toBeUndefined();
      expect(result.id).toBe('deep');
      expect(result.result?.isError).toBe(true);
      expect(tools.noteCalls).toBe(before);

      expect(await client.ping()).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
      const note = bodyOf(await client.call('note', { text: 'fine' }, 'after-deep'));
      expect(note.result).toEqual({ content: [{ type: 'text', text: 'fine' }] });
    });

    it.each(['constructor', '__proto__', 'toString', 'hasOwnProperty', 'describe'])(
      'a %j key (which class-transformer drops) is refused by name, and Object.prototype stays clean',
      async (key) => {
        const before = tools.noteCalls;
        // Hand-written JSON, so that "__proto__" arrives as an own key, as JSON.parse creates it.
        const body =
          '{"jsonrpc":"2.0","id":"keys","method":"tools/call","params":{"name":"note","arguments":' +
          `{"text":"hi",${JSON.stringify(key)}:{"polluted":"yes","prototype":{"polluted":"yes"}}}}}`;

        const reply = await client.post(body);

        const result = bodyOf(reply).result!;
        expect(result.isError).toBe(true);
        expect(result.content?.[0]?.text).toContain(key);
        expect(tools.noteCalls).toBe(before);
        expect(({} as Record<string, unknown>).polluted).toBeUndefined();
        expect(Object.hasOwn(Object.prototype, 'polluted')).toBe(false);
        expect((Object as unknown as Record<string, unknown>).polluted).toBeUndefined();
      },
    );

    it('valid arguments next to nothing suspicious still pass (the refusal is about the key)', async () => {
      const reply = bodyOf(await client.call('note', { text: 'hi', tag: 'ok' }, 'clean'));
      expect(reply.result).toEqual({ content: [{ type: 'text', text: 'hi #ok' }] });
    });
  });

  describe('results that are not content', () => {
    it('a function becomes empty content', async () => {
      expect(bodyOf(await client.call('returns_function')).result).toEqual({ content: [] });
    });

    it('a text block without text is sent as JSON text, not as a block', async () => {
      expect(bodyOf(await client.call('text_without_text')).result).toEqual({
        content: [{ type: 'text', text: JSON.stringify([{ type: 'text' }]) }],
      });
    });

    it('an image block without mimeType is sent as JSON text, not passed through', async () => {
      expect(bodyOf(await client.call('image_without_mime')).result).toEqual({
        content: [{ type: 'text', text: JSON.stringify({ content: [{ type: 'image', data: 'x' }] }) }],
      });
    });

    it('the official SDK client can call all three without throwing', async () => {
      const sdk = new Client({ name: 'unsendable-results-sdk', version: '1.0.0' });
      await sdk.connect(new StreamableHTTPClientTransport(new URL(running.mcpUrl)));
      try {
        expect(await sdk.callTool({ name: 'returns_function' })).toEqual({ content: [] });
        const text = await sdk.callTool({ name: 'text_without_text' });
        expect(text.content).toEqual([{ type: 'text', text: '[{"type":"text"}]' }]);
        const image = await sdk.callTool({ name: 'image_without_mime' });
        expect(image.content).toEqual([{ type: 'text', text: '{"content":[{"type":"image","data":"x"}]}' }]);
      } finally {
        await sdk.close();
      }
    });
  });
});

describe('two applications in one process', () => {
  let appA: RunningApp;
  let appB: RunningApp;

  beforeAll(async () => {
    [appA, appB] = await Promise.all([
      startApp({ imports: [McpModule.forRoot({ name: 'app-a', version: '1.0.0' })], providers: [AlphaTools] }),
      startApp({ imports: [McpModule.forRoot({ name: 'app-b', version: '2.0.0' })], providers: [BetaTools] }),
    ]);
  });

  afterAll(async () => {
    await Promise.all([appA?.close(), appB?.close()]);
  });

  test('each lists and serves only its own tools', async () => {
    const a = new RawMcpClient(appA.mcpUrl);
    const b = new RawMcpClient(appB.mcpUrl);
    expect((await a.initialize()).serverInfo).toEqual({ name: 'app-a', version: '1.0.0' });
    expect((await b.initialize()).serverInfo).toEqual({ name: 'app-b', version: '2.0.0' });

    expect(await a.toolNames()).toEqual(['alpha_only']);
    expect(await b.toolNames()).toEqual(['beta_only']);
    expect((await a.callTool('beta_only')).isError).toBe(true);
    expect((await b.callTool('alpha_only')).isError).toBe(true);
    expect((await b.callTool('beta_only')).content).toEqual([{ type: 'text', text: 'beta' }]);
  });

  test('a session of app A is unknown to app B (404), and survives B refusing it', async () => {
    const a = new RawMcpClient(appA.mcpUrl);
    await a.initialize();

    const intruder = new RawMcpClient(appB.mcpUrl);
    intruder.sessionId = a.sessionId;
    intruder.protocolVersion = a.protocolVersion;
    expect((await intruder.request('tools/list')).status).toBe(404);
    expect((await intruder.request('ping')).status).toBe(404);
    expect(await intruder.delete()).toBe(404);

    expect((await a.callTool('alpha_only')).content).toEqual([{ type: 'text', text: `alpha in ${a.sessionId}` }]);
    expect(await a.delete()).toBe(204);
  });
});

describe("an application keeping Nest's default JSON body parser", () => {
  // On Express the parser reads MCP bodies first (mcp42 takes its result, and warns); on Fastify mcp42
  // keeps the parsers away from its routes and reads the bodies itself, so nothing is said.
  const onFastify = TEST_ADAPTER === 'fastify';

  test('serves initialize, notifications, tools/list and tools/call', async () => {
    const text = 'parsed by the host ✓ 漢字 👩🏽‍💻 e\u0301';
    await withApp(
      { imports: [mcpRoot('parsed')], providers: [EchoTools, ResultMappingTools, HostBodyProbe] },
      async (client) => {
        expect((await client.callTool('host_body')).content).toEqual([
          { type: 'text', text: onFastify ? 'read by mcp42' : 'parsed by the host' },
        ]);
        expect(await client.toolNames()).toContain('echo_text');
        expect(await client.callTool('echo_text', { text })).toEqual({ content: [{ type: 'text', text }] });
        expect((await client.callTool('echo_text', { text: '' })).isError).toBe(true);
        expect((await client.callTool('echo_text', { text: 'x', extra: 1 })).isError).toBe(true);
        expect((await client.callTool('throws_tool_error')).content).toEqual([
          { type: 'text', text: TOOL_ERROR_MESSAGE },
        ]);
        expect((await client.request('ping', undefined, {}, 99)).body).toEqual({ jsonrpc: '2.0', id: 99, result: {} });
        expect((await client.post({ jsonrpc: '2.0', method: 'notifications/cancelled', params: {} })).status).toBe(202);
        expect(await client.delete()).toBe(204);
      },
      { bodyParser: true },
    );
  });

  it('warns about the application body parser once, at bootstrap, and not again on requests (Express)', async () => {
    const logger = new RecordingLogger();
    const running = await startApp(
      { imports: [mcpRoot()], providers: [SampleEchoTools] },
      { bodyParser: true, logger },
    );
    const parserWarnings = () => logger.at('warn').filter((line) => /body parser/i.test(line));
    const warnings = onFastify ? 0 : 1;
    try {
      expect(parserWarnings()).toHaveLength(warnings);
      const client = new HttpMcpClient(running.mcpUrl);
      await client.initialize();
      expect(await client.ping()).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
      expect((await client.call('echo', { text: 'parsed' })).status).toBe(200);
      expect(parserWarnings()).toHaveLength(warnings);
    } finally {
      await running.close();
      Logger.overrideLogger(false);
    }
  });

  it('does not warn when the application leaves MCP bodies to mcp42', async () => {
    const logger = new RecordingLogger();
    const running = await startApp(
      { imports: [mcpRoot()], providers: [SampleEchoTools] },
      { bodyParser: false, logger },
    );
    try {
      const client = new HttpMcpClient(running.mcpUrl);
      await client.initialize();
      expect((await client.call('echo', { text: 'raw' })).status).toBe(200);
      expect(logger.at('warn').filter((line) => /body parser/i.test(line))).toEqual([]);
    } finally {
      await running.close();
      Logger.overrideLogger(false);
    }
  });
});
