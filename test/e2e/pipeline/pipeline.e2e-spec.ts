/**
 * Tools behind Nest's own pipeline, with the official SDK client over real HTTP: interceptors,
 * method and parameter pipes, exception filters, HTTP exceptions, a global APP_INTERCEPTOR,
 * request-scoped tool providers, `@McpSession()` and custom parameter decorators; and, over raw
 * HTTP, guards, interceptors, pipes and filters declared on tool methods, providers and controllers.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, McpError } from '@modelcontextprotocol/sdk/types.js';
import { jest } from '@jest/globals';
import {
  Inject,
  Injectable,
  Logger,
  Scope,
  type ArgumentsHost,
  type CanActivate,
  type ExecutionContext,
  type ModuleMetadata,
} from '@nestjs/common';
import { APP_GUARD, APP_INTERCEPTOR, APP_PIPE, ContextIdFactory, REQUEST } from '@nestjs/core';
import { map } from 'rxjs';
import type { IncomingMessage } from 'node:http';
import { McpModule } from '../../../src/index.js';
import { Gate } from '../../fixtures/gate.js';
import {
  AuditInterceptor,
  BodyParamTools,
  CallJournal,
  FixtureBearerGuard,
  PipelineTools,
  TenantContextIdStrategy,
  TenantCounterTools,
  TenantTools,
  UPSTREAM_SECRET,
  type TenantView,
} from '../../fixtures/pipeline.tools.js';
import {
  AllowGuard,
  FilteredToolMethod,
  GuardedToolController,
  GuardedToolMethod,
  GuardedToolProvider,
  InterceptedToolMethod,
  PassFilter,
  PassInterceptor,
  PassPipe,
  PipedToolMethod,
} from '../../fixtures/tool-enhancers.tools.js';
import { definitionError } from '../../utils/bootstrap-failure.js';
import { bodyOf, HttpMcpClient } from '../../utils/http-mcp-client.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { openSession } from '../../utils/open-session.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { thrown } from '../../utils/thrown.js';
import { onlyText } from '../../utils/tool-results.js';
import { useSdkClients, type SdkConnection } from '../../utils/sdk-clients.js';

const CLIENT_INFO = { name: 'pipeline-e2e', version: '1.0.0' };

describe("tools behind Nest's pipeline (SDK client, e2e)", () => {
  let running: RunningApp;
  let journal: CallJournal;
  const logger = new RecordingLogger();

  const connect = (headers: Record<string, string> = {}, token = 'reader-token'): Promise<SdkConnection> =>
    sdk.connect(running.mcpUrl, { info: CLIENT_INFO, headers: { authorization: `Bearer ${token}`, ...headers } });

  beforeAll(async () => {
    running = await startApp(
      {
        imports: [McpModule.forRoot({ name: 'pipeline-e2e', version: '1.0.0', guards: [FixtureBearerGuard] })],
        providers: [
          CallJournal,
          PipelineTools,
          TenantTools,
          Gate,
          { provide: APP_INTERCEPTOR, useClass: AuditInterceptor },
        ],
      },
      { logger },
    );
    journal = running.app.get(CallJournal);
  });

  beforeEach(() => {
    logger.entries.length = 0;
    journal.reset();
  });

  afterEach(() => {
    running.app.get(Gate).releaseAll();
  });

  const sdk = useSdkClients();

  afterAll(async () => {
    await running.close();
    Logger.overrideLogger(false);
  });

  describe('interceptors', () => {
    test("@UseInterceptors: sees the 'mcp' context, the tool, its validated arguments and session; maps the result", async () => {
      const { client, transport } = await connect();

      const result = await client.callTool({ name: 'timed_forecast', arguments: { city: 'Lisbon' } });

      expect(result.content).toEqual([{ type: 'text', text: 'Forecast for Lisbon (timed)' }]);
      expect(result._meta).toEqual({ 'fixture/timing': { tool: 'timed_forecast', durationMs: expect.any(Number) } });
      expect(journal.timings).toEqual([
        {
          type: 'mcp',
          tool: 'timed_forecast',
          phase: 'call',
          arguments: { city: 'Lisbon' },
          argumentsAreDto: true,
          sessionId: transport.sessionId,
          handler: 'timedForecast',
          className: 'PipelineTools',
          durationMs: expect.any(Number),
        },
      ]);
      expect(journal.timings[0]!.durationMs).toBeGreaterThanOrEqual(0);
    });

    test('do not run for a call whose arguments fail validation', async () => {
      const { client } = await connect();
      const result = await client.callTool({ name: 'timed_forecast', arguments: { city: '' } });
      expect(result.isError).toBe(true);
      expect(journal.timings).toEqual([]);
    });

    test("a global APP_INTERCEPTOR applies to tool calls with context type 'mcp' (and to the HTTP endpoint)", async () => {
      const { client } = await connect();

      await client.callTool({ name: 'timed_forecast', arguments: { city: 'Faro' } });
      await client.callTool({ name: 'city_name', arguments: { city: 'faro' } });

      const mcp = journal.audits.filter((audit) => audit.type === 'mcp');
      expect(mcp).toEqual([
        { type: 'mcp', tool: 'timed_forecast' },
        { type: 'mcp', tool: 'city_name' },
      ]);
      // The endpoint's own route is an HTTP handler: the global interceptor sees its requests as such.
      expect(journal.audits.some((audit) => audit.type === 'http')).toBe(true);
      expect(journal.audits.every((audit) => audit.type === 'mcp' || audit.type === 'http')).toBe(true);
    });
  });

  describe('pipes', () => {
    test('@UsePipes at method level transforms the validated arguments the handler gets', async () => {
      const { client } = await connect();

      const result = await client.callTool({ name: 'shout_city', arguments: { city: 'lisbon' } });

      expect(JSON.parse(onlyText(result))).toEqual({ city: 'LISBON', isDto: true });
      // The pipe got the arguments after validation, as the DTO, with their metatype.
      expect(journal.pipeCalls).toContainEqual(
        expect.objectContaining({ metatype: 'CityArgs', value: { city: 'lisbon' } }),
      );
    });

    test('arguments that fail validation never reach the pipe', async () => {
      const { client } = await connect();
      const result = await client.callTool({ name: 'shout_city', arguments: { city: 7 } });
      expect(result.isError).toBe(true);
      expect(onlyText(result)).toMatch(/^Invalid arguments for tool shout_city:/);
      expect(journal.pipeCalls).toEqual([]);
    });

    test("@McpArgs('city', CityNamePipe) gives the handler the transformed property only", async () => {
      const { client } = await connect();
      const result = await client.callTool({ name: 'city_name', arguments: { city: '  lISBON ' } });
      expect(JSON.parse(onlyText(result))).toEqual({ city: 'Lisbon', raw: '  lISBON ' });
    });

    test("@McpArgs('city', new CityNamePipe()) takes a pipe instance as well", async () => {
      const { client } = await connect();
      const result = await client.callTool({ name: 'city_name_instance', arguments: { city: ' pORTO' } });
      expect(onlyText(result)).toBe('Porto');
    });
  });

  describe('exception filters and exceptions', () => {
    test('@UseFilters(DomainErrorFilter) turns a domain exception into an isError result; nothing is logged', async () => {
      const { client } = await connect();

      const result = await client.callTool({ name: 'book_trip', arguments: { outcome: 'domain' } });

      expect(result).toEqual({
        content: [{ type: 'text', text: 'book_trip refused: trips to Atlantis are not allowed' }],
        isError: true,
      });
      expect(journal.filtered).toEqual(['mcp:book_trip']);
      expect(logger.at('error')).toEqual([]);
    });

    test("a filter that returns a string answers with that text: the filter decides the call's result", async () => {
      const { client } = await connect();
      const result = await client.callTool({ name: 'book_trip_politely', arguments: { outcome: 'domain' } });
      expect(result).toEqual({ content: [{ type: 'text', text: 'Sorry: trips to Atlantis are not allowed' }] });
      expect(logger.at('error')).toEqual([]);
    });

    test('a filter catches only what it names: an HttpException < 500 is an isError result with its message', async () => {
      const { client } = await connect();

      const result = await client.callTool({ name: 'book_trip', arguments: { outcome: 'not-found' } });

      expect(result).toEqual({
        content: [{ type: 'text', text: 'Tool book_trip failed: No flights to Atlantis' }],
        isError: true,
      });
      expect(journal.filtered).toEqual([]);
      expect(logger.at('error')).toEqual([]);
    });

    test.each([
      ['a 5xx HttpException', 'book_trip', 'unavailable'],
      ['a plain Error', 'book_trip', 'crash'],
      ['a domain exception no filter catches', 'book_trip_unfiltered', 'domain'],
    ])(
      '%s is JSON-RPC -32603 that leaks nothing, is logged with the tool named, and serving goes on',
      async (_label, name, outcome) => {
        const { client } = await connect();

        const error = await thrown(client.callTool({ name, arguments: { outcome } }));

        expect(error).toBeInstanceOf(McpError);
        expect((error as McpError).code).toBe(ErrorCode.InternalError);
        expect((error as McpError).data).toBeUndefined();
        for (const leak of [UPSTREAM_SECRET, 'Atlantis', 'Exception', 'Error:', ' at ']) {
          expect((error as McpError).message).not.toContain(leak);
        }
        const errors = logger.at('error');
        expect(errors.some((line) => line.includes(name))).toBe(true);
        const detail = outcome === 'domain' ? 'trips to Atlantis are not allowed' : UPSTREAM_SECRET;
        expect(errors.some((line) => line.includes(detail))).toBe(true);

        expect(onlyText(await client.callTool({ name, arguments: { outcome: 'ok' } }))).toBe('booked');
      },
    );
  });

  describe('request-scoped tool providers', () => {
    test('each call gets its own instance, with its own HTTP request (headers) and MCP session injected', async () => {
      const alpha = await connect({ 'x-tenant': 'alpha' });
      const beta = await connect({ 'x-tenant': 'beta' }, 'writer-token');
      const gate = running.app.get(Gate);

      // Both calls run at once: each must still see its own request and session.
      const pendingAlpha = alpha.client.callTool({ name: 'tenant_probe', arguments: { hold: true } });
      const pendingBeta = beta.client.callTool({ name: 'tenant_probe', arguments: { hold: true } });
      await gate.whenWaiting(2);
      gate.releaseAll();
      const views = (await Promise.all([pendingAlpha, pendingBeta])).map(
        (result) => JSON.parse(onlyText(result)) as TenantView,
      );

      expect(views[0]).toEqual({
        tenant: 'alpha',
        sessionId: alpha.transport.sessionId,
        instance: expect.any(Number),
        sameRequestAsContext: true,
      });
      expect(views[1]).toEqual({
        tenant: 'beta',
        sessionId: beta.transport.sessionId,
        instance: expect.any(Number),
        sameRequestAsContext: true,
      });
      expect(alpha.transport.sessionId).not.toBe(beta.transport.sessionId);
      expect(views[0]!.instance).not.toBe(views[1]!.instance);
    });

    test('two calls of one session are two requests: two instances', async () => {
      const { client, transport } = await connect({ 'x-tenant': 'gamma' });
      const first = JSON.parse(onlyText(await client.callTool({ name: 'tenant_probe', arguments: {} }))) as TenantView;
      const second = JSON.parse(onlyText(await client.callTool({ name: 'tenant_probe', arguments: {} }))) as TenantView;
      expect([first.tenant, second.tenant]).toEqual(['gamma', 'gamma']);
      expect([first.sessionId, second.sessionId]).toEqual([transport.sessionId, transport.sessionId]);
      expect(second.instance).not.toBe(first.instance);
    });

    test('is listed like any other tool', async () => {
      const { client } = await connect();
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('tenant_probe');
    });
  });

  describe('parameter decorators', () => {
    test('@McpSession() gives the session handle; a createParamDecorator() @CurrentUser() gives request.user', async () => {
      const { client, transport } = await connect({}, 'writer-token');

      const info = JSON.parse(onlyText(await client.callTool({ name: 'session_info', arguments: {} }))) as Record<
        string,
        unknown
      >;

      expect(info).toEqual({
        id: transport.sessionId,
        contextSessionId: transport.sessionId,
        protocolVersion: transport.protocolVersion,
        client: CLIENT_INFO.name,
        owner: 'writer',
        ended: false,
        user: 'writer',
      });
    });

    test('@Body() on a tool method fails bootstrap with a message naming the method', async () => {
      const error = await definitionError({
        imports: [McpModule.forRoot({ name: 'body-param', version: '1.0.0' })],
        providers: [BodyParamTools],
      });
      expect(error.message).toContain('BodyParamTools.withBody');
      expect(error.message).toContain('@Body()');
    });
  });
});

describe('a durable tool provider with a ContextIdFactory strategy (SDK client, e2e)', () => {
  let running: RunningApp;
  const sdk = useSdkClients({ closeAfter: 'all' });

  const connect = async (tenant: string): Promise<Client> =>
    (await sdk.connect(running.mcpUrl, { info: CLIENT_INFO, headers: { 'x-tenant': tenant } })).client;

  const count = async (client: Client): Promise<unknown> =>
    JSON.parse(onlyText(await client.callTool({ name: 'tenant_counter', arguments: {} })));

  beforeAll(async () => {
    ContextIdFactory.apply(new TenantContextIdStrategy());
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'durable-e2e', version: '1.0.0' })],
      providers: [TenantCounterTools],
    });
  });

  afterAll(async () => {
    await running.close();
    ContextIdFactory.apply(undefined as never);
  });

  test('is shared by the requests of one tenant, across sessions, and gets the strategy payload as REQUEST', async () => {
    const alpha1 = await connect('alpha');
    const alpha2 = await connect('alpha');
    const beta = await connect('beta');

    expect(await count(alpha1)).toEqual({ payload: { tenant: 'alpha' }, calls: 1 });
    expect(await count(alpha2)).toEqual({ payload: { tenant: 'alpha' }, calls: 2 });
    expect(await count(beta)).toEqual({ payload: { tenant: 'beta' }, calls: 1 });
    expect(await count(alpha1)).toEqual({ payload: { tenant: 'alpha' }, calls: 3 });
  });
});

/** A request-scoped global guard that needs its constructor to have run (it reads the injected request). */
@Injectable({ scope: Scope.REQUEST })
class TenantHeaderGuard implements CanActivate {
  static seen: string[] = [];
  private readonly tenant: unknown;

  constructor(@Inject(REQUEST) request: IncomingMessage) {
    this.tenant = request.headers['x-tenant'];
  }

  canActivate(context: ExecutionContext): boolean {
    TenantHeaderGuard.seen.push(`${context.getType()}:${String(this.tenant)}`);
    return this.tenant !== undefined;
  }
}

@Injectable({ scope: Scope.TRANSIENT })
class TransientGlobalGuard implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

describe('transient global enhancers and MCP tools (e2e)', () => {
  test('fail bootstrap, naming the enhancer: Nest builds them per controller, never for a tool provider', async () => {
    const error = await definitionError({
      imports: [McpModule.forRoot({ name: 'transient-e2e', version: '1.0.0' })],
      providers: [PipelineTools, CallJournal, { provide: APP_GUARD, useClass: TransientGlobalGuard }],
    });
    expect(error.message).toMatch(/TransientGlobalGuard/);
    expect(error.message).toMatch(/APP_GUARD/);
  });
});

describe('durable and request-scoped tool providers met in one HTTP request (raw HTTP batch, e2e)', () => {
  let running: RunningApp;

  beforeAll(async () => {
    ContextIdFactory.apply(new TenantContextIdStrategy());
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'mixed-scopes-e2e', version: '1.0.0' })],
      providers: [
        TenantCounterTools,
        TenantTools,
        Gate,
        CallJournal,
        { provide: APP_GUARD, useClass: TenantHeaderGuard },
      ],
    });
  });

  afterAll(async () => {
    await running.close();
    ContextIdFactory.apply(undefined as never);
  });

  test.each([
    ['durable first', ['tenant_counter', 'tenant_probe']],
    ['request-scoped first', ['tenant_probe', 'tenant_counter']],
  ])('%s: each gets its own REQUEST (the payload, the HTTP request)', async (_order, names) => {
    // 2025-03-26, for a batch.
    const { headers } = await openSession(running.mcpUrl, {
      protocolVersion: '2025-03-26',
      headers: { 'x-tenant': 'alpha' },
    });
    const answer = await fetch(running.mcpUrl, {
      method: 'POST',
      headers,
      body: JSON.stringify(
        names.map((name, index) => ({
          jsonrpc: '2.0',
          id: index + 1,
          method: 'tools/call',
          params: { name, arguments: {} },
        })),
      ),
    });
    const results = (await answer.json()) as {
      id: number;
      result?: { content: { text: string }[] };
      error?: unknown;
    }[];
    const byName = new Map(results.map((entry) => [names[entry.id - 1], entry]));
    expect(byName.get('tenant_probe')?.error).toBeUndefined();
    expect((JSON.parse(byName.get('tenant_probe')!.result!.content[0]!.text) as TenantView).tenant).toBe('alpha');
    expect(JSON.parse(byName.get('tenant_counter')!.result!.content[0]!.text)).toMatchObject({
      payload: { tenant: 'alpha' },
    });
    // The request-scoped global guard ran, fully built, for both tools (durable one included).
    expect(TenantHeaderGuard.seen.filter((entry) => entry === 'mcp:alpha').length).toBeGreaterThanOrEqual(2);
    expect(TenantHeaderGuard.seen.some((entry) => entry.endsWith(':undefined'))).toBe(false);
  });
});

describe('Nest enhancers declared on tools, over raw HTTP (e2e)', () => {
  // Nest binds filters (and may bind other enhancers) when it builds a tool's pipeline at bootstrap:
  // spies go on the fixtures' prototypes before the application starts.
  afterEach(() => {
    jest.restoreAllMocks();
    Logger.overrideLogger(false);
  });

  async function serve(
    metadata: ModuleMetadata,
    logger?: RecordingLogger,
  ): Promise<{ running: RunningApp; client: HttpMcpClient }> {
    const running = await startApp(
      { imports: [McpModule.forRoot({ name: 'tool-enhancers-e2e', version: '1.0.0' })], ...metadata },
      logger ? { logger } : {},
    );
    const client = new HttpMcpClient(running.mcpUrl);
    await client.initialize();
    return { running, client };
  }

  async function listedNames(client: HttpMcpClient): Promise<string[]> {
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
