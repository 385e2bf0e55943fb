/**
 * Serving stateless 2026-07-28 requests on a real Nest app over raw HTTP: tools (unknown ones,
 * invalid arguments, arguments mirrored into `Mcp-Param-*` headers, hidden tools), resources not
 * found, log messages only for a request that asked with `logLevel` and only on its own stream,
 * progress before the result, closing the response as the cancellation, and never a server →
 * client request on a stream. Every message received is checked against the revision's JSON Schema
 * by the modern client (which also fails on any request from the server).
 */
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import http from 'node:http';
import type { Socket } from 'node:net';
import { McpModule, McpToolRegistry } from '../../../src/index.js';
import { Gate } from '../../fixtures/gate.js';
import { ADMIN, BearerGuard, ModernProbe, modernApp, MODERN_OPTIONS } from '../../fixtures/modern.fixture.js';
import { resourceNotFound } from '../../utils/raw-http-client.js';
import { useModernApp } from '../../utils/modern-app.js';
import { base64Sentinel, expectErrorAnswer, ModernClient, type ModernExchange } from '../../utils/modern-client.js';
import { startApp } from '../../utils/start-app.js';
import { until, within } from '../../utils/wait.js';

const text = (result: Record<string, unknown>): string =>
  ((result.content as { type: string; text?: string }[]) ?? []).map((block) => block.text ?? '').join('');

/** The messages of an SSE answer, in order: the notifications first, the answer last. */
function expectStreamedAnswer(exchange: ModernExchange): void {
  expect(exchange.status).toBe(200);
  expect(exchange.isEventStream).toBe(true);
  expect(exchange.headers['x-accel-buffering']).toBe('no');
  const { messages } = exchange;
  expect(messages.at(-1)).toMatchObject({ id: exchange.id });
  expect(messages.filter((message) => message.method === undefined)).toHaveLength(1);
}

/** Where {@link HoldingGuard} holds requests, and the sockets of those it held. */
const holding = { gate: new Gate(), sockets: [] as Socket[] };
const HOLD_HEADER = 'x-hold';

/** An endpoint guard that holds requests carrying {@link HOLD_HEADER} at a gate (after the body parser read them). */
@Injectable()
class HoldingGuard implements CanActivate {
  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<http.IncomingMessage>();
    if (request.headers[HOLD_HEADER] === '1') {
      holding.sockets.push(request.socket);
      await holding.gate.pass();
    }
    return true;
  }
}

describe('2026-07-28 requests (e2e)', () => {
  const app = useModernApp(modernApp(), { afterEach: ({ get }) => get(ModernProbe).reset() });
  const client = app.client;

  describe('tools', () => {
    it('answers an unknown tool with -32602, echoing the id', async () => {
      const error = await client.error(200, 'tools/call', { name: 'no_such_tool', arguments: {} }, { id: 'u1' });
      expect(error).toMatchObject({ code: -32602, message: expect.stringContaining('Unknown tool: no_such_tool') });
    });

    it('answers a call without a tool name with -32602', async () => {
      expect((await client.error(200, 'tools/call', { arguments: {} })).code).toBe(-32602);
    });

    it('answers invalid arguments with an isError result (for the model), not a protocol error', async () => {
      const result = await client.result('tools/call', { name: 'echo', arguments: { text: 42 } });
      expect(result).toMatchObject({ resultType: 'complete', isError: true });
      expect(text(result)).toMatch(/^Invalid arguments for tool echo/);
    });

    it('answers a plain call as one JSON object', async () => {
      const exchange = await client.send('tools/call', { name: 'echo', arguments: { text: 'json' } });
      expect(exchange.isJson).toBe(true);
      expect(exchange.messages).toHaveLength(1);
      expect(text(exchange.response!.result!)).toBe('echo: json');
    });
  });

  describe('a result whose resultType the handler chose', () => {
    // Was a bug, fixed (src/protocol/modern-era.ts, finishModernResult): a handler's own `resultType`
    // string went out as it was, so a tool could answer `input_required` without any sealed state.
    it.each(['input_required', 'task'])('sends a CallToolResult with resultType %s as complete', async (resultType) => {
      const tools = app.get(McpToolRegistry);
      tools.add({ name: 'own_result_type', description: 'Returns a resultType of its own' }, () => ({
        content: [{ type: 'text', text: 'done' }],
        resultType,
      }));
      try {
        const result = await client.result('tools/call', { name: 'own_result_type', arguments: {} });
        expect(result).toEqual({
          resultType: 'complete',
          content: [{ type: 'text', text: 'done' }],
          _meta: expect.any(Object),
        });
      } finally {
        tools.remove('own_result_type');
      }
    });
  });

  describe('arguments mirrored into Mcp-Param-* headers', () => {
    const call = (args: Record<string, unknown>, headers: Record<string, string | undefined>, extra = {}) =>
      client.send('tools/call', { name: 'regional', arguments: args }, { headers: { ...headers, ...extra } });

    it('serves a call whose headers match its arguments (integers compared as numbers, names without case)', async () => {
      const plain = await call(
        { region: 'eu-west', limit: 5 },
        { 'Mcp-Param-Region': 'eu-west', 'Mcp-Param-Limit': '5' },
      );
      expect(text(plain.response!.result!)).toBe('region=eu-west limit=5');
      const numeric = await call(
        { region: 'eu-west', limit: 5 },
        { 'mcp-param-region': 'eu-west', 'MCP-PARAM-LIMIT': '5.0' },
      );
      expect(text(numeric.response!.result!)).toBe('region=eu-west limit=5');
    });

    it('expects no header for an argument the call leaves out', async () => {
      const exchange = await call({ region: 'eu-west' }, { 'Mcp-Param-Region': 'eu-west' });
      expect(text(exchange.response!.result!)).toBe('region=eu-west limit=undefined');
    });

    it('expects no header for an argument that is null (the arguments are then judged on their own)', async () => {
      const exchange = await call({ region: 'eu-west', limit: null }, { 'Mcp-Param-Region': 'eu-west' });
      expect(exchange.status).toBe(200);
      expect(exchange.response!.result).toMatchObject({ isError: true });
      expect(text(exchange.response!.result!)).toMatch(/^Invalid arguments for tool regional/);
    });

    it('decodes base64-sentinel values, and takes other values literally', async () => {
      const cases: [string, string][] = [
        ['Zürich', base64Sentinel('Zürich')],
        [' padded ', base64Sentinel(' padded ')],
        ['Hello', '=?base64?SGVsbG8=?='],
        ['SGVsbG8=', 'SGVsbG8='],
        ['=?base64?SGVsbG8=', '=?base64?SGVsbG8='],
      ];
      for (const [region, header] of cases) {
        const exchange = await call({ region }, { 'Mcp-Param-Region': header });
        expect({ header, status: exchange.status, text: text(exchange.response!.result!) }).toEqual({
          header,
          status: 200,
          text: `region=${region} limit=undefined`,
        });
      }
    });

    it.each([
      ['missing', { region: 'eu-west' }, {}],
      ['different', { region: 'eu-west' }, { 'Mcp-Param-Region': 'us-east' }],
      ['different in case', { region: 'eu-west' }, { 'Mcp-Param-Region': 'EU-WEST' }],
      [
        'a different integer',
        { region: 'eu-west', limit: 5 },
        { 'Mcp-Param-Region': 'eu-west', 'Mcp-Param-Limit': '6' },
      ],
      ['missing for an integer', { region: 'eu-west', limit: 5 }, { 'Mcp-Param-Region': 'eu-west' }],
      ['bad base64 padding', { region: 'Hello' }, { 'Mcp-Param-Region': '=?base64?SGVsbG8?=' }],
      ['bad base64 characters', { region: 'Hello' }, { 'Mcp-Param-Region': '=?base64?SGVs!!!bG8=?=' }],
      ['base64 of another value', { region: 'Hello' }, { 'Mcp-Param-Region': base64Sentinel('Hallo') }],
    ])('refuses a header that is %s with 400 and -32020', async (_case, args, headers) => {
      const exchange = await call(args, headers, {});
      expect(expectErrorAnswer(exchange, 400).code).toBe(-32020);
    });

    it('answers a hidden tool with wrong headers as an unknown tool (-32602), revealing nothing', async () => {
      const hidden = await client.error(
        200,
        'tools/call',
        { name: 'secret_regional', arguments: { region: 'x' } },
        {
          headers: { 'Mcp-Param-Region': 'wrong' },
        },
      );
      const unknown = await client.error(200, 'tools/call', { name: 'no_such_tool', arguments: { region: 'x' } });
      expect(hidden.code).toBe(-32602);
      expect(hidden.message.replace('secret_regional', 'NAME')).toBe(unknown.message.replace('no_such_tool', 'NAME'));
      // The caller the guard admits is told about the headers, and is served with the right ones.
      const admin = client.with(ADMIN);
      const refused = await admin.error(
        400,
        'tools/call',
        { name: 'secret_regional', arguments: { region: 'x' } },
        {
          headers: { 'Mcp-Param-Region': 'wrong' },
        },
      );
      expect(refused.code).toBe(-32020);
      const served = await admin.result(
        'tools/call',
        { name: 'secret_regional', arguments: { region: 'x' } },
        {
          headers: { 'Mcp-Param-Region': 'x' },
        },
      );
      expect(text(served)).toBe('secret region=x');
    });
  });

  describe('resources', () => {
    it('answers an unknown URI with -32602 keeping the URI in data (never -32002)', async () => {
      const uri = 'test://nonexistent-resource';
      const error = await client.error(200, 'resources/read', { uri }, { id: 'r1' });
      expect(error).toEqual({ code: -32602, message: 'Resource not found', data: { uri } });
    });

    it('answers a resource the caller may not read as an unknown one', async () => {
      expect(await client.error(200, 'resources/read', { uri: 'test://secret' })).toEqual({
        code: -32602,
        message: 'Resource not found',
        data: { uri: 'test://secret' },
      });
      expect((await client.with(ADMIN).result('resources/read', { uri: 'test://secret' })).contents).toEqual([
        { uri: 'test://secret', mimeType: 'text/plain', text: 'secret text' },
      ]);
    });

    it('still answers -32002 on a 2025 session', async () => {
      const session = await app.legacy.initialize();
      const uri = 'test://nonexistent-resource';
      expect(await app.legacy.request(session, 'resources/read', { uri }, 9)).toEqual(resourceNotFound(9, uri));
    });
  });

  describe('log messages', () => {
    it('sends none to a request without a logLevel: one JSON answer', async () => {
      const exchange = await client.send('tools/call', { name: 'chatty' });
      expect(exchange.isJson).toBe(true);
      expect(exchange.withMethod('notifications/message')).toEqual([]);
      expect(text(exchange.response!.result!)).toBe('sent 0');
    });

    it.each([
      ['debug', ['debug', 'info', 'warning', 'error']],
      ['info', ['info', 'warning', 'error']],
      ['error', ['error']],
      ['emergency', []],
    ])('sends those at logLevel %s and above, before the result', async (logLevel, levels) => {
      const exchange = await client.send('tools/call', { name: 'chatty' }, { logLevel });
      const logs = exchange.withMethod('notifications/message');
      expect(logs.map((message) => message.params?.level)).toEqual(levels);
      expect(text(exchange.response!.result!)).toBe(`sent ${levels.length}`);
      if (levels.length > 0) {
        expectStreamedAnswer(exchange);
        expect(logs.at(-1)?.params).toEqual({
          level: 'error',
          logger: 'chatty-logger',
          data: { detail: 'error line' },
        });
      }
    });

    it('sends them only on the stream of the request that asked', async () => {
      const listen = await client.open('subscriptions/listen', { notifications: { toolsListChanged: true } });
      await listen.nextMessage((message) => message.method === 'notifications/subscriptions/acknowledged');
      const waiting = await client.open(
        'tools/call',
        { name: 'wait_for_cancel' },
        { progressToken: 'w', logLevel: 'debug' },
      );
      await waiting.nextMessage((message) => message.method === 'notifications/progress');
      const chatty = await client.send('tools/call', { name: 'chatty' }, { logLevel: 'debug' });
      expect(chatty.withMethod('notifications/message')).toHaveLength(4);
      // Whatever else was sent would have come before the chatty answer ended.
      expect(listen.messages.map((message) => message.method)).toEqual(['notifications/subscriptions/acknowledged']);
      expect(waiting.messages.map((message) => message.method)).toEqual(['notifications/progress']);
      // Let the waiting call end before the next test, which watches such ends.
      waiting.close();
      await within(app.get(ModernProbe).whenAborted(), 2000, 'the waiting call ending');
    });
  });

  describe('progress', () => {
    it('streams progress with the token before the result, then ends the stream', async () => {
      const exchange = await client.send('tools/call', { name: 'steps' }, { progressToken: 'progress-test-1' });
      expectStreamedAnswer(exchange);
      expect(exchange.messages.slice(0, -1)).toEqual(
        [1, 2, 3].map((step) => ({
          jsonrpc: '2.0',
          method: 'notifications/progress',
          params: { progressToken: 'progress-test-1', progress: step, total: 3, message: `step ${step}` },
        })),
      );
      expect(text(exchange.response!.result!)).toBe('three steps done');
    });

    it('echoes a number token as a number', async () => {
      const exchange = await client.send('tools/call', { name: 'steps' }, { progressToken: 42 });
      expect(exchange.withMethod('notifications/progress').map((message) => message.params?.progressToken)).toEqual([
        42, 42, 42,
      ]);
    });

    it('sends none without a token: one JSON answer', async () => {
      const exchange = await client.send('tools/call', { name: 'steps' });
      expect(exchange.isJson).toBe(true);
      expect(exchange.messages).toHaveLength(1);
    });
  });

  describe('cancellation: closing the response stream', () => {
    it('aborts ctx.signal with reason kind "cancelled", and nothing more is sent for the request', async () => {
      const probe = app.get(ModernProbe);
      const exchange = await client.open(
        'tools/call',
        { name: 'wait_for_cancel' },
        { progressToken: 'c1', logLevel: 'debug' },
      );
      await exchange.nextMessage((message) => message.method === 'notifications/progress');
      exchange.close();
      await within(probe.whenAborted(), 2000, 'the handler seeing its abort');
      expect(probe.abortKinds).toEqual(['cancelled']);
      // Progress and log messages after the abort are not sent.
      expect(probe.sentAfterAbort).toEqual([false, false]);
      expect(exchange.messages.map((message) => message.method)).toEqual(['notifications/progress']);
    });

    it('aborts a call whose answer has not started (a JSON answer to come) alike', async () => {
      const probe = app.get(ModernProbe);
      const started = probe.whenStarted();
      const params = { name: 'wait_for_cancel' };
      const req = http.request(app.running.mcpUrl, {
        method: 'POST',
        headers: client.headersOf('tools/call', params),
        agent: false,
      });
      let answered = false;
      req.on('response', () => (answered = true));
      req.on('error', () => undefined);
      req.end(JSON.stringify({ jsonrpc: '2.0', id: 'c2', method: 'tools/call', params: client.paramsOf(params) }));
      await within(started, 2000, 'the handler starting');
      req.destroy();
      await within(probe.whenAborted(), 2000, 'the handler seeing its abort');
      expect(probe.abortKinds).toEqual(['cancelled']);
      expect(answered).toBe(false);
    });
  });

  describe('no server → client requests', () => {
    it('asks for input in the result, never with a request on the stream', async () => {
      const exchange = await client.send('tools/call', { name: 'progress_then_ask' }, { progressToken: 'p' });
      expectStreamedAnswer(exchange);
      expect(exchange.messages.filter((message) => message.method !== undefined && 'id' in message)).toEqual([]);
      expect(exchange.messages.map((message) => message.method ?? 'response')).toEqual([
        'notifications/progress',
        'response',
      ]);
      expect(exchange.response!.result).toMatchObject({
        resultType: 'input_required',
        inputRequests: { user_name: { method: 'elicitation/create' } },
      });
    });
  });
});

describe('2026-07-28 requests at shutdown (e2e)', () => {
  // Was a bug, fixed (src/http/eras/stateless-post.ts, beforeApplicationShutdown): stateless calls
  // were not aborted at shutdown; with connections not forced closed, close() waited for a handler
  // that waits on its signal for ever (forced closed, the handler saw 'cancelled').
  it('aborts a running call with reason kind "shutdown", answers it, and close() does not wait for it', async () => {
    const running = await startApp(modernApp(), { forceCloseConnections: false });
    const client = new ModernClient(() => running.mcpUrl);
    const probe = running.app.get(ModernProbe);
    let closing: Promise<void> | undefined;
    try {
      const exchange = await client.open('tools/call', { name: 'wait_for_cancel' }, { progressToken: 's1' });
      await exchange.nextMessage((message) => message.method === 'notifications/progress');
      closing = running.close();
      await within(probe.whenAborted(), 2000, 'the handler seeing its abort');
      expect(probe.abortKinds).toEqual(['shutdown']);
      expect(probe.sentAfterAbort).toEqual([false, false]);
      await within(closing, 2000, 'the application closing');
      expect(await exchange.untilEnd()).toBe('end');
      expect(exchange.response?.result).toEqual({
        resultType: 'complete',
        content: [{ type: 'text', text: 'Tool wait_for_cancel was aborted: The server is shutting down' }],
        isError: true,
        _meta: expect.any(Object),
      });
    } finally {
      client.closeAll();
      await closing?.catch(() => undefined);
    }
  });
});

describe('2026-07-28 requests whose client left before they were served (e2e)', () => {
  // The body parser reads the body before the endpoint guards run, so the request reaches the
  // transport whole after its client is gone.
  const app = useModernApp(
    {
      imports: [McpModule.forRoot({ ...MODERN_OPTIONS, guards: [BearerGuard, HoldingGuard] })],
      providers: modernApp().providers,
    },
    { bodyParser: true, afterEach: ({ get }) => get(ModernProbe).reset() },
  );

  afterEach(() => {
    holding.gate.releaseAll();
    holding.sockets.length = 0;
  });

  // Was a bug, fixed (src/http/eras/stateless-post.ts, handle): a request whose client had closed
  // the connection was dispatched all the same (its response's 'close' had already been emitted, so
  // nothing aborted it), and its handler ran for nobody.
  it('does not run the handler of a request whose connection closed before it was dispatched', async () => {
    const params = { name: 'ask_name' };
    const req = http.request(app.running.mcpUrl, {
      method: 'POST',
      headers: { ...app.client.headersOf('tools/call', params), [HOLD_HEADER]: '1' },
      agent: false,
    });
    let answered = false;
    req.on('response', () => (answered = true));
    req.on('error', () => undefined);
    req.end(JSON.stringify({ jsonrpc: '2.0', id: 'gone', method: 'tools/call', params: app.client.paramsOf(params) }));
    await within(holding.gate.whenWaiting(), 2000, 'the endpoint guard holding the request');
    req.destroy();
    await until(() => holding.sockets[0]!.destroyed, 'the server seeing the connection closed');
    holding.gate.releaseAll();
    // A request sent afterwards is served after whatever the released one led to.
    const probe = app.get(ModernProbe);
    expect((await app.client.result('tools/call', params)).resultType).toBe('input_required');
    expect(probe.runs.get('ask_name')).toBe(1);
    expect(answered).toBe(false);
  });
});
