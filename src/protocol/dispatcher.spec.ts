import { LEGACY_ERA } from './legacy-era.js';
import { Dispatcher, RequestCancelledError, type DispatcherPort } from './dispatcher.js';
import type { ServerDescription } from './initialize.js';
import { encodeMessage, requestMessage } from './json-rpc.codec.js';
import { JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcFailure, JsonRpcParams, JsonRpcRequest, JsonRpcResponse, RequestId } from './json-rpc.types.js';
import type { LoggingLevel } from './logging-level.js';
import type { CallToolParams, CallToolResult, CancelledNotificationParams, ListToolsResult } from './mcp.types.js';

interface Context {
  readonly sessionId: string;
}

const context: Context = { sessionId: 'session-1' };

const server: ServerDescription = {
  serverInfo: { name: 'disp-server', version: '3.0.0', title: 'Dispatcher Server' },
  capabilities: { tools: { listChanged: false } },
  instructions: 'Be nice.',
};

const toolList: ListToolsResult = {
  tools: [{ name: 'echo', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } }],
};

const toolResult: CallToolResult = { content: [{ type: 'text', text: 'hi' }] };

/** A port that records every call and answers with whatever the test configured. */
class FakePort implements DispatcherPort<Context> {
  readonly listToolsCalls: Array<{ cursor: string | undefined; context: Context }> = [];
  readonly callToolCalls: Array<{ params: CallToolParams; context: Context; requestId: RequestId }> = [];
  readonly initializedCalls: Context[] = [];
  readonly reportedErrors: Array<{ error: unknown; method: string }> = [];
  readonly levelCalls: Array<{ level: LoggingLevel; context: Context }> = [];
  readonly cancelledCalls: Array<{ params: CancelledNotificationParams; context: Context }> = [];
  readonly rootsChangedCalls: Context[] = [];
  readonly responseCalls: Array<{ response: JsonRpcResponse; context: Context }> = [];

  listToolsImpl: (cursor: string | undefined) => ListToolsResult | Promise<ListToolsResult> = () => toolList;
  callToolImpl: (params: CallToolParams) => Promise<CallToolResult> = async () => toolResult;

  listTools(cursor: string | undefined, ctx: Context): ListToolsResult | Promise<ListToolsResult> {
    this.listToolsCalls.push({ cursor, context: ctx });
    return this.listToolsImpl(cursor);
  }

  callTool(params: CallToolParams, ctx: Context, requestId: RequestId): Promise<CallToolResult> {
    this.callToolCalls.push({ params, context: ctx, requestId });
    return this.callToolImpl(params);
  }

  onInitialized(ctx: Context): void {
    this.initializedCalls.push(ctx);
  }

  setLoggingLevel(level: LoggingLevel, ctx: Context): void {
    this.levelCalls.push({ level, context: ctx });
  }

  onCancelled(params: CancelledNotificationParams, ctx: Context): void {
    this.cancelledCalls.push({ params, context: ctx });
  }

  onRootsListChanged(ctx: Context): void {
    this.rootsChangedCalls.push(ctx);
  }

  onResponse(response: JsonRpcResponse, ctx: Context): void {
    this.responseCalls.push({ response, context: ctx });
  }

  reportError(error: unknown, method: string): void {
    this.reportedErrors.push({ error, method });
  }

  get totalCalls(): number {
    return (
      this.listToolsCalls.length +
      this.callToolCalls.length +
      this.initializedCalls.length +
      this.reportedErrors.length +
      this.levelCalls.length +
      this.cancelledCalls.length +
      this.rootsChangedCalls.length +
      this.responseCalls.length
    );
  }
}

function setup(): { port: FakePort; dispatcher: Dispatcher<Context> } {
  const port = new FakePort();
  return { port, dispatcher: new Dispatcher<Context>(server, port, LEGACY_ERA) };
}

function request(id: RequestId, method: string, params?: JsonRpcParams): JsonRpcRequest {
  return requestMessage(id, method, params);
}

/** The response of a request that must be answered (only a cancelled request gets none). */
function answered(response: JsonRpcResponse | undefined): JsonRpcResponse {
  if (response === undefined) throw new Error('expected a response, got none');
  return response;
}

function failureOf(maybe: JsonRpcResponse | undefined): JsonRpcFailure {
  const response = answered(maybe);
  if (!('error' in response)) throw new Error(`expected an error response, got ${JSON.stringify(response)}`);
  return response;
}

function resultOf(maybe: JsonRpcResponse | undefined): unknown {
  const response = answered(maybe);
  if (!('result' in response)) throw new Error(`expected a success response, got ${JSON.stringify(response)}`);
  return response.result;
}

const validInitializeParams: JsonRpcParams = {
  protocolVersion: '2025-03-26',
  capabilities: { roots: {} },
  clientInfo: { name: 'client', version: '1.0.0' },
};

describe('Dispatcher.initialize', () => {
  it('answers an accepted initialize with the InitializeResult and the handshake', () => {
    const { port, dispatcher } = setup();
    const outcome = dispatcher.initialize(request(1, 'initialize', validInitializeParams));
    expect(outcome.response).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: '2025-03-26',
        capabilities: { tools: { listChanged: false } },
        serverInfo: { name: 'disp-server', version: '3.0.0', title: 'Dispatcher Server' },
        instructions: 'Be nice.',
      },
    });
    expect(outcome.handshake).toBeDefined();
    expect(outcome.handshake!.protocolVersion).toBe('2025-03-26');
    expect(outcome.handshake!.clientInfo).toStrictEqual({ name: 'client', version: '1.0.0' });
    expect(outcome.handshake!.clientCapabilities).toStrictEqual({ roots: {} });
    expect(resultOf(outcome.response)).toBe(outcome.handshake!.result);
    expect(port.totalCalls).toBe(0);
  });

  it('keeps a string id on success', () => {
    const { dispatcher } = setup();
    expect(dispatcher.initialize(request('init-a', 'initialize', validInitializeParams)).response.id).toBe('init-a');
  });

  it('negotiates an unknown version to the latest', () => {
    const { dispatcher } = setup();
    const outcome = dispatcher.initialize(
      request(0, 'initialize', { ...validInitializeParams, protocolVersion: '1999-01-01' }),
    );
    expect(outcome.handshake!.protocolVersion).toBe('2025-11-25');
    expect(resultOf(outcome.response)).toMatchObject({ protocolVersion: '2025-11-25' });
    expect(outcome.response.id).toBe(0);
  });

  it('answers missing params with -32602 and no handshake', () => {
    const { port, dispatcher } = setup();
    const outcome = dispatcher.initialize(request(2, 'initialize'));
    expect(outcome.response).toStrictEqual({
      jsonrpc: '2.0',
      id: 2,
      error: { code: -32602, message: 'Invalid params: initialize needs protocolVersion, capabilities and clientInfo' },
    });
    expect(outcome.handshake).toBeUndefined();
    expect('handshake' in outcome).toBe(false);
    expect(port.reportedErrors).toEqual([]);
  });

  it.each([
    ['a numeric protocolVersion', { ...validInitializeParams, protocolVersion: 1 }],
    ['array capabilities', { ...validInitializeParams, capabilities: [] }],
    ['clientInfo without version', { ...validInitializeParams, clientInfo: { name: 'x' } }],
  ])('answers %s with -32602 and no handshake', (_label, params) => {
    const { port, dispatcher } = setup();
    const outcome = dispatcher.initialize(request('e', 'initialize', params));
    expect(failureOf(outcome.response).error.code).toBe(-32602);
    expect(outcome.response.id).toBe('e');
    expect(outcome.handshake).toBeUndefined();
    expect(port.reportedErrors).toEqual([]);
  });

  it('answers an unexpected failure while reading params with -32603 and reports it', () => {
    const { port, dispatcher } = setup();
    const boom = new Error('getter exploded: secret detail');
    const params = {
      protocolVersion: '2025-06-18',
      capabilities: {},
      get clientInfo(): unknown {
        throw boom;
      },
    };
    const outcome = dispatcher.initialize(request(3, 'initialize', params));
    expect(outcome.response).toStrictEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32603, message: 'Internal error' },
    });
    expect(outcome.handshake).toBeUndefined();
    expect(port.reportedErrors).toEqual([{ error: boom, method: 'initialize' }]);
    expect(encodeMessage(outcome.response)).not.toContain('secret');
  });

  it('can be called repeatedly (session bookkeeping is the caller’s job)', () => {
    const { dispatcher } = setup();
    const first = dispatcher.initialize(request(1, 'initialize', validInitializeParams));
    const second = dispatcher.initialize(request(2, 'initialize', validInitializeParams));
    expect(first.handshake).toBeDefined();
    expect(second.handshake).toBeDefined();
    expect(second.response.id).toBe(2);
  });
});

describe('Dispatcher.handleRequest: ping', () => {
  it('answers {} without any prior initialize and without touching the port', async () => {
    const { port, dispatcher } = setup();
    await expect(dispatcher.handleRequest(request(1, 'ping'), context)).resolves.toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {},
    });
    expect(port.totalCalls).toBe(0);
  });

  it('answers {} when params carry _meta', async () => {
    const { dispatcher } = setup();
    const response = await dispatcher.handleRequest(request('p', 'ping', { _meta: { progressToken: 1 } }), context);
    expect(response).toStrictEqual({ jsonrpc: '2.0', id: 'p', result: {} });
  });

  it('encodes to the exact wire form', async () => {
    const { dispatcher } = setup();
    expect(encodeMessage(answered(await dispatcher.handleRequest(request(0, 'ping'), context)))).toBe(
      '{"jsonrpc":"2.0","id":0,"result":{}}',
    );
  });
});

describe('Dispatcher.handleRequest: tools/list', () => {
  it('passes an undefined cursor and the context when params are absent', async () => {
    const { port, dispatcher } = setup();
    const response = await dispatcher.handleRequest(request(1, 'tools/list'), context);
    expect(response).toStrictEqual({ jsonrpc: '2.0', id: 1, result: toolList });
    expect(port.listToolsCalls).toHaveLength(1);
    expect(port.listToolsCalls[0]!.cursor).toBeUndefined();
    expect(port.listToolsCalls[0]!.context).toBe(context);
  });

  it('passes an undefined cursor when params are empty', async () => {
    const { port, dispatcher } = setup();
    await dispatcher.handleRequest(request(1, 'tools/list', {}), context);
    expect(port.listToolsCalls).toEqual([{ cursor: undefined, context }]);
  });

  it.each(['', 'page-2', 'eyJvZmZzZXQiOjEwfQ=='])('passes the cursor %p through', async (cursor) => {
    const { port, dispatcher } = setup();
    await dispatcher.handleRequest(request(1, 'tools/list', { cursor }), context);
    expect(port.listToolsCalls).toEqual([{ cursor, context }]);
  });

  it('works with a synchronous listTools', async () => {
    const { port, dispatcher } = setup();
    const sync: ListToolsResult = { tools: [], nextCursor: 'n' };
    port.listToolsImpl = () => sync;
    const response = await dispatcher.handleRequest(request(2, 'tools/list'), context);
    expect(resultOf(response)).toBe(sync);
  });

  it('works with an asynchronous listTools', async () => {
    const { port, dispatcher } = setup();
    const later: ListToolsResult = { tools: [{ name: 'late', inputSchema: { type: 'object' } }] };
    port.listToolsImpl = () => new Promise((resolve) => setTimeout(() => resolve(later), 5));
    const response = await dispatcher.handleRequest(request(3, 'tools/list'), context);
    expect(response).toStrictEqual({ jsonrpc: '2.0', id: 3, result: later });
  });

  it.each([
    ['a number', 1],
    ['null', null],
    ['an object', { page: 2 }],
    ['an array', ['c']],
    ['a boolean', false],
  ])('refuses a cursor that is %s with -32602 without calling listTools', async (_label, cursor) => {
    const { port, dispatcher } = setup();
    const response = await dispatcher.handleRequest(request(4, 'tools/list', { cursor }), context);
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32602, message: 'Invalid params: cursor must be a string' },
    });
    expect(port.listToolsCalls).toHaveLength(0);
    expect(port.reportedErrors).toHaveLength(0);
  });
});

describe('Dispatcher.handleRequest: tools/call', () => {
  it('passes the params object and the context through untouched', async () => {
    const { port, dispatcher } = setup();
    const params = { name: 'echo', arguments: { text: 'hi' }, _meta: { progressToken: 'tok' } };
    const snapshot = structuredClone(params);
    const response = await dispatcher.handleRequest(request(1, 'tools/call', params), context);
    expect(response).toStrictEqual({ jsonrpc: '2.0', id: 1, result: toolResult });
    expect(port.callToolCalls).toHaveLength(1);
    expect(port.callToolCalls[0]!.params).toBe(params);
    expect(port.callToolCalls[0]!.context).toBe(context);
    expect(params).toStrictEqual(snapshot);
  });

  it.each([0, -5, Number.MAX_SAFE_INTEGER, '', 'call-1'])('passes the request id %p to callTool', async (id) => {
    const { port, dispatcher } = setup();
    await dispatcher.handleRequest(request(id, 'tools/call', { name: 'echo' }), context);
    expect(port.callToolCalls).toHaveLength(1);
    expect(port.callToolCalls[0]!.requestId).toBe(id);
  });

  it('accepts a call without arguments', async () => {
    const { port, dispatcher } = setup();
    await dispatcher.handleRequest(request(1, 'tools/call', { name: 'noargs' }), context);
    expect(port.callToolCalls).toEqual([{ params: { name: 'noargs' }, context, requestId: 1 }]);
  });

  it('accepts empty arguments', async () => {
    const { port, dispatcher } = setup();
    await dispatcher.handleRequest(request(1, 'tools/call', { name: 'x', arguments: {} }), context);
    expect(port.callToolCalls).toHaveLength(1);
  });

  it('answers with the tool result, isError results included (they are not JSON-RPC errors)', async () => {
    const { port, dispatcher } = setup();
    const failed: CallToolResult = { content: [{ type: 'text', text: 'bad input' }], isError: true };
    port.callToolImpl = async () => failed;
    const response = await dispatcher.handleRequest(request(9, 'tools/call', { name: 'echo' }), context);
    expect(response).toStrictEqual({ jsonrpc: '2.0', id: 9, result: failed });
  });

  it('refuses a call without params', async () => {
    const { port, dispatcher } = setup();
    const response = await dispatcher.handleRequest(request(1, 'tools/call'), context);
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Invalid params: tools/call needs a tool name' },
    });
    expect(port.callToolCalls).toHaveLength(0);
  });

  it.each([
    ['missing', { arguments: {} }],
    ['empty', { name: '' }],
    ['a number', { name: 5 }],
    ['null', { name: null }],
    ['an object', { name: { id: 'echo' } }],
    ['an array', { name: ['echo'] }],
  ])('refuses a name that is %s with -32602 without calling callTool', async (_label, params) => {
    const { port, dispatcher } = setup();
    const response = await dispatcher.handleRequest(request('n', 'tools/call', params), context);
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 'n',
      error: { code: -32602, message: 'Invalid params: tools/call needs a tool name' },
    });
    expect(port.callToolCalls).toHaveLength(0);
    expect(port.reportedErrors).toHaveLength(0);
  });

  it.each([
    ['an array', [1, 2]],
    ['a string', '{"text":"hi"}'],
    ['a number', 1],
    ['null', null],
    ['a boolean', true],
  ])('refuses arguments that are %s with -32602 without calling callTool', async (_label, args) => {
    const { port, dispatcher } = setup();
    const response = await dispatcher.handleRequest(
      request(5, 'tools/call', { name: 'echo', arguments: args }),
      context,
    );
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 5,
      error: { code: -32602, message: 'Invalid params: arguments must be an object' },
    });
    expect(port.callToolCalls).toHaveLength(0);
  });
});

describe('Dispatcher.handleRequest: routing', () => {
  it.each(['tools/unknown', 'resources/list', 'prompts/get', 'Ping', 'PING', 'ping ', ''])(
    'answers the unknown method %p with -32601 naming it',
    async (method) => {
      const { port, dispatcher } = setup();
      const response = await dispatcher.handleRequest(request(7, method), context);
      expect(response).toStrictEqual({
        jsonrpc: '2.0',
        id: 7,
        error: { code: -32601, message: `Method not found: ${method}` },
      });
      expect(port.totalCalls).toBe(0);
    },
  );

  it.each(['__proto__', 'constructor', 'toString', 'hasOwnProperty', 'valueOf'])(
    'does not resolve the prototype-ish name %p to a handler',
    async (method) => {
      const { dispatcher } = setup();
      const response = await dispatcher.handleRequest(request(1, method), context);
      expect(failureOf(response).error).toStrictEqual({ code: -32601, message: `Method not found: ${method}` });
    },
  );

  it.each(['notifications/initialized', 'notifications/cancelled'])(
    'answers the notification method %p sent as a request with -32601',
    async (method) => {
      const { port, dispatcher } = setup();
      const response = await dispatcher.handleRequest(request(1, method), context);
      expect(failureOf(response).error.code).toBe(-32601);
      expect(port.initializedCalls).toHaveLength(0);
    },
  );

  it('refuses initialize sent to handleRequest with -32600, touching nothing', async () => {
    const { port, dispatcher } = setup();
    const response = await dispatcher.handleRequest(request('i', 'initialize', validInitializeParams), context);
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 'i',
      error: { code: -32600, message: 'Invalid Request: initialize must be sent alone, without a session' },
    });
    expect(port.totalCalls).toBe(0);
  });

  it('keeps the request id on every kind of response', async () => {
    const { port, dispatcher } = setup();
    port.callToolImpl = async () => {
      throw new Error('x');
    };
    const ids: RequestId[] = [0, -1, Number.MAX_SAFE_INTEGER, '', 'abc'];
    for (const id of ids) {
      for (const method of ['ping', 'tools/list', 'nope', 'initialize']) {
        expect(answered(await dispatcher.handleRequest(request(id, method), context)).id).toBe(id);
      }
      expect(answered(await dispatcher.handleRequest(request(id, 'tools/call', { name: 'x' }), context)).id).toBe(id);
      expect(answered(await dispatcher.handleRequest(request(id, 'tools/call', { name: 5 }), context)).id).toBe(id);
    }
  });

  it('answers concurrent requests each with its own id and result', async () => {
    const { port, dispatcher } = setup();
    port.callToolImpl = (params) =>
      new Promise((resolve) =>
        setTimeout(() => resolve({ content: [{ type: 'text', text: params.name }] }), params.name === 'slow' ? 20 : 1),
      );
    const [slow, fast] = await Promise.all([
      dispatcher.handleRequest(request('s', 'tools/call', { name: 'slow' }), context),
      dispatcher.handleRequest(request('f', 'tools/call', { name: 'fast' }), context),
    ]);
    expect(slow).toStrictEqual({ jsonrpc: '2.0', id: 's', result: { content: [{ type: 'text', text: 'slow' }] } });
    expect(fast).toStrictEqual({ jsonrpc: '2.0', id: 'f', result: { content: [{ type: 'text', text: 'fast' }] } });
  });
});

describe('Dispatcher.handleRequest: handler failures', () => {
  it('answers a JsonRpcError rejected by callTool with that error, data included, and reports nothing', async () => {
    const { port, dispatcher } = setup();
    port.callToolImpl = async () => {
      throw new JsonRpcError(-32602, 'Unknown tool: nope', { name: 'nope' });
    };
    const response = await dispatcher.handleRequest(request(1, 'tools/call', { name: 'nope' }), context);
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32602, message: 'Unknown tool: nope', data: { name: 'nope' } },
    });
    expect(port.reportedErrors).toHaveLength(0);
  });

  it('answers a JsonRpcError thrown synchronously by listTools with that error', async () => {
    const { port, dispatcher } = setup();
    port.listToolsImpl = () => {
      throw new JsonRpcError(-32000, 'Session expired');
    };
    const response = await dispatcher.handleRequest(request(2, 'tools/list'), context);
    expect(response).toStrictEqual({ jsonrpc: '2.0', id: 2, error: { code: -32000, message: 'Session expired' } });
    expect(port.reportedErrors).toHaveLength(0);
  });

  it('answers a JsonRpcError with a custom -32603 as is (handlers may choose their message)', async () => {
    const { port, dispatcher } = setup();
    port.listToolsImpl = async () => {
      throw new JsonRpcError(-32603, 'ItemStore unavailable');
    };
    const response = await dispatcher.handleRequest(request(2, 'tools/list'), context);
    expect(failureOf(response).error).toStrictEqual({ code: -32603, message: 'ItemStore unavailable' });
    expect(port.reportedErrors).toHaveLength(0);
  });

  const nonRpcFailures: Array<[string, unknown]> = [
    ['an Error', new Error('database password is hunter2')],
    ['a TypeError', new TypeError("Cannot read properties of undefined (reading 'hunter2')")],
    ['a string', 'hunter2 leaked as a string'],
    ['undefined', undefined],
    ['null', null],
    ['a number', 42],
    ['a plain object that looks like an error object', { code: -32602, message: 'hunter2' }],
  ];

  it.each(nonRpcFailures)(
    'answers %s rejected by callTool with a generic -32603 and reports it',
    async (_label, failure) => {
      const { port, dispatcher } = setup();
      port.callToolImpl = () => Promise.reject(failure);
      const response = await dispatcher.handleRequest(request(3, 'tools/call', { name: 'echo' }), context);
      expect(response).toStrictEqual({ jsonrpc: '2.0', id: 3, error: { code: -32603, message: 'Internal error' } });
      expect(encodeMessage(answered(response))).not.toContain('hunter2');
      expect(port.reportedErrors).toHaveLength(1);
      expect(port.reportedErrors[0]!.error).toBe(failure);
      expect(port.reportedErrors[0]!.method).toBe('tools/call');
    },
  );

  it.each(nonRpcFailures)(
    'answers %s thrown synchronously by listTools with a generic -32603 and reports it',
    async (_label, failure) => {
      const { port, dispatcher } = setup();
      port.listToolsImpl = () => {
        throw failure;
      };
      const response = await dispatcher.handleRequest(request('L', 'tools/list'), context);
      expect(response).toStrictEqual({ jsonrpc: '2.0', id: 'L', error: { code: -32603, message: 'Internal error' } });
      expect(encodeMessage(answered(response))).not.toContain('hunter2');
      expect(port.reportedErrors).toEqual([{ error: failure, method: 'tools/list' }]);
    },
  );

  it('keeps serving after a handler failure', async () => {
    const { port, dispatcher } = setup();
    let fail = true;
    port.callToolImpl = async () => {
      if (fail) throw new Error('transient');
      return toolResult;
    };
    const first = await dispatcher.handleRequest(request(1, 'tools/call', { name: 'echo' }), context);
    expect(failureOf(first).error.code).toBe(-32603);
    fail = false;
    const second = await dispatcher.handleRequest(request(2, 'tools/call', { name: 'echo' }), context);
    expect(second).toStrictEqual({ jsonrpc: '2.0', id: 2, result: toolResult });
    expect(await dispatcher.handleRequest(request(3, 'ping'), context)).toStrictEqual({
      jsonrpc: '2.0',
      id: 3,
      result: {},
    });
    expect(await dispatcher.handleRequest(request(4, 'tools/list'), context)).toStrictEqual({
      jsonrpc: '2.0',
      id: 4,
      result: toolList,
    });
    expect(port.reportedErrors).toHaveLength(1);
  });

  it('never rejects, whatever the handler does', async () => {
    const { port, dispatcher } = setup();
    port.listToolsImpl = () => {
      throw new RangeError('sync');
    };
    port.callToolImpl = () => Promise.reject(Symbol('weird'));
    const requests = [
      request(1, 'tools/list'),
      request(2, 'tools/call', { name: 'echo' }),
      request(3, 'tools/call', { name: 7 }),
      request(4, 'tools/list', { cursor: 7 }),
      request(5, 'initialize'),
      request(6, 'missing'),
    ];
    const settled = await Promise.allSettled(requests.map((r) => dispatcher.handleRequest(r, context)));
    expect(settled.map((s) => s.status)).toEqual(Array(requests.length).fill('fulfilled'));
    const codes = settled.map((s) => (s.status === 'fulfilled' ? failureOf(s.value).error.code : undefined));
    expect(codes).toEqual([-32603, -32603, -32602, -32602, -32600, -32601]);
    expect(port.reportedErrors.map((r) => r.method)).toEqual(['tools/list', 'tools/call']);
  });

  it('never rejects even when port.reportError itself throws', async () => {
    const { port, dispatcher } = setup();
    port.reportError = () => {
      throw new Error('logger down');
    };
    port.callToolImpl = async () => {
      throw new Error('tool broke');
    };
    await expect(dispatcher.handleRequest(request(1, 'tools/call', { name: 'echo' }), context)).resolves.toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32603, message: 'Internal error' },
    });
  });
});

describe('Dispatcher.handleNotification', () => {
  it('reports, and does not throw, when onInitialized throws', () => {
    const { port, dispatcher } = setup();
    port.onInitialized = () => {
      throw new Error('hook broke');
    };
    expect(() =>
      dispatcher.handleNotification({ jsonrpc: '2.0', method: 'notifications/initialized' }, context),
    ).not.toThrow();
    expect(port.reportedErrors.map((r) => r.method)).toEqual(['notifications/initialized']);
  });

  it('calls onInitialized with the very context on notifications/initialized', () => {
    const { port, dispatcher } = setup();
    const own: Context = { sessionId: 'own' };
    expect(dispatcher.handleNotification({ jsonrpc: '2.0', method: 'notifications/initialized' }, own)).toBeUndefined();
    expect(port.initializedCalls).toHaveLength(1);
    expect(port.initializedCalls[0]).toBe(own);
    expect(port.listToolsCalls).toHaveLength(0);
    expect(port.callToolCalls).toHaveLength(0);
  });

  it('calls onInitialized once per notification', () => {
    const { port, dispatcher } = setup();
    dispatcher.handleNotification({ jsonrpc: '2.0', method: 'notifications/initialized' }, context);
    dispatcher.handleNotification({ jsonrpc: '2.0', method: 'notifications/initialized', params: {} }, context);
    expect(port.initializedCalls).toEqual([context, context]);
  });

  it('tolerates a port without onInitialized', () => {
    const port: DispatcherPort<Context> = {
      listTools: () => toolList,
      callTool: async () => toolResult,
      reportError: () => undefined,
    };
    const dispatcher = new Dispatcher<Context>(server, port, LEGACY_ERA);
    expect(() =>
      dispatcher.handleNotification({ jsonrpc: '2.0', method: 'notifications/initialized' }, context),
    ).not.toThrow();
  });

  it.each([
    'notifications/progress',
    'notifications/unknown',
    'notifications/message',
    'initialize',
    'ping',
    'tools/list',
    'tools/call',
    'logging/setLevel',
    'Notifications/Initialized',
    '',
  ])('ignores the notification %p without throwing or touching the port', (method) => {
    const { port, dispatcher } = setup();
    expect(() =>
      dispatcher.handleNotification({ jsonrpc: '2.0', method, params: { requestId: 1, name: 'echo' } }, context),
    ).not.toThrow();
    expect(port.totalCalls).toBe(0);
  });

  it('does not need a prior initialize to process requests afterwards', async () => {
    const { dispatcher } = setup();
    dispatcher.handleNotification({ jsonrpc: '2.0', method: 'notifications/cancelled' }, context);
    expect(resultOf(await dispatcher.handleRequest(request(1, 'ping'), context))).toStrictEqual({});
  });
});

/** A port with only the required members: the optional hooks are absent. */
function minimalPort(): DispatcherPort<Context> & { reported: Array<{ error: unknown; method: string }> } {
  const reported: Array<{ error: unknown; method: string }> = [];
  return {
    reported,
    listTools: () => toolList,
    callTool: async () => toolResult,
    reportError: (error, method) => reported.push({ error, method }),
  };
}

describe('Dispatcher.handleRequest: logging/setLevel', () => {
  it.each(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const)(
    'accepts the level %p, answers {} and hands it to the port with the context',
    async (level) => {
      const { port, dispatcher } = setup();
      const response = await dispatcher.handleRequest(request(1, 'logging/setLevel', { level }), context);
      expect(response).toStrictEqual({ jsonrpc: '2.0', id: 1, result: {} });
      expect(port.levelCalls).toEqual([{ level, context }]);
    },
  );

  it.each([
    ['an upper-case level', { level: 'DEBUG' }],
    ['a syslog alias', { level: 'warn' }],
    ['an unknown level', { level: 'trace' }],
    ['a number', { level: 7 }],
    ['null', { level: null }],
    ['an empty string', { level: '' }],
    ['no level', {}],
  ])('refuses %s with -32602 listing the levels, without calling the port', async (_label, params) => {
    const { port, dispatcher } = setup();
    const response = await dispatcher.handleRequest(request('s', 'logging/setLevel', params), context);
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 's',
      error: {
        code: -32602,
        message: 'Invalid params: level must be one of debug, info, notice, warning, error, critical, alert, emergency',
      },
    });
    expect(port.levelCalls).toEqual([]);
    expect(port.reportedErrors).toEqual([]);
  });

  it('refuses a request without params with -32602', async () => {
    const { port, dispatcher } = setup();
    expect(failureOf(await dispatcher.handleRequest(request(2, 'logging/setLevel'), context)).error.code).toBe(-32602);
    expect(port.levelCalls).toEqual([]);
  });

  it('answers -32601 when the port cannot set a level: logging is then not a capability of the server', async () => {
    const port = minimalPort();
    const dispatcher = new Dispatcher<Context>(server, port, LEGACY_ERA);
    const response = await dispatcher.handleRequest(request(3, 'logging/setLevel', { level: 'info' }), context);
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 3,
      error: { code: -32601, message: 'Method not found: logging/setLevel' },
    });
    expect(port.reported).toEqual([]);
  });

  it('answers -32603 and reports it when setting the level throws', async () => {
    const { port, dispatcher } = setup();
    const boom = new Error('level store down');
    port.setLoggingLevel = () => {
      throw boom;
    };
    const response = await dispatcher.handleRequest(request(4, 'logging/setLevel', { level: 'error' }), context);
    expect(failureOf(response).error).toStrictEqual({ code: -32603, message: 'Internal error' });
    expect(port.reportedErrors).toEqual([{ error: boom, method: 'logging/setLevel' }]);
  });
});

describe('Dispatcher.handleRequest: a request the client cancelled', () => {
  it('resolves undefined (no response at all) when callTool rejects with RequestCancelledError, reporting nothing', async () => {
    const { port, dispatcher } = setup();
    port.callToolImpl = () => Promise.reject(new RequestCancelledError(5));
    await expect(
      dispatcher.handleRequest(request(5, 'tools/call', { name: 'echo' }), context),
    ).resolves.toBeUndefined();
    expect(port.reportedErrors).toEqual([]);
  });

  it('resolves undefined when a handler throws it synchronously too', async () => {
    const { port, dispatcher } = setup();
    port.listToolsImpl = () => {
      throw new RequestCancelledError('l');
    };
    await expect(dispatcher.handleRequest(request('l', 'tools/list'), context)).resolves.toBeUndefined();
    expect(port.reportedErrors).toEqual([]);
  });

  it('still answers other failures of the same kind of call', async () => {
    const { port, dispatcher } = setup();
    port.callToolImpl = () => Promise.reject(new Error('not a cancellation'));
    expect(
      failureOf(await dispatcher.handleRequest(request(6, 'tools/call', { name: 'echo' }), context)).error.code,
    ).toBe(-32603);
  });

  it('names the request in the error', () => {
    const error = new RequestCancelledError('call-9');
    expect(error).toBeInstanceOf(Error);
    expect(error.name).toBe('RequestCancelledError');
    expect(error.requestId).toBe('call-9');
    expect(error.message).toBe('request "call-9" was cancelled by the client');
  });
});

describe('Dispatcher.handleNotification: notifications/cancelled', () => {
  it.each([
    ['a numeric id', { requestId: 3 }, { requestId: 3 }],
    ['a string id', { requestId: 'abc' }, { requestId: 'abc' }],
    ['id 0', { requestId: 0 }, { requestId: 0 }],
    ['a reason', { requestId: 3, reason: 'user hit stop' }, { requestId: 3, reason: 'user hit stop' }],
    ['a reason that is not a string (dropped)', { requestId: 3, reason: 42 }, { requestId: 3 }],
    ['extra members (dropped)', { requestId: 'x', _meta: { a: 1 }, other: true }, { requestId: 'x' }],
  ])('hands %s to onCancelled with the context', (_label, params, expected) => {
    const { port, dispatcher } = setup();
    dispatcher.handleNotification({ jsonrpc: '2.0', method: 'notifications/cancelled', params }, context);
    expect(port.cancelledCalls).toHaveLength(1);
    expect(port.cancelledCalls[0]!.params).toStrictEqual(expected);
    expect(port.cancelledCalls[0]!.context).toBe(context);
  });

  it.each([
    ['no params', undefined],
    ['no requestId', { reason: 'x' }],
    ['a null requestId', { requestId: null }],
    ['a fractional requestId', { requestId: 1.5 }],
    ['an unsafe integer requestId', { requestId: 2 ** 53 }],
    ['an object requestId', { requestId: { id: 1 } }],
    ['a boolean requestId', { requestId: true }],
  ])('ignores a cancellation with %s, reporting nothing', (_label, params) => {
    const { port, dispatcher } = setup();
    expect(() =>
      dispatcher.handleNotification(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: params as JsonRpcParams | undefined },
        context,
      ),
    ).not.toThrow();
    expect(port.totalCalls).toBe(0);
  });

  it('reports, and does not throw, when onCancelled throws', () => {
    const { port, dispatcher } = setup();
    const boom = new Error('cancel hook broke');
    port.onCancelled = () => {
      throw boom;
    };
    expect(() =>
      dispatcher.handleNotification(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
        context,
      ),
    ).not.toThrow();
    expect(port.reportedErrors).toEqual([{ error: boom, method: 'notifications/cancelled' }]);
  });

  it('tolerates a port without onCancelled', () => {
    const port = minimalPort();
    const dispatcher = new Dispatcher<Context>(server, port, LEGACY_ERA);
    expect(() =>
      dispatcher.handleNotification(
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
        context,
      ),
    ).not.toThrow();
    expect(port.reported).toEqual([]);
  });
});

describe('Dispatcher.handleNotification: notifications/roots/list_changed', () => {
  it('calls onRootsListChanged with the context, params or not', () => {
    const { port, dispatcher } = setup();
    const own: Context = { sessionId: 'roots' };
    dispatcher.handleNotification({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, own);
    dispatcher.handleNotification({ jsonrpc: '2.0', method: 'notifications/roots/list_changed', params: {} }, own);
    expect(port.rootsChangedCalls).toEqual([own, own]);
    expect(port.rootsChangedCalls[0]).toBe(own);
    expect(port.cancelledCalls).toEqual([]);
  });

  it('tolerates a port without onRootsListChanged, and reports a throwing one', () => {
    const bare = minimalPort();
    expect(() =>
      new Dispatcher<Context>(server, bare, LEGACY_ERA).handleNotification(
        { jsonrpc: '2.0', method: 'notifications/roots/list_changed' },
        context,
      ),
    ).not.toThrow();
    const { port, dispatcher } = setup();
    const boom = new Error('roots hook broke');
    port.onRootsListChanged = () => {
      throw boom;
    };
    dispatcher.handleNotification({ jsonrpc: '2.0', method: 'notifications/roots/list_changed' }, context);
    expect(port.reportedErrors).toEqual([{ error: boom, method: 'notifications/roots/list_changed' }]);
  });
});

describe('Dispatcher.handleResponse', () => {
  it.each([
    ['a result', { jsonrpc: '2.0', id: 'mcp42-1', result: { action: 'accept' } }],
    ['an error', { jsonrpc: '2.0', id: 'mcp42-2', error: { code: -1, message: 'User rejected' } }],
    ['a null id', { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } }],
  ] as Array<[string, JsonRpcResponse]>)(
    'hands the client’s answer with %s to onResponse untouched',
    (_l, response) => {
      const { port, dispatcher } = setup();
      expect(dispatcher.handleResponse(response, context)).toBeUndefined();
      expect(port.responseCalls).toHaveLength(1);
      expect(port.responseCalls[0]!.response).toBe(response);
      expect(port.responseCalls[0]!.context).toBe(context);
      expect(port.cancelledCalls).toEqual([]);
    },
  );

  it('reports, as "response", and does not throw, when onResponse throws', () => {
    const { port, dispatcher } = setup();
    const boom = new Error('settle broke');
    port.onResponse = () => {
      throw boom;
    };
    expect(() => dispatcher.handleResponse({ jsonrpc: '2.0', id: 1, result: {} }, context)).not.toThrow();
    expect(port.reportedErrors).toEqual([{ error: boom, method: 'response' }]);
  });

  it('does not throw when reportError throws too', () => {
    const { port, dispatcher } = setup();
    port.onResponse = () => {
      throw new Error('settle broke');
    };
    port.reportError = () => {
      throw new Error('logger down');
    };
    expect(() => dispatcher.handleResponse({ jsonrpc: '2.0', id: 1, result: {} }, context)).not.toThrow();
  });

  it('tolerates a port without onResponse', () => {
    const port = minimalPort();
    expect(() =>
      new Dispatcher<Context>(server, port, LEGACY_ERA).handleResponse({ jsonrpc: '2.0', id: 1, result: {} }, context),
    ).not.toThrow();
    expect(port.reported).toEqual([]);
  });
});
