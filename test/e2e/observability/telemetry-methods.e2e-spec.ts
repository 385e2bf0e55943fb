/**
 * Every method of both eras, table-driven, with the real OpenTelemetry SDK: each message the server
 * takes is one SERVER span named as the conventions say, with their attributes, its parent from
 * `params._meta` or else from the W3C headers, errors recorded as errors, and the opt-in attributes
 * left out. The tables are checked against the eras' method lists, so a method added to an era
 * without a row here fails this spec.
 */
import 'reflect-metadata';
import { Injectable } from '@nestjs/common';
import { SpanKind, SpanStatusCode } from '@opentelemetry/api';
import type { ReadableSpan } from '@opentelemetry/sdk-trace-base';
import { IsString } from 'class-validator';
import { McpModule, McpPrompt, McpResource, McpTool } from '../../../src/index.js';
import { mcpTelemetry } from '../../../src/otel/index.js';
import { LEGACY_METHODS, LEGACY_NOTIFICATIONS, MODERN_METHODS } from '../../internals/index.js';
import { httpExchange } from '../../utils/http-exchange.js';
import { ModernClient, MODERN_VERSION } from '../../utils/modern-client.js';
import { openSession, type OpenedSession } from '../../utils/open-session.js';
import { enableContext, TestTelemetry } from '../../utils/otel-sdk.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';

class CityArgs {
  @IsString()
  city!: string;
}

@Injectable()
class Items {
  @McpTool({ description: 'Echoes' })
  echo(): string {
    return 'echo';
  }

  /** Makes the server declare tasks: the 2026-07-28 tasks methods are served only then. */
  @McpTool({ description: 'Runs as a task when asked', task: 'optional' })
  batch(): string {
    return 'done';
  }

  @McpPrompt({ name: 'greet', description: 'Greets', args: CityArgs })
  greet({ city }: CityArgs): string {
    return `Hello from ${city}`;
  }

  @McpResource({ uri: 'weather://cities', name: 'cities', mimeType: 'application/json' })
  cities(): string {
    return '["Paris"]';
  }
}

const TRACE_ID = '4bf92f3577b34da6a3ce929d0e0e4736';
const PARENT_ID = '00f067aa0ba902b7';
const TRACEPARENT = `00-${TRACE_ID}-${PARENT_ID}-01`;
const HEADER_TRACE_ID = '0af7651916cd43dd8448eb211c80319c';
const HEADER_PARENT = `00-${HEADER_TRACE_ID}-b7ad6b7169203331-01`;
const UNKNOWN_TASK = { taskId: 'no-such-task' };

interface Row {
  readonly params: Record<string, unknown>;
  /** The span name the conventions give it. */
  readonly name: string;
  /** The conventions' target attributes it carries. */
  readonly target?: Record<string, string>;
}

const COMPLETE = { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'city', value: 'P' } };
const TOOL_CALL: Row = {
  params: { name: 'echo', arguments: {} },
  name: 'tools/call echo',
  target: { 'gen_ai.tool.name': 'echo', 'gen_ai.operation.name': 'execute_tool' },
};
const PROMPT_GET: Row = {
  params: { name: 'greet', arguments: { city: 'Paris' } },
  name: 'prompts/get greet',
  target: { 'gen_ai.prompt.name': 'greet' },
};
const READ: Row = {
  params: { uri: 'weather://cities' },
  name: 'resources/read',
  target: { 'mcp.resource.uri': 'weather://cities' },
};

/** The 2025 requests and notifications a client sends in a session (`initialize` opens one). */
const LEGACY_ROWS: Readonly<Record<string, Row>> = {
  initialize: {
    params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'observer', version: '1.0.0' } },
    name: 'initialize',
  },
  ping: { params: {}, name: 'ping' },
  'tools/list': { params: {}, name: 'tools/list' },
  'tools/call': TOOL_CALL,
  'logging/setLevel': { params: { level: 'warning' }, name: 'logging/setLevel' },
  'resources/list': { params: {}, name: 'resources/list' },
  'resources/templates/list': { params: {}, name: 'resources/templates/list' },
  'resources/read': READ,
  'resources/subscribe': { ...READ, name: 'resources/subscribe' },
  'resources/unsubscribe': { ...READ, name: 'resources/unsubscribe' },
  'prompts/list': { params: {}, name: 'prompts/list' },
  'prompts/get': PROMPT_GET,
  'completion/complete': { params: COMPLETE, name: 'completion/complete' },
  'tasks/get': { params: UNKNOWN_TASK, name: 'tasks/get' },
  'tasks/result': { params: UNKNOWN_TASK, name: 'tasks/result' },
  'tasks/list': { params: {}, name: 'tasks/list' },
  'tasks/cancel': { params: UNKNOWN_TASK, name: 'tasks/cancel' },
  'notifications/initialized': { params: {}, name: 'notifications/initialized' },
  'notifications/cancelled': { params: { requestId: 999, reason: 'changed my mind' }, name: 'notifications/cancelled' },
  'notifications/roots/list_changed': { params: {}, name: 'notifications/roots/list_changed' },
};

/** The 2026-07-28 requests (the era takes no notification over HTTP). */
const MODERN_ROWS: Readonly<Record<string, Row>> = {
  'server/discover': { params: {}, name: 'server/discover' },
  'tools/list': { params: {}, name: 'tools/list' },
  'tools/call': TOOL_CALL,
  'resources/list': { params: {}, name: 'resources/list' },
  'resources/templates/list': { params: {}, name: 'resources/templates/list' },
  'resources/read': READ,
  'prompts/list': { params: {}, name: 'prompts/list' },
  'prompts/get': PROMPT_GET,
  'completion/complete': { params: COMPLETE, name: 'completion/complete' },
  'subscriptions/listen': { params: { notifications: { toolsListChanged: true } }, name: 'subscriptions/listen' },
  'tasks/get': { params: UNKNOWN_TASK, name: 'tasks/get' },
  'tasks/update': { params: { ...UNKNOWN_TASK, inputResponses: {} }, name: 'tasks/update' },
  'tasks/cancel': { params: UNKNOWN_TASK, name: 'tasks/cancel' },
};

type Source = '_meta' | 'headers';
const SOURCES: readonly Source[] = ['_meta', 'headers'];

/** The JSON-RPC message of an answer: a JSON body, or the last `data:` line of an SSE one. */
function messageOf(text: string): { error?: { code: number; message: string } } | undefined {
  if (text === '') return undefined;
  const data = text.split(/\r?\n/).filter((line) => line.startsWith('data:'));
  return JSON.parse(data.length > 0 ? data.at(-1)!.slice('data:'.length) : text) as never;
}

/** What every span of this spec shows, whatever its method. */
function expectConventions(
  span: ReadableSpan,
  method: string,
  row: Row,
  source: Source,
  error: { code: number; message: string } | 'cancelled' | undefined,
): void {
  expect(span.kind).toBe(SpanKind.SERVER);
  expect(span.attributes).toMatchObject({
    'mcp.method.name': method,
    'mcp42.server.name': 'methods',
    'network.transport': 'tcp',
    'network.protocol.name': 'http',
    'network.protocol.version': '1.1',
    'client.address': '127.0.0.1',
    ...row.target,
  });
  expect(typeof span.attributes['client.port']).toBe('number');
  // The opt-in attributes stay off by default.
  expect(span.attributes['gen_ai.tool.call.arguments']).toBeUndefined();
  expect(span.attributes['gen_ai.tool.call.result']).toBeUndefined();
  if (method !== 'tools/call') expect(span.attributes['gen_ai.operation.name']).toBeUndefined();
  if (source === '_meta') {
    expect(span.spanContext().traceId).toBe(TRACE_ID);
    expect(span.parentSpanContext?.spanId).toBe(PARENT_ID);
  } else {
    expect(span.spanContext().traceId).toBe(HEADER_TRACE_ID);
  }
  if (error === undefined) {
    expect(span.status.code).not.toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBeUndefined();
  } else if (error === 'cancelled') {
    expect(span.status.code).toBe(SpanStatusCode.ERROR);
    expect(span.attributes['error.type']).toBe('cancelled');
    expect(span.attributes['rpc.response.status_code']).toBeUndefined();
  } else {
    expect(span.status).toEqual({ code: SpanStatusCode.ERROR, message: error.message });
    expect(span.attributes).toMatchObject({
      'error.type': String(error.code),
      'rpc.response.status_code': String(error.code),
    });
  }
}

describe('OpenTelemetry spans of every method of both eras', () => {
  const otel = new TestTelemetry();
  let disableContext: () => void;
  let running: RunningApp;

  beforeAll(async () => {
    disableContext = enableContext();
    running = await startApp({
      imports: [
        McpModule.forRoot({
          name: 'methods',
          version: '1.0.0',
          telemetry: mcpTelemetry({
            tracerProvider: otel.tracerProvider,
            meterProvider: otel.meterProvider,
            propagator: otel.propagator,
          }),
        }),
      ],
      providers: [Items],
    });
  });

  afterAll(async () => {
    await running.close();
    await otel.shutdown();
    disableContext();
  });

  it('has a row for every method of each era', () => {
    expect(Object.keys(LEGACY_ROWS).sort()).toEqual(['initialize', ...LEGACY_METHODS, ...LEGACY_NOTIFICATIONS].sort());
    expect(Object.keys(MODERN_ROWS).sort()).toEqual([...MODERN_METHODS].sort());
  });

  describe('2025 sessions', () => {
    let session: OpenedSession;
    let nextId = 1;

    beforeEach(async () => {
      session = await openSession(running.mcpUrl);
      otel.reset();
    });

    const cases = Object.entries(LEGACY_ROWS).flatMap(([method, row]) =>
      SOURCES.map((source) => [method, source, row] as const),
    );

    it.each(cases)('%s, its parent from %s', async (method, source, row) => {
      const notification = method.startsWith('notifications/');
      const id = nextId++;
      const params = source === '_meta' ? { ...row.params, _meta: { traceparent: TRACEPARENT } } : row.params;
      const headers: Record<string, string> =
        method === 'initialize'
          ? { 'content-type': 'application/json', accept: 'application/json, text/event-stream' }
          : { ...session.headers };
      if (source === 'headers') headers.traceparent = HEADER_PARENT;
      const reply = await httpExchange(
        running.mcpUrl,
        'POST',
        headers,
        JSON.stringify(notification ? { jsonrpc: '2.0', method, params } : { jsonrpc: '2.0', id, method, params }),
      );
      expect(reply.status).toBe(notification ? 202 : 200);
      const span = otel.span(row.name);
      expectConventions(span, method, row, source, notification ? undefined : messageOf(reply.text)?.error);
      if (method === 'initialize') {
        expect(span.attributes['mcp.protocol.version']).toBe('2025-11-25');
        expect(span.attributes['mcp.session.id']).toBeUndefined();
      } else {
        expect(span.attributes).toMatchObject({
          'mcp.protocol.version': session.protocolVersion,
          'mcp.session.id': session.id,
        });
      }
      expect(span.attributes['jsonrpc.request.id']).toBe(notification ? undefined : String(id));
    });
  });

  describe('2026-07-28 requests', () => {
    const client = new ModernClient(() => running.mcpUrl);
    afterEach(() => client.closeAll());
    beforeEach(() => otel.reset());

    const cases = Object.entries(MODERN_ROWS).flatMap(([method, row]) =>
      SOURCES.map((source) => [method, source, row] as const),
    );

    it.each(cases)('%s, its parent from %s', async (method, source, row) => {
      const options =
        source === '_meta'
          ? { id: 7, meta: { traceparent: TRACEPARENT } }
          : { id: 7, headers: { traceparent: HEADER_PARENT } };
      let error: { code: number; message: string } | 'cancelled' | undefined;
      if (method === 'subscriptions/listen') {
        // A stream: its span ends when the client closes it, the request never answered (cancelled).
        const exchange = await client.open(method, row.params, options);
        await exchange.waitFor((stream) => stream.messages.length > 0);
        exchange.close();
        await until(() => otel.spans.some((span) => span.name === row.name), 'the listen span to end');
        error = 'cancelled';
      } else {
        const exchange = await client.send(method, row.params, options);
        error = exchange.response?.error as typeof error;
      }
      const span = otel.span(row.name);
      expectConventions(span, method, row, source, error);
      expect(span.attributes).toMatchObject({ 'mcp.protocol.version': MODERN_VERSION, 'jsonrpc.request.id': '7' });
      expect(span.attributes['mcp.session.id']).toBeUndefined();
    });
  });
});
