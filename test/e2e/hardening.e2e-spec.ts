/**
 * The hardening commit, end to end: the Origin/Host middleware ahead of every guard, unserialisable
 * results, GET streams whose client left during an async guard, bounded initialize params, hostile
 * arguments, strict content blocks, duplicate in-flight ids, enhancers on tools, the version header
 * on initialize, empty 202 bodies and the body-parser warning.
 */
import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Logger, type ArgumentsHost, type ExecutionContext, type ModuleMetadata } from '@nestjs/common';
import { APP_GUARD, APP_PIPE } from '@nestjs/core';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import http from 'node:http';
import { map } from 'rxjs';
import { EchoTools } from '../../sample-app/echo.tools.js';
import { McpModule, McpSessionRegistry, type McpModuleExtras, type McpModuleOptions } from '../../src/index.js';
import {
  AllowGuard,
  CountingGuard,
  FilteredToolMethod,
  GuardedToolController,
  GuardedToolMethod,
  GuardedToolProvider,
  HardeningTools,
  InterceptedToolMethod,
  PassFilter,
  PassInterceptor,
  PassPipe,
  PipedToolMethod,
  SlowGetGuard,
} from '../fixtures/hardening.tools.js';
import { httpExchange, type HttpResult } from '../utils/http-exchange.js';
import { RecordingLogger } from '../utils/recording-logger.js';
import {
  initializeRequest,
  MCP_POST_HEADERS,
  startApp,
  type RunningApp,
  type StartAppOptions,
} from '../utils/start-app.js';
import { delay } from '../utils/wait.js';

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

interface ReplyBody {
  jsonrpc: string;
  id: string | number | null;
  result?: Record<string, unknown> & { content?: Record<string, unknown>[]; isError?: boolean };
  error?: { code: number; message: string };
}

interface ExchangeOptions {
  readonly method?: 'POST' | 'GET' | 'DELETE';
  readonly headers?: Record<string, string>;
  /** A string is sent as is (hand-written JSON); anything else is JSON-encoded. */
  readonly body?: unknown;
}

/** `httpExchange`, POST unless told, the body JSON-encoded unless a string; 5 s to answer. */
function exchange(url: string, options: ExchangeOptions = {}): Promise<HttpResult> {
  const body =
    options.body === undefined
      ? undefined
      : typeof options.body === 'string'
        ? options.body
        : JSON.stringify(options.body);
  return httpExchange(url, options.method ?? 'POST', options.headers, body, { timeoutMs: 5000 });
}

function json(reply: HttpResult): ReplyBody {
  return JSON.parse(reply.text) as ReplyBody;
}

/** The JSON-RPC message an endpoint's POST answered with; fails unless it is JSON. */
function bodyOf(reply: HttpResult): ReplyBody {
  expect(reply.headers['content-type']).toMatch(/^application\/json\b/);
  return json(reply);
}

/** A small MCP client over `exchange`, for one endpoint. */
class Mcp {
  sessionId: string | undefined;

  constructor(
    readonly url: string,
    private readonly extraHeaders: Record<string, string> = {},
  ) {}

  post(body: unknown, headers: Record<string, string> = {}): Promise<HttpResult> {
    return exchange(this.url, {
      headers: {
        ...MCP_POST_HEADERS,
        ...this.extraHeaders,
        ...(this.sessionId === undefined ? {} : { 'mcp-session-id': this.sessionId }),
        ...headers,
      },
      body,
    });
  }

  async initialize(protocolVersion = '2025-06-18'): Promise<string> {
    const reply = await this.post(initializeRequest(protocolVersion));
    expect(reply.status).toBe(200);
    expect(json(reply).error).toBeUndefined();
    this.sessionId = reply.headers['mcp-session-id'] as string;
    expect(this.sessionId).toMatch(/^[0-9a-f-]{36}$/);
    return this.sessionId;
  }

  call(name: string, args: unknown = {}, id: string | number = 1): Promise<HttpResult> {
    return this.post({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: args } });
  }

  async ping(id: string | number = 'ping'): Promise<ReplyBody> {
    const reply = await this.post({ jsonrpc: '2.0', id, method: 'ping' });
    expect(reply.status).toBe(200);
    return bodyOf(reply);
  }

  get(headers: Record<string, string> = {}): Promise<HttpResult> {
    return exchange(this.url, {
      method: 'GET',
      headers: {
        accept: 'text/event-stream',
        'mcp-session-id': this.sessionId ?? '',
        ...this.extraHeaders,
        ...headers,
      },
    });
  }
}

const mcpRoot = (options: Partial<McpModuleOptions & McpModuleExtras> = {}) =>
  McpModule.forRoot({ name: 'hardening-e2e', version: '1.0.0', ...options });

// ---------------------------------------------------------------------------------------------
// 1. Origin / Host: a middleware ahead of every guard
// ---------------------------------------------------------------------------------------------

describe('the Origin/Host check runs as a middleware before every guard', () => {
  const apps: RunningApp[] = [];

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  async function guarded(options: StartAppOptions = {}): Promise<RunningApp> {
    const running = await startApp(
      {
        imports: [mcpRoot(options.path === undefined ? {} : { path: options.path })],
        providers: [EchoTools, { provide: APP_GUARD, useClass: CountingGuard }],
      },
      options,
    );
    apps.push(running);
    return running;
  }

  const hostOf = (running: RunningApp): string => new URL(running.baseUrl).host;

  function expectForbidden(reply: HttpResult): void {
    expect(reply.status).toBe(403);
    expect(reply.headers['mcp-session-id']).toBeUndefined();
    expect(bodyOf(reply)).toMatchObject({ jsonrpc: '2.0', id: null, error: { code: -32000 } });
  }

  /** Sends initialize, and a POST, a GET and a DELETE on `sessionId`, with `headers`; returns the replies. */
  async function everyMethod(running: RunningApp, sessionId: string, headers: Record<string, string>) {
    const withSession = { ...headers, 'mcp-session-id': sessionId };
    return [
      await exchange(running.mcpUrl, { headers: { ...MCP_POST_HEADERS, ...headers }, body: initializeRequest() }),
      await exchange(running.mcpUrl, {
        headers: { ...MCP_POST_HEADERS, ...withSession },
        body: { jsonrpc: '2.0', id: 1, method: 'ping' },
      }),
      await exchange(running.mcpUrl, { method: 'GET', headers: { ...withSession, accept: 'text/event-stream' } }),
      await exchange(running.mcpUrl, { method: 'DELETE', headers: withSession }),
    ];
  }

  describe.each<[string, StartAppOptions]>([
    ['the default path', {}],
    ['a custom path', { path: 'agents/v1/mcp' }],
    ["app.setGlobalPrefix('api')", { prefix: 'api' }],
  ])('on %s', (_label, options) => {
    let running: RunningApp;

    beforeAll(async () => {
      running = await guarded(options);
    });

    it('serves the endpoint where expected', () => {
      const expected = options.prefix ? '/api/mcp' : `/${options.path ?? 'mcp'}`;
      expect(new URL(running.mcpUrl).pathname).toBe(expected);
    });

    it.each<[string, (running: RunningApp) => Record<string, string>]>([
      ['Host: evil.example.com', () => ({ host: 'evil.example.com' })],
      ['Origin: https://evil.example', (app) => ({ host: hostOf(app), origin: 'https://evil.example' })],
    ])(
      'refuses %s with 403 and a JSON-RPC body on POST, GET and DELETE, and never calls the guard',
      async (_h, make) => {
        const sessionId = await new Mcp(running.mcpUrl).initialize();
        const before = CountingGuard.calls;
        const replies = await everyMethod(running, sessionId, make(running));
        expect(replies).toHaveLength(4);
        for (const reply of replies) expectForbidden(reply);
        expect(CountingGuard.calls).toBe(before);
        // The refused DELETE ended nothing.
        expect(running.app.get(McpSessionRegistry).get(sessionId)).toBeDefined();
      },
    );

    it('lets an allowed request through to the guard', async () => {
      const client = new Mcp(running.mcpUrl, { origin: 'http://localhost:5173' });
      const before = CountingGuard.calls;
      await client.initialize();
      expect(CountingGuard.calls).toBe(before + 1);
      expect((await client.ping()).result).toEqual({});
      expect(CountingGuard.calls).toBe(before + 2);
    });
  });

  it('keeps each application to its own allowedHosts when two run in one process', async () => {
    const start = async (host: string) => {
      const running = await startApp({
        imports: [mcpRoot({ allowedHosts: [host] })],
        providers: [EchoTools],
      });
      apps.push(running);
      return running;
    };
    const [a, b] = [await start('a.example'), await start('b.example')];
    const init = (running: RunningApp, host: string) =>
      exchange(running.mcpUrl, { headers: { ...MCP_POST_HEADERS, host }, body: initializeRequest() });

    expect((await init(a, 'a.example')).status).toBe(200);
    expectForbidden(await init(a, 'b.example'));
    expect((await init(b, 'b.example')).status).toBe(200);
    expectForbidden(await init(b, 'a.example'));
    expectForbidden(await init(a, '127.0.0.1'));
    expectForbidden(await init(b, '127.0.0.1'));
  });
});

// ---------------------------------------------------------------------------------------------
// 2, 4, 5, 6, 7, 8, 10, 11: one application with the hardening tools
// ---------------------------------------------------------------------------------------------

describe('an application serving the hardening tools', () => {
  let running: RunningApp;
  let tools: HardeningTools;
  let registry: McpSessionRegistry;
  let client: Mcp;

  beforeAll(async () => {
    running = await startApp({ imports: [mcpRoot()], providers: [HardeningTools, EchoTools] });
    tools = running.app.get(HardeningTools);
    registry = running.app.get(McpSessionRegistry);
    client = new Mcp(running.mcpUrl);
    await client.initialize();
  });

  afterEach(() => {
    Logger.overrideLogger(false);
    tools.gate.releaseAll();
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
      const old = new Mcp(running.mcpUrl);
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

  describe('initialize params', () => {
    it('larger than 64 KiB are refused with -32602 and create no session; a normal initialize still works', async () => {
      const before = registry.size;
      const huge = initializeRequest('2025-06-18', 'huge') as { params: { capabilities: object } };
      huge.params.capabilities = { experimental: { blob: { data: 'x'.repeat(65 * 1024) } } };

      const reply = await exchange(running.mcpUrl, { headers: { ...MCP_POST_HEADERS }, body: huge });

      expect(reply.status).toBe(200);
      expect(reply.headers['mcp-session-id']).toBeUndefined();
      const body = bodyOf(reply);
      expect(body.id).toBe('huge');
      expect(body.error?.code).toBe(-32602);
      expect(body.result).toBeUndefined();
      expect(registry.size).toBe(before);

      await new Mcp(running.mcpUrl).initialize();
      expect(registry.size).toBe(before + 1);
    });

    it('ignore an unsupported MCP-Protocol-Version header on initialize, but not on later requests', async () => {
      const fresh = new Mcp(running.mcpUrl, { 'mcp-protocol-version': '1999-01-01' });
      const reply = await fresh.post(initializeRequest('2025-06-18', 'init'));
      expect(reply.status).toBe(200);
      expect(bodyOf(reply).result?.protocolVersion).toBe('2025-06-18');
      fresh.sessionId = reply.headers['mcp-session-id'] as string;
      expect(registry.get(fresh.sessionId)).toBeDefined();

      const list = await fresh.post({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(list.status).toBe(400);
      const ok = await fresh.post(
        { jsonrpc: '2.0', id: 3, method: 'tools/list' },
        { 'mcp-protocol-version': '2025-06-18' },
      );
      expect(ok.status).toBe(200);
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
      const sdk = new Client({ name: 'hardening-sdk', version: '1.0.0' });
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

  describe('request ids in flight', () => {
    it('refuses a second tools/call with the id of a running one (-32600); the id is free again afterwards', async () => {
      const first = client.call('hold', {}, 7);
      await tools.gate.whenWaiting(1);

      // Were the second call run, it would wait on the gate: race its start against its reply, so such a
      // failure is reported at once instead of hanging.
      const secondRan = tools.gate.whenWaiting(2).then(() => 'the second call ran' as const);
      const outcome = await Promise.race([client.call('hold', {}, 7), secondRan]);
      if (outcome === 'the second call ran') tools.gate.releaseAll();
      expect(outcome).not.toBe('the second call ran');
      const second = outcome as HttpResult;
      expect(second.status).toBe(200);
      const refused = bodyOf(second);
      expect(refused.id).toBe(7);
      expect(refused.error?.code).toBe(-32600);
      expect(refused.result).toBeUndefined();

      tools.gate.releaseAll();
      expect(bodyOf(await first)).toEqual({
        jsonrpc: '2.0',
        id: 7,
        result: { content: [{ type: 'text', text: 'released' }] },
      });

      const again = client.call('hold', {}, 7);
      await tools.gate.whenWaiting(1);
      tools.gate.releaseAll();
      expect(bodyOf(await again).result).toEqual({ content: [{ type: 'text', text: 'released' }] });
    });

    it('refuses the second of two same-id calls to a tool with an input DTO in one 2025-03-26 batch', async () => {
      const old = new Mcp(running.mcpUrl);
      await old.initialize('2025-03-26');
      const call = {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'hold_note', arguments: { text: 'a' } },
      };
      const reply = old.post([call, call]);
      await tools.gate.whenWaiting(1);
      await delay(50); // time enough for a second call to start too
      const runningCalls = tools.gate.waiting;
      tools.gate.releaseAll();
      const replies = JSON.parse((await reply).text) as ReplyBody[];

      expect(runningCalls).toBe(1);
      expect(replies).toHaveLength(2);
      expect(replies.map((body) => body.error?.code ?? 'result').sort()).toEqual([-32600, 'result']);
    });

    it('the same id on another session is not in use', async () => {
      const other = new Mcp(running.mcpUrl);
      await other.initialize();
      const first = client.call('hold', {}, 'shared');
      await tools.gate.whenWaiting(1);
      const second = other.call('hold', {}, 'shared');
      await tools.gate.whenWaiting(2);
      tools.gate.releaseAll();
      expect(bodyOf(await first).result).toEqual({ content: [{ type: 'text', text: 'released' }] });
      expect(bodyOf(await second).result).toEqual({ content: [{ type: 'text', text: 'released' }] });
    });
  });

  describe('202 Accepted', () => {
    function expectEmpty202(reply: HttpResult): void {
      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
      expect(reply.headers['content-length']).toBe('0');
      expect(reply.headers['transfer-encoding']).toBeUndefined();
    }

    it('a notification has content-length: 0 and is not chunked', async () => {
      expectEmpty202(await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    });

    it('a response from the client has content-length: 0 and is not chunked', async () => {
      expectEmpty202(await client.post({ jsonrpc: '2.0', id: 'srv-1', result: {} }));
    });

    it('a 2025-03-26 batch of notifications has content-length: 0 and is not chunked', async () => {
      const old = new Mcp(running.mcpUrl);
      await old.initialize('2025-03-26');
      expectEmpty202(
        await old.post([
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
        ]),
      );
    });
  });
});

// ---------------------------------------------------------------------------------------------
// 3. GET whose client gave up while an async guard was still running
// ---------------------------------------------------------------------------------------------

describe('a GET abandoned while an async guard runs', () => {
  const idleMs = 5_000;
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp({
      imports: [
        McpModule.forRoot({
          name: 'slow-guard-e2e',
          version: '1.0.0',
          guards: [SlowGetGuard],
          sessionIdleTimeoutMs: idleMs,
        }),
      ],
      providers: [EchoTools],
    });
  });

  afterAll(async () => {
    await running?.close();
  });

  /** Opens a GET and aborts it after 50 ms; resolves once the guard has let it through (too late). */
  async function abandonedGet(sessionId: string): Promise<void> {
    const finished = SlowGetGuard.nextFinish();
    const req = http.request(running.mcpUrl, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId },
      agent: false,
    });
    req.on('error', () => undefined);
    req.end();
    await delay(50);
    req.destroy();
    await finished;
    await delay(30); // the handler runs right after the guard
  }

  it('leaves no stream attached: a new GET on the session gets 200, not 409', async () => {
    const client = new Mcp(running.mcpUrl);
    const sessionId = await client.initialize();
    await abandonedGet(sessionId);

    expect(running.app.get(McpSessionRegistry).get(sessionId)?.hasStream).toBe(false);
    const again = await client.get();
    expect(again.status).toBe(200);
    expect(again.headers['content-type']).toMatch(/^text\/event-stream\b/);
  });

  it('lets the session be swept as idle, after which it answers 404', async () => {
    const registry = running.app.get(McpSessionRegistry);
    const client = new Mcp(running.mcpUrl);
    const sessionId = await client.initialize();
    await abandonedGet(sessionId);

    expect(registry.sweep(Date.now() + 10 * idleMs)).toBeGreaterThanOrEqual(1);
    expect(registry.get(sessionId)).toBeUndefined();
    const reply = await client.post({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(reply.status).toBe(404);
  });
});

// ---------------------------------------------------------------------------------------------
// 9. Nest enhancers on tools
// ---------------------------------------------------------------------------------------------

describe('Nest enhancers on tools', () => {
  // Nest binds filters (and may bind other enhancers) when it builds a tool's pipeline at bootstrap:
  // spies go on the fixtures' prototypes before the application starts.
  afterEach(() => {
    jest.restoreAllMocks();
    Logger.overrideLogger(false);
  });

  async function serve(
    metadata: ModuleMetadata,
    logger?: RecordingLogger,
  ): Promise<{ running: RunningApp; client: Mcp }> {
    const running = await startApp({ imports: [mcpRoot()], ...metadata }, logger ? { logger } : {});
    const client = new Mcp(running.mcpUrl);
    await client.initialize();
    return { running, client };
  }

  async function listedNames(client: Mcp): Promise<string[]> {
    const reply = await client.post({ jsonrpc: '2.0', id: 'list', method: 'tools/list' });
    return (bodyOf(reply).result?.tools as { name: string }[]).map((tool) => tool.name);
  }

  const unknownTool = (name: string) => ({ content: [{ type: 'text', text: `Unknown tool: ${name}` }], isError: true });

  it.each<[string, ModuleMetadata, string]>([
    ['method-level @UseGuards', { providers: [GuardedToolMethod] }, 'guarded_method'],
    ['class-level @UseGuards on a plain provider', { providers: [GuardedToolProvider] }, 'in_guarded_provider'],
    ['class-level @UseGuards on a controller', { controllers: [GuardedToolController] }, 'in_guarded_controller'],
  ])('%s no longer fails bootstrap: the guard runs for the tool, in an mcp context', async (_label, metadata, name) => {
    const canActivate = jest.spyOn(AllowGuard.prototype, 'canActivate');
    const logger = new RecordingLogger();
    const { running, client } = await serve(metadata, logger);
    try {
      expect(logger.at('warn')).toEqual([]);
      expect(await listedNames(client)).toEqual([name]);
      expect(bodyOf(await client.call(name)).result?.isError).toBeUndefined();
      // Once to list the tool, once to call it; both in the MCP execution context.
      const contexts = canActivate.mock.calls.map((call) =>
        ((call as unknown[])[0] as ExecutionContext).getType<string>(),
      );
      expect(contexts).toEqual(['mcp', 'mcp']);

      canActivate.mockReturnValue(false);
      expect(await listedNames(client)).toEqual([]);
      expect(bodyOf(await client.call(name)).result).toEqual(unknownTool(name));
    } finally {
      await running.close();
    }
  });

  it('method-level @UseInterceptors no longer fails bootstrap: the interceptor wraps the call and may map it', async () => {
    const intercept = jest
      .spyOn(PassInterceptor.prototype, 'intercept')
      .mockImplementation((_context, next) => next.handle().pipe(map((value) => `${String(value)}, intercepted`)));
    const { running, client } = await serve({ providers: [InterceptedToolMethod] });
    try {
      expect(bodyOf(await client.call('intercepted_method')).result).toEqual({
        content: [{ type: 'text', text: 'ok, intercepted' }],
      });
      expect(intercept).toHaveBeenCalledTimes(1);
      expect((intercept.mock.calls[0]![0] as ExecutionContext).getType<string>()).toBe('mcp');
    } finally {
      await running.close();
    }
  });

  it('method-level @UsePipes no longer fails bootstrap: the pipe gets the arguments', async () => {
    const transform = jest.spyOn(PassPipe.prototype, 'transform');
    const { running, client } = await serve({ providers: [PipedToolMethod] });
    try {
      expect(bodyOf(await client.call('piped_method')).result).toEqual({ content: [{ type: 'text', text: 'ok' }] });
      expect(transform.mock.calls.map(([value]) => value)).toContainEqual({});
    } finally {
      await running.close();
    }
  });

  it('method-level @UseFilters no longer fails bootstrap: a failure inside the pipeline reaches the filter', async () => {
    // A global pipe that fails stands in for any failure of the tool's pipeline.
    jest.spyOn(PassPipe.prototype, 'transform').mockImplementation(() => {
      throw new Error('pipe failure');
    });
    const catchSpy = jest.spyOn(PassFilter.prototype, 'catch').mockReturnValue('handled by PassFilter' as never);
    const { running, client } = await serve({
      providers: [FilteredToolMethod, { provide: APP_PIPE, useClass: PassPipe }],
    });
    try {
      expect(bodyOf(await client.call('filtered_method')).result).toEqual({
        content: [{ type: 'text', text: 'handled by PassFilter' }],
      });
      expect(catchSpy).toHaveBeenCalledTimes(1);
      const [exception, host] = catchSpy.mock.calls[0] as unknown as [Error, ArgumentsHost];
      expect(exception.message).toBe('pipe failure');
      expect(host.getType<string>()).toBe('mcp');
    } finally {
      await running.close();
    }
  });
});

// ---------------------------------------------------------------------------------------------
// 12. Nest's default body parser
// ---------------------------------------------------------------------------------------------

describe("with Nest's default body parser", () => {
  it('warns about the application body parser once, at bootstrap, and not again on requests', async () => {
    const logger = new RecordingLogger();
    const running = await startApp({ imports: [mcpRoot()], providers: [EchoTools] }, { bodyParser: true, logger });
    const parserWarnings = () => logger.at('warn').filter((line) => /body parser/i.test(line));
    try {
      expect(parserWarnings()).toHaveLength(1);
      const client = new Mcp(running.mcpUrl);
      await client.initialize();
      expect(await client.ping()).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
      expect((await client.call('echo', { text: 'parsed' })).status).toBe(200);
      expect(parserWarnings()).toHaveLength(1);
    } finally {
      await running.close();
      Logger.overrideLogger(false);
    }
  });

  it('does not warn when the application leaves MCP bodies to mcp42', async () => {
    const logger = new RecordingLogger();
    const running = await startApp({ imports: [mcpRoot()], providers: [EchoTools] }, { bodyParser: false, logger });
    try {
      const client = new Mcp(running.mcpUrl);
      await client.initialize();
      expect((await client.call('echo', { text: 'raw' })).status).toBe(200);
      expect(logger.at('warn').filter((line) => /body parser/i.test(line))).toEqual([]);
    } finally {
      await running.close();
      Logger.overrideLogger(false);
    }
  });
});
