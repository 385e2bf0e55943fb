import 'reflect-metadata';
import { Injectable, Module } from '@nestjs/common';
import { SpanKind, SpanStatusCode, trace } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { IsString } from 'class-validator';
import {
  McpModule,
  McpPrompt,
  McpResource,
  McpResourceTemplate,
  McpTool,
  McpToolError,
  type McpContext,
} from '../../../src/index.js';
import { mcpTelemetry, type McpTelemetryOptions } from '../../../src/otel/index.js';
import { httpExchange } from '../../utils/http-exchange.js';
import { Meta, ModernClient, MODERN_VERSION } from '../../utils/modern-client.js';
import { openSession, type OpenedSession } from '../../utils/open-session.js';
import { enableContext, TestTelemetry } from '../../utils/otel-sdk.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';

class TextArgs {
  @IsString()
  text!: string;
}

class CityArgs {
  @IsString()
  city!: string;
}

/** What the host tracer saw inside a handler: its span's parent is the MCP server span. */
const HOST_SPAN = 'host work';

@Injectable()
class ObservedItems {
  constructor() {}

  @McpTool({ description: 'Echoes', input: TextArgs })
  echo({ text }: TextArgs): string {
    return text;
  }

  @McpTool({ description: 'Fails as a tool does' })
  broken(): string {
    throw new McpToolError('the backend is down');
  }

  @McpTool({ description: 'Works inside a span of its own, and logs to the client' })
  traced(_args: unknown, ctx: McpContext): string {
    const span = trace.getTracer('host').startSpan(HOST_SPAN);
    span.end();
    ctx.log.info('working');
    return trace.getActiveSpan()?.spanContext().spanId ?? 'no active span';
  }

  @McpTool({ description: 'Asks the user for a name, then greets' })
  async ask(_args: unknown, ctx: McpContext): Promise<string> {
    const answer = await ctx.elicit(
      {
        message: 'Your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
      { key: 'name' },
    );
    return `Hello, ${String(answer.content?.name)}`;
  }

  @McpPrompt({ name: 'greet', description: 'Greets', args: CityArgs })
  greet({ city }: CityArgs): string {
    return `Hello from ${city}`;
  }

  @McpResource({ uri: 'weather://cities', name: 'cities', mimeType: 'application/json' })
  cities(): string {
    return '["Paris"]';
  }

  @McpResourceTemplate({ uriTemplate: 'weather://forecast/{city}', name: 'forecast' })
  forecast({ city }: { city: string }): string {
    return `Sunny in ${city}`;
  }
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;
const HEADER_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const HEADER_PARENT = `00-${HEADER_TRACE_ID}-b7ad6b7169203331-01`;

describe('OpenTelemetry by the MCP semantic conventions', () => {
  const otel = new TestTelemetry();
  let disableContext: () => void;
  let running: RunningApp;
  let session: OpenedSession;
  let nextId = 100;

  const start = async (options: McpTelemetryOptions = {}): Promise<RunningApp> =>
    startApp({
      imports: [
        McpModule.forRoot({
          name: 'observed',
          version: '2.0.0',
          telemetry: mcpTelemetry({
            tracerProvider: otel.tracerProvider,
            meterProvider: otel.meterProvider,
            propagator: otel.propagator,
            ...options,
          }),
        }),
      ],
      providers: [ObservedItems],
    });

  /** One request of the 2025 session; its answer (JSON or the SSE events' last message). */
  const post = async (
    method: string,
    params: Record<string, unknown> = {},
    headers: Record<string, string> = {},
  ): Promise<{ text: string; message: { result?: Record<string, unknown>; error?: { code: number } } }> => {
    const reply = await httpExchange(
      running.mcpUrl,
      'POST',
      { ...session.headers, ...headers },
      JSON.stringify({ jsonrpc: '2.0', id: nextId++, method, params }),
    );
    const data = reply.text.split(/\r?\n/).filter((line) => line.startsWith('data:'));
    const body = data.length > 0 ? data.at(-1)!.slice('data:'.length) : reply.text;
    return { text: reply.text, message: JSON.parse(body) as never };
  };

  beforeAll(async () => {
    disableContext = enableContext();
    // The host's own tracer, as an application's code would get it: the global API.
    trace.setGlobalTracerProvider(otel.tracerProvider);
    running = await start();
  });

  afterAll(async () => {
    await running.close();
    await otel.shutdown();
    trace.disable();
    disableContext();
  });

  beforeEach(async () => {
    session = await openSession(running.mcpUrl);
    otel.reset();
  });

  const attributesOf = (span: ReadableSpan): Record<string, unknown> => ({ ...span.attributes });

  describe('2025 sessions', () => {
    it('records initialize and notifications/initialized as SERVER spans of their own', async () => {
      otel.reset();
      const opened = await openSession(running.mcpUrl);
      const initialize = otel.span('initialize');
      expect(initialize.kind).toBe(SpanKind.SERVER);
      expect(attributesOf(initialize)).toMatchObject({
        'mcp.method.name': 'initialize',
        'mcp.protocol.version': opened.protocolVersion,
        'jsonrpc.request.id': '0',
        'mcp42.server.name': 'observed',
      });
      const initialized = otel.span('notifications/initialized');
      expect(attributesOf(initialized)).toMatchObject({
        'mcp.method.name': 'notifications/initialized',
        'mcp.session.id': opened.id,
      });
      expect(initialized.attributes['jsonrpc.request.id']).toBeUndefined();
    });

    it.each([
      ['ping', {}, 'ping'],
      ['tools/list', {}, 'tools/list'],
      ['tools/call', { name: 'echo', arguments: { text: 'hi' } }, 'tools/call echo'],
      ['prompts/list', {}, 'prompts/list'],
      ['prompts/get', { name: 'greet', arguments: { city: 'Paris' } }, 'prompts/get greet'],
      ['resources/list', {}, 'resources/list'],
      ['resources/templates/list', {}, 'resources/templates/list'],
      ['resources/read', { uri: 'weather://cities' }, 'resources/read'],
      ['resources/subscribe', { uri: 'weather://cities' }, 'resources/subscribe'],
      ['resources/unsubscribe', { uri: 'weather://cities' }, 'resources/unsubscribe'],
      [
        'completion/complete',
        { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'city', value: 'P' } },
        'completion/complete',
      ],
      ['logging/setLevel', { level: 'warning' }, 'logging/setLevel'],
    ])('names %s as the conventions say, with its attributes', async (method, params, name) => {
      const { message } = await post(method, params);
      expect(message.error).toBeUndefined();
      const span = otel.span(name);
      expect(span.kind).toBe(SpanKind.SERVER);
      expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
      expect(attributesOf(span)).toMatchObject({
        'mcp.method.name': method,
        'mcp.protocol.version': session.protocolVersion,
        'mcp.session.id': session.id,
        'jsonrpc.request.id': String(nextId - 1),
        'network.transport': 'tcp',
        'network.protocol.name': 'http',
        'network.protocol.version': '1.1',
        'client.address': '127.0.0.1',
        'client.port': expect.any(Number),
      });
      expect(span.attributes['error.type']).toBeUndefined();
      if (method === 'tools/call') {
        expect(attributesOf(span)).toMatchObject({
          'gen_ai.tool.name': 'echo',
          'gen_ai.operation.name': 'execute_tool',
        });
      } else {
        expect(span.attributes['gen_ai.operation.name']).toBeUndefined();
      }
      if (method === 'prompts/get') expect(span.attributes['gen_ai.prompt.name']).toBe('greet');
      if (method.startsWith('resources/') && 'uri' in params) {
        expect(span.attributes['mcp.resource.uri']).toBe('weather://cities');
      }
    });

    it('takes the parent from params._meta, and links the HTTP headers’ context', async () => {
      await post(
        'tools/call',
        {
          name: 'echo',
          arguments: { text: 'hi' },
          _meta: { traceparent: TRACEPARENT, tracestate: 'rojo=00f067aa0ba902b7' },
        },
        { traceparent: HEADER_PARENT },
      );
      const span = otel.span('tools/call echo');
      expect(span.spanContext().traceId).toBe(TRACE_ID);
      expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
      expect(span.parentSpanContext?.isRemote).toBe(true);
      expect(span.spanContext().traceState?.get('rojo')).toBe('00f067aa0ba902b7');
      expect(span.links.map((link) => link.context.traceId)).toEqual([HEADER_TRACE_ID]);
    });

    it('takes the parent from the W3C headers when _meta has none', async () => {
      await post('tools/call', { name: 'echo', arguments: { text: 'hi' } }, { traceparent: HEADER_PARENT });
      const span = otel.span('tools/call echo');
      expect(span.spanContext().traceId).toBe(HEADER_TRACE_ID);
      expect(span.parentSpanContext?.spanId).toBe('b7ad6b7169203331');
      expect(span.links).toEqual([]);
    });

    it('starts a new trace without any context', async () => {
      await post('tools/list');
      expect(otel.span('tools/list').parentSpanContext).toBeUndefined();
    });

    it('makes the span active in the handler: host spans are its children, messages to the client carry it', async () => {
      const { text, message } = await post('tools/call', {
        name: 'traced',
        _meta: { traceparent: TRACEPARENT },
      });
      const server = otel.span('tools/call traced');
      const host = otel.span(HOST_SPAN);
      expect(host.parentSpanContext?.spanId).toBe(server.spanContext().spanId);
      expect(host.spanContext().traceId).toBe(TRACE_ID);
      expect(message.result).toMatchObject({ content: [{ type: 'text', text: server.spanContext().spanId }] });
      // The log notification went on the POST's SSE stream, the server span's context in its _meta.
      const log = text
        .split(/\r?\n/)
        .filter((line) => line.startsWith('data:'))
        .map((line) => JSON.parse(line.slice('data:'.length)) as { method?: string; params?: { _meta?: unknown } })
        .find((sent) => sent.method === 'notifications/message');
      expect(log?.params?._meta).toEqual({ traceparent: `00-${TRACE_ID}-${server.spanContext().spanId}-01` });
    });

    it('records a JSON-RPC error as error.type and rpc.response.status_code, with the span in error', async () => {
      const { message } = await post('prompts/get', { name: 'no_such_prompt' });
      expect(message.error?.code).toBe(-32602);
      // No such prompt: the name is the client's, kept on the span but out of its name.
      const span = otel.span('prompts/get');
      expect(attributesOf(span)).toMatchObject({
        'error.type': '-32602',
        'rpc.response.status_code': '-32602',
        'gen_ai.prompt.name': 'no_such_prompt',
      });
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
      expect(span.status.message).toMatch(/no_such_prompt/);
      await post('no/such/method');
      expect(attributesOf(otel.span('_OTHER'))).toMatchObject({ 'error.type': '-32601', 'mcp.method.name': '_OTHER' });
    });

    it('names in metrics only methods MCP defines and items the server has; counts an unknown method as a refusal', async () => {
      const notFound = async (): Promise<number> =>
        Number(
          (await otel.points('mcp42.server.refusals', { 'mcp42.refusal.cause': 'method_not_found' }))[0]?.value ?? 0,
        );
      const refused = await notFound();
      for (const method of ['made/up-2025-a', 'made/up-2025-b', 'subscriptions/listen']) {
        expect((await post(method)).message.error?.code).toBe(-32601);
      }
      for (const name of ['made_up_2025_a', 'made_up_2025_b']) {
        await post('tools/call', { name, arguments: {} });
        await post('prompts/get', { name });
      }
      await post('tools/call', { name: 'echo', arguments: { text: 'hi' } });
      expect(otel.spans.map((span) => span.name).sort()).toEqual([
        '_OTHER',
        '_OTHER',
        'prompts/get',
        'prompts/get',
        'subscriptions/listen',
        'tools/call',
        'tools/call',
        'tools/call echo',
      ]);
      const asked = otel.spans
        .filter((span) => span.name === 'tools/call')
        .map((span) => span.attributes['gen_ai.tool.name']);
      expect(asked.sort()).toEqual(['made_up_2025_a', 'made_up_2025_b']);
      const metric = await otel.metric('mcp.server.operation.duration');
      const values = (metric?.dataPoints ?? []).flatMap((point) => Object.values(point.attributes).map(String));
      expect(values.filter((value) => value.includes('made'))).toEqual([]);
      expect(values).toEqual(expect.arrayContaining(['_OTHER', 'echo']));
      // Refused before any handler ran, as a 2026-07-28 request at the door: the two made up, the one not served.
      expect(await notFound()).toBe(refused + 3);
    });

    it('records a tool result with isError as tool_error', async () => {
      const { message } = await post('tools/call', { name: 'broken' });
      expect(message.result?.isError).toBe(true);
      const span = otel.span('tools/call broken');
      expect(span.attributes['error.type']).toBe('tool_error');
      expect(span.attributes['rpc.response.status_code']).toBeUndefined();
      expect(span.status.code).toBe(SpanStatusCode.ERROR);
    });

    it('leaves the tool arguments and result out unless asked for', async () => {
      await post('tools/call', { name: 'echo', arguments: { text: 'secret' } });
      const span = otel.span('tools/call echo');
      expect(span.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
      expect(span.attributes['gen_ai.tool.call.result']).toBeUndefined();
      expect(JSON.stringify(span.attributes)).not.toContain('secret');
    });

    it('records mcp.server.operation.duration and the session metrics', async () => {
      await post('tools/call', { name: 'echo', arguments: { text: 'hi' } });
      const [point] = await otel.points('mcp.server.operation.duration', {
        'mcp.method.name': 'tools/call',
        'gen_ai.tool.name': 'echo',
        'mcp42.server.name': 'observed',
        'mcp.protocol.version': session.protocolVersion,
      });
      expect(point?.value).toMatchObject({ count: expect.any(Number), sum: expect.any(Number) });
      const metric = await otel.metric('mcp.server.operation.duration');
      expect(metric?.descriptor).toMatchObject({ unit: 's' });
      // No id nor session on a metric: too many values.
      expect(point?.attributes['mcp.session.id']).toBeUndefined();
      expect(point?.attributes['jsonrpc.request.id']).toBeUndefined();

      const [live] = await otel.points('mcp42.server.sessions', { 'mcp42.server.name': 'observed' });
      expect(live?.value).toBeGreaterThanOrEqual(1);
      const deleted = await httpExchange(running.mcpUrl, 'DELETE', session.headers);
      expect(deleted.status).toBe(204);
      const [ended] = await otel.points('mcp.server.session.duration', {
        'mcp42.session.end_reason': 'deleted',
        'mcp.protocol.version': session.protocolVersion,
      });
      expect(ended?.value).toMatchObject({ count: expect.any(Number) });

      const unknown = await httpExchange(
        running.mcpUrl,
        'POST',
        { ...session.headers, 'mcp-session-id': 'no-such-session' },
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      );
      expect(unknown.status).toBe(404);
      const [refused] = await otel.points('mcp42.server.refusals', { 'mcp42.refusal.cause': 'session_not_found' });
      expect(refused?.value).toBeGreaterThanOrEqual(1);
      const foreign = await httpExchange(
        running.mcpUrl,
        'POST',
        { ...session.headers, origin: 'https://evil.example' },
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
      );
      expect(foreign.status).toBe(403);
      const [origin] = await otel.points('mcp42.server.refusals', { 'mcp42.refusal.cause': 'origin_not_allowed' });
      expect(origin?.value).toBeGreaterThanOrEqual(1);
    });
  });

  describe('2026-07-28 requests', () => {
    const client = new ModernClient(() => running.mcpUrl);
    afterEach(() => client.closeAll());

    it.each([
      ['server/discover', {}, 'server/discover'],
      ['tools/list', {}, 'tools/list'],
      ['tools/call', { name: 'echo', arguments: { text: 'hi' } }, 'tools/call echo'],
      ['prompts/list', {}, 'prompts/list'],
      ['prompts/get', { name: 'greet', arguments: { city: 'Paris' } }, 'prompts/get greet'],
      ['resources/list', {}, 'resources/list'],
      ['resources/templates/list', {}, 'resources/templates/list'],
      ['resources/read', { uri: 'weather://forecast/Paris' }, 'resources/read'],
      [
        'completion/complete',
        { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'city', value: 'P' } },
        'completion/complete',
      ],
    ])('names %s as the conventions say, without a session', async (method, params, name) => {
      await client.result(method, params, { id: 7 });
      const span = otel.span(name);
      expect(span.kind).toBe(SpanKind.SERVER);
      expect(attributesOf(span)).toMatchObject({
        'mcp.method.name': method,
        'mcp.protocol.version': MODERN_VERSION,
        'jsonrpc.request.id': '7',
        'network.transport': 'tcp',
        'mcp42.server.name': 'observed',
      });
      expect(span.attributes['mcp.session.id']).toBeUndefined();
      if (method === 'resources/read') expect(span.attributes['mcp.resource.uri']).toBe('weather://forecast/Paris');
    });

    it('takes the parent from params._meta next to the envelope', async () => {
      await client.result(
        'tools/call',
        { name: 'echo', arguments: { text: 'hi' } },
        { meta: { traceparent: TRACEPARENT } },
      );
      const span = otel.span('tools/call echo');
      expect(span.spanContext().traceId).toBe(TRACE_ID);
      expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
    });

    it('takes the parent from the W3C headers when _meta has none', async () => {
      await client.result('tools/list', {}, { headers: { traceparent: HEADER_PARENT } });
      expect(otel.span('tools/list').spanContext().traceId).toBe(HEADER_TRACE_ID);
    });

    it('carries the trace across the rounds of a multi round-trip request (input_required)', async () => {
      const first = await client.result('tools/call', { name: 'ask' }, { meta: { traceparent: TRACEPARENT } });
      expect(first.resultType).toBe('input_required');
      const firstRound = otel.span('tools/call ask');
      expect(firstRound.parentSpanContext?.spanId).toBe(PARENT_ID);
      expect(firstRound.status.code).not.toBe(SpanStatusCode.ERROR);
      // The input request is a request to the client in all but transport: its _meta carries the round's context.
      const inputs = first.inputRequests as Record<
        string,
        { method: string; params: { _meta?: Record<string, string> } }
      >;
      expect(inputs.name?.method).toBe('elicitation/create');
      expect(inputs.name?.params._meta?.traceparent).toBe(`00-${TRACE_ID}-${firstRound.spanContext().spanId}-01`);
      otel.reset();

      // The retry comes from the client's span for it (here another of the same trace), or from none.
      const retried = await client.result(
        'tools/call',
        {
          name: 'ask',
          inputResponses: { name: { action: 'accept', content: { name: 'Ann' } } },
          requestState: first.requestState,
        },
        { meta: { traceparent: `00-${TRACE_ID}-${'1'.repeat(16)}-01` } },
      );
      expect(retried.resultType).toBe('complete');
      const secondRound = otel.span('tools/call ask');
      expect(secondRound.parentSpanContext?.spanId).toBe('1'.repeat(16));
      expect(secondRound.links).toEqual([
        {
          context: expect.objectContaining({ traceId: TRACE_ID, spanId: firstRound.spanContext().spanId }),
          attributes: { 'mcp42.link.kind': 'previous_round' },
        },
      ]);
    });

    it('links the rounds of a multi round-trip request when the client sends no trace context', async () => {
      const first = await client.result('tools/call', { name: 'ask' });
      const firstRound = otel.span('tools/call ask');
      const inputs = first.inputRequests as Record<string, { params: { _meta?: Record<string, string> } }>;
      expect(inputs.name?.params._meta?.traceparent).toContain(firstRound.spanContext().spanId);
      otel.reset();
      await client.result('tools/call', {
        name: 'ask',
        inputResponses: { name: { action: 'accept', content: { name: 'Ann' } } },
        requestState: first.requestState,
      });
      const secondRound = otel.span('tools/call ask');
      expect(secondRound.spanContext().traceId).not.toBe(firstRound.spanContext().traceId);
      expect(secondRound.links.map((link) => link.context.spanId)).toEqual([firstRound.spanContext().spanId]);
    });

    it('records a request refused at the door as a SERVER span in error and a refusal by cause', async () => {
      const refusals = async (cause: string): Promise<number> =>
        Number((await otel.points('mcp42.server.refusals', { 'mcp42.refusal.cause': cause }))[0]?.value ?? 0);
      const failed = async (code: string): Promise<unknown> =>
        (await otel.points('mcp.server.operation.duration', { 'mcp.method.name': 'tools/call', 'error.type': code }))[0]
          ?.value;
      const mismatches = await refusals('header_mismatch');
      // Mcp-Method disagrees with the body's method: refused before any dispatcher saw it.
      const mismatch = await client.error(
        400,
        'tools/call',
        { name: 'echo', arguments: { text: 'hi' } },
        { id: 8, headers: { 'mcp-method': 'tools/list' }, meta: { traceparent: TRACEPARENT } },
      );
      expect(mismatch.code).toBe(-32020);
      // A refused request is named by its method alone: its target is the client's word, not a served tool's.
      const span = otel.span('tools/call');
      expect(span.kind).toBe(SpanKind.SERVER);
      expect(span.status).toMatchObject({ code: SpanStatusCode.ERROR, message: mismatch.message });
      expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
      expect(attributesOf(span)).toMatchObject({
        'mcp.method.name': 'tools/call',
        'mcp.protocol.version': MODERN_VERSION,
        'jsonrpc.request.id': '8',
        'error.type': '-32020',
        'rpc.response.status_code': '-32020',
      });
      expect(await refusals('header_mismatch')).toBe(mismatches + 1);
      expect(await failed('-32020')).toMatchObject({ count: 1 });

      otel.reset();
      const unsupported = await client.error(
        400,
        'tools/list',
        {},
        { meta: { [Meta.ProtocolVersion]: '2099-01-01' }, headers: { 'mcp-protocol-version': '2099-01-01' } },
      );
      expect(unsupported.code).toBe(-32022);
      const refused = otel.span('tools/list');
      expect(attributesOf(refused)).toMatchObject({ 'error.type': '-32022', 'rpc.response.status_code': '-32022' });
      // A version the server does not speak is the client's string: kept out of the metric's attributes.
      expect(refused.attributes['mcp.protocol.version']).toBeUndefined();
      expect(await refusals('unsupported_protocol_version')).toBe(1);
    });

    it('names in metrics only the tools and prompts the server has', async () => {
      for (const name of ['made_up_2026_a', 'made_up_2026_b']) {
        await client.send('tools/call', { name, arguments: {} });
        await client.send('prompts/get', { name });
      }
      expect(otel.spans.map((span) => span.name).sort()).toEqual([
        'prompts/get',
        'prompts/get',
        'tools/call',
        'tools/call',
      ]);
      expect(
        otel.spans.map((span) => span.attributes['gen_ai.tool.name'] ?? span.attributes['gen_ai.prompt.name']),
      ).toEqual(['made_up_2026_a', 'made_up_2026_a', 'made_up_2026_b', 'made_up_2026_b']);
      const metric = await otel.metric('mcp.server.operation.duration');
      const values = (metric?.dataPoints ?? []).flatMap((point) => Object.values(point.attributes).map(String));
      expect(values.filter((value) => value.includes('made'))).toEqual([]);
    });

    it('records errors and tool errors', async () => {
      await client.error(200, 'resources/read', { uri: 'weather://nowhere' });
      const read = otel.span('resources/read');
      expect(read.status.code).toBe(SpanStatusCode.ERROR);
      expect(read.attributes['error.type']).toBe(read.attributes['rpc.response.status_code']);
      const result = await client.result('tools/call', { name: 'broken' });
      expect(result.isError).toBe(true);
      expect(otel.span('tools/call broken').attributes['error.type']).toBe('tool_error');
    });
  });

  describe('several servers in one application', () => {
    let two: RunningApp;
    afterEach(async () => two.close());

    it('records each server under its own name, the metrics of one apart from the other', async () => {
      const telemetry = mcpTelemetry({ tracerProvider: otel.tracerProvider, meterProvider: otel.meterProvider });
      @Module({
        imports: [
          McpModule.forRoot({
            name: 'beta',
            version: '1.0.0',
            path: 'beta/mcp',
            items: { tools: ['echo'] },
            telemetry,
          }),
        ],
      })
      class BetaModule {}
      two = await startApp({
        imports: [McpModule.forRoot({ name: 'alpha', version: '1.0.0', telemetry }), BetaModule],
        providers: [ObservedItems],
      });
      const alpha = new ModernClient(() => two.mcpUrl);
      const beta = new ModernClient(() => `${two.baseUrl}/beta/mcp`);
      await alpha.result('tools/call', { name: 'echo', arguments: { text: 'a' } });
      await beta.result('tools/call', { name: 'echo', arguments: { text: 'b' } });
      await beta.result('tools/call', { name: 'echo', arguments: { text: 'b' } });
      alpha.closeAll();
      beta.closeAll();
      const servers = otel.spans
        .filter((span) => span.name === 'tools/call echo')
        .map((span) => span.attributes['mcp42.server.name']);
      expect(servers.sort()).toEqual(['alpha', 'beta', 'beta']);
      const count = async (server: string): Promise<unknown> =>
        (
          await otel.points('mcp.server.operation.duration', {
            'mcp42.server.name': server,
            'gen_ai.tool.name': 'echo',
            'mcp.protocol.version': MODERN_VERSION,
          })
        ).map((point) => (point.value as { count: number }).count);
      expect(await count('alpha')).toEqual([1]);
      expect(await count('beta')).toEqual([2]);
    });
  });

  describe('opt-in attributes', () => {
    let optedIn: RunningApp;
    afterEach(async () => optedIn.close());

    it('records the tool arguments and result, and the resource URI in span names, when asked', async () => {
      optedIn = await start({ captureToolCallContent: true, resourceUriInSpanName: true });
      const client = new ModernClient(() => optedIn.mcpUrl);
      await client.result('tools/call', { name: 'echo', arguments: { text: 'hi' } });
      await client.result('resources/read', { uri: 'weather://cities' });
      client.closeAll();
      const span = otel.span('tools/call echo');
      expect(JSON.parse(span.attributes['gen_ai.tool.call.arguments'] as string)).toEqual({ text: 'hi' });
      expect(JSON.parse(span.attributes['gen_ai.tool.call.result'] as string)).toEqual([{ type: 'text', text: 'hi' }]);
      expect(otel.span('resources/read weather://cities').attributes['mcp.resource.uri']).toBe('weather://cities');
    });
  });
});
