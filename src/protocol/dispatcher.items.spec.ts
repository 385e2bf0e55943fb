import { LEGACY_ERA } from './legacy-era.js';
import { Dispatcher, RequestCancelledError, type DispatcherPort } from './dispatcher.js';
import type { ServerDescription } from './initialize.js';
import { encodeMessage, requestMessage } from './json-rpc.codec.js';
import { ErrorCode, JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcFailure, JsonRpcParams, JsonRpcResponse, RequestId } from './json-rpc.types.js';
import type {
  CompleteResult,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ReadResourceResult,
} from './mcp.types.js';

interface Context {
  readonly sessionId: string;
}

const context: Context = { sessionId: 'session-items' };

const server: ServerDescription = {
  serverInfo: { name: 'items-server', version: '1.0.0' },
  capabilities: { resources: { subscribe: true, listChanged: true }, prompts: { listChanged: true }, completions: {} },
};

/** The optional methods this file is about. */
type ItemMethods = Pick<
  DispatcherPort<Context>,
  | 'listResources'
  | 'listResourceTemplates'
  | 'readResource'
  | 'subscribeResource'
  | 'unsubscribeResource'
  | 'listPrompts'
  | 'getPrompt'
  | 'complete'
>;

interface PortCall {
  readonly method: keyof ItemMethods;
  readonly args: readonly unknown[];
}

const resourcesPage: ListResourcesResult = {
  resources: [{ uri: 'file:///a.txt', name: 'a', mimeType: 'text/plain' }],
  nextCursor: 'next-r',
};
const templatesPage: ListResourceTemplatesResult = {
  resourceTemplates: [{ uriTemplate: 'weather://{city}', name: 'weather' }],
};
const readResult: ReadResourceResult = { contents: [{ uri: 'file:///a.txt', mimeType: 'text/plain', text: 'A' }] };
const promptsPage: ListPromptsResult = { prompts: [{ name: 'greet', description: 'Says hello' }] };
const promptResult: GetPromptResult = {
  description: 'Says hello',
  messages: [{ role: 'user', content: { type: 'text', text: 'Hello Ada' } }],
};
const completeResult: CompleteResult = { completion: { values: ['Paris', 'Passau'], total: 2, hasMore: false } };

/** Every optional method, recording its calls and answering with the canned result. */
function fullMethods(calls: PortCall[]): Required<ItemMethods> {
  return {
    listResources: async (...args) => (calls.push({ method: 'listResources', args }), resourcesPage),
    listResourceTemplates: async (...args) => (calls.push({ method: 'listResourceTemplates', args }), templatesPage),
    readResource: async (...args) => (calls.push({ method: 'readResource', args }), readResult),
    subscribeResource: async (...args) => {
      calls.push({ method: 'subscribeResource', args });
    },
    unsubscribeResource: (...args) => {
      calls.push({ method: 'unsubscribeResource', args });
    },
    listPrompts: async (...args) => (calls.push({ method: 'listPrompts', args }), promptsPage),
    getPrompt: async (...args) => (calls.push({ method: 'getPrompt', args }), promptResult),
    complete: async (...args) => (calls.push({ method: 'complete', args }), completeResult),
  };
}

interface Setup {
  readonly dispatcher: Dispatcher<Context>;
  readonly calls: PortCall[];
  readonly reported: Array<{ error: unknown; method: string }>;
}

/** A dispatcher over a port with the tool methods and `methods` (every item method unless told otherwise). */
function setup(methods?: Partial<ItemMethods>, overrides: Partial<ItemMethods> = {}): Setup {
  const calls: PortCall[] = [];
  const reported: Array<{ error: unknown; method: string }> = [];
  const port: DispatcherPort<Context> = {
    listTools: () => ({ tools: [] }),
    callTool: async () => ({ content: [] }),
    reportError: (error, method) => reported.push({ error, method }),
    ...(methods ?? fullMethods(calls)),
    ...overrides,
  };
  return { dispatcher: new Dispatcher(server, port, LEGACY_ERA), calls, reported };
}

async function send(
  dispatcher: Dispatcher<Context>,
  method: string,
  params?: JsonRpcParams,
  id: RequestId = 1,
): Promise<JsonRpcResponse> {
  const response = await dispatcher.handleRequest(requestMessage(id, method, params), context);
  if (response === undefined) throw new Error(`expected a response to ${method}, got none`);
  return response;
}

function errorOf(response: JsonRpcResponse): JsonRpcFailure['error'] {
  if (!('error' in response)) throw new Error(`expected an error response, got ${JSON.stringify(response)}`);
  return response.error;
}

const ROUTES: ReadonlyArray<{ method: string; port: keyof ItemMethods; params: JsonRpcParams }> = [
  { method: 'resources/list', port: 'listResources', params: {} },
  { method: 'resources/templates/list', port: 'listResourceTemplates', params: {} },
  { method: 'resources/read', port: 'readResource', params: { uri: 'file:///a.txt' } },
  { method: 'resources/subscribe', port: 'subscribeResource', params: { uri: 'file:///a.txt' } },
  { method: 'resources/unsubscribe', port: 'unsubscribeResource', params: { uri: 'file:///a.txt' } },
  { method: 'prompts/list', port: 'listPrompts', params: {} },
  { method: 'prompts/get', port: 'getPrompt', params: { name: 'greet' } },
  {
    method: 'completion/complete',
    port: 'complete',
    params: { ref: { type: 'ref/prompt', name: 'greet' }, argument: { name: 'who', value: 'A' } },
  },
];

describe('Dispatcher: item methods the port does not implement', () => {
  it.each(ROUTES)('answers $method with -32601 when the port has no $port', async ({ method, params }) => {
    const { dispatcher, calls, reported } = setup({});
    const response = await send(dispatcher, method, params, 'm');
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 'm',
      error: { code: -32601, message: `Method not found: ${method}` },
    });
    expect(calls).toEqual([]);
    expect(reported).toEqual([]);
  });

  it.each(ROUTES)('answers $method with -32601 when only the other item methods exist', async ({ method, port }) => {
    const calls: PortCall[] = [];
    const others: Partial<ItemMethods> = { ...fullMethods(calls) };
    delete others[port];
    const { dispatcher } = setup(others);
    expect(errorOf(await send(dispatcher, method, ROUTES.find((r) => r.port === port)!.params))).toStrictEqual({
      code: -32601,
      message: `Method not found: ${method}`,
    });
    expect(calls).toEqual([]);
  });

  it('routes each implemented method alone, leaving the others not found', async () => {
    const calls: PortCall[] = [];
    const { dispatcher } = setup({ readResource: fullMethods(calls).readResource });
    expect('result' in (await send(dispatcher, 'resources/read', { uri: 'file:///a.txt' }))).toBe(true);
    expect(errorOf(await send(dispatcher, 'resources/list')).code).toBe(-32601);
    expect(errorOf(await send(dispatcher, 'prompts/list')).code).toBe(-32601);
    expect(calls.map((call) => call.method)).toEqual(['readResource']);
  });
});

describe('Dispatcher: list routes', () => {
  it.each([
    ['resources/list', 'listResources', resourcesPage],
    ['resources/templates/list', 'listResourceTemplates', templatesPage],
    ['prompts/list', 'listPrompts', promptsPage],
  ] as const)('%s without params calls %s(undefined, context)', async (method, port, result) => {
    const { dispatcher, calls } = setup();
    expect(await send(dispatcher, method, undefined, 3)).toStrictEqual({ jsonrpc: '2.0', id: 3, result });
    expect(calls).toEqual([{ method: port, args: [undefined, context] }]);
    expect(calls[0]!.args[1]).toBe(context);
  });

  it.each([
    ['resources/list', 'listResources'],
    ['resources/templates/list', 'listResourceTemplates'],
    ['prompts/list', 'listPrompts'],
  ] as const)('%s passes a string cursor through to %s', async (method, port) => {
    const { dispatcher, calls } = setup();
    await send(dispatcher, method, { cursor: 'opaque-cursor' });
    await send(dispatcher, method, { cursor: '' });
    expect(calls).toEqual([
      { method: port, args: ['opaque-cursor', context] },
      { method: port, args: ['', context] },
    ]);
  });

  it.each(
    ['resources/list', 'resources/templates/list', 'prompts/list'].flatMap((method) =>
      [1, null, false, ['c'], { page: 2 }].map((cursor) => ({ method, cursor })),
    ),
  )('$method refuses the cursor $cursor with -32602 without calling the port', async ({ method, cursor }) => {
    const { dispatcher, calls, reported } = setup();
    expect(await send(dispatcher, method, { cursor }, 4)).toStrictEqual({
      jsonrpc: '2.0',
      id: 4,
      error: { code: -32602, message: 'Invalid params: cursor must be a string' },
    });
    expect(calls).toEqual([]);
    expect(reported).toEqual([]);
  });
});

describe('Dispatcher: resources/read', () => {
  it('passes the checked params, the context and the request id', async () => {
    const { dispatcher, calls } = setup();
    const params = { uri: 'https://пример.рф/документ', _meta: { progressToken: 't' } };
    expect(await send(dispatcher, 'resources/read', params, 'r-1')).toStrictEqual({
      jsonrpc: '2.0',
      id: 'r-1',
      result: readResult,
    });
    expect(calls).toHaveLength(1);
    expect(calls[0]!.method).toBe('readResource');
    expect(calls[0]!.args[0]).toBe(params);
    expect(calls[0]!.args[1]).toBe(context);
    expect(calls[0]!.args[2]).toBe('r-1');
  });

  it('answers a port JsonRpcError(-32002) with its code, message and data', async () => {
    const { dispatcher, reported } = setup(undefined, {
      readResource: async ({ uri }) => {
        throw new JsonRpcError(ErrorCode.ResourceNotFound, 'Resource not found', { uri });
      },
    });
    const response = await send(dispatcher, 'resources/read', { uri: 'file:///missing' }, 8);
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 8,
      error: { code: -32002, message: 'Resource not found', data: { uri: 'file:///missing' } },
    });
    expect(encodeMessage(response)).toBe(
      '{"jsonrpc":"2.0","id":8,"error":{"code":-32002,"message":"Resource not found","data":{"uri":"file:///missing"}}}',
    );
    expect(reported).toEqual([]);
  });

  it('answers any other failure with -32603 and reports it under the method name', async () => {
    const boom = new Error('disk on fire: /secret/path');
    const { dispatcher, reported } = setup(undefined, {
      readResource: async () => {
        throw boom;
      },
    });
    const response = await send(dispatcher, 'resources/read', { uri: 'file:///a.txt' });
    expect(errorOf(response)).toStrictEqual({ code: -32603, message: 'Internal error' });
    expect(encodeMessage(response)).not.toContain('secret');
    expect(reported).toEqual([{ error: boom, method: 'resources/read' }]);
  });

  it('gives no response when the port says the client cancelled the request', async () => {
    const { dispatcher, reported } = setup(undefined, {
      readResource: async (_params, _context, id) => {
        throw new RequestCancelledError(id);
      },
    });
    const response = await dispatcher.handleRequest(
      requestMessage(5, 'resources/read', { uri: 'file:///a.txt' }),
      context,
    );
    expect(response).toBeUndefined();
    expect(reported).toEqual([]);
  });
});

const URI_REFUSAL = { code: -32602, message: 'Invalid params: uri must be an absolute URI of at most 8192 characters' };

describe.each(['resources/read', 'resources/subscribe', 'resources/unsubscribe'])('%s: invalid uri', (method) => {
  it.each([
    ['no params', undefined],
    ['no uri', {}],
    ['a relative uri', { uri: 'a.txt' }],
    ['a uri with a space', { uri: 'file:///a b' }],
    ['a uri with a control character', { uri: 'file:///a\u0001' }],
    ['a numeric uri', { uri: 7 }],
    ['an over-long uri', { uri: 'file:///' + 'x'.repeat(8192) }],
  ])('refuses %s with -32602 without calling the port', async (_label, params) => {
    const { dispatcher, calls, reported } = setup();
    expect(await send(dispatcher, method, params as JsonRpcParams | undefined, 6)).toStrictEqual({
      jsonrpc: '2.0',
      id: 6,
      error: URI_REFUSAL,
    });
    expect(calls).toEqual([]);
    expect(reported).toEqual([]);
  });
});

describe('Dispatcher: resources/subscribe and resources/unsubscribe', () => {
  it.each([
    ['resources/subscribe', 'subscribeResource'],
    ['resources/unsubscribe', 'unsubscribeResource'],
  ] as const)('%s passes the params and context to %s and answers exactly {}', async (method, port) => {
    const { dispatcher, calls } = setup();
    const params = { uri: 'weather://paris' };
    const response = await send(dispatcher, method, params, 2);
    expect(response).toStrictEqual({ jsonrpc: '2.0', id: 2, result: {} });
    expect(encodeMessage(response)).toBe('{"jsonrpc":"2.0","id":2,"result":{}}');
    // subscribe is a call of the session (cancellable), so it gets the request id too.
    expect(calls).toEqual([
      { method: port, args: port === 'subscribeResource' ? [params, context, 2] : [params, context] },
    ]);
    expect(calls[0]!.args[0]).toBe(params);
  });

  it('answers {} even when subscribeResource resolves to a value', async () => {
    const { dispatcher } = setup(undefined, {
      subscribeResource: (async () => ({ leaked: true })) as unknown as ItemMethods['subscribeResource'],
    });
    expect(await send(dispatcher, 'resources/subscribe', { uri: 'weather://paris' })).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {},
    });
  });

  it('answers {} even when unsubscribeResource returns a value', async () => {
    const { dispatcher } = setup(undefined, {
      unsubscribeResource: (() => ({ leaked: true })) as unknown as ItemMethods['unsubscribeResource'],
    });
    expect(await send(dispatcher, 'resources/unsubscribe', { uri: 'weather://paris' })).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      result: {},
    });
  });

  it('waits for subscribeResource before answering, and answers its rejection', async () => {
    const { dispatcher } = setup(undefined, {
      subscribeResource: async ({ uri }) => {
        await Promise.resolve();
        throw new JsonRpcError(-32002, 'Resource not found', { uri });
      },
    });
    expect(errorOf(await send(dispatcher, 'resources/subscribe', { uri: 'weather://nowhere' }))).toStrictEqual({
      code: -32002,
      message: 'Resource not found',
      data: { uri: 'weather://nowhere' },
    });
  });

  it('answers a synchronous throw of unsubscribeResource as an error', async () => {
    const { dispatcher, reported } = setup(undefined, {
      unsubscribeResource: () => {
        throw new JsonRpcError(-32602, 'Invalid params: nope');
      },
    });
    expect(errorOf(await send(dispatcher, 'resources/unsubscribe', { uri: 'weather://paris' }))).toStrictEqual({
      code: -32602,
      message: 'Invalid params: nope',
    });
    expect(reported).toEqual([]);
  });
});

describe('Dispatcher: prompts/get', () => {
  it('passes the checked params, the context and the request id', async () => {
    const { dispatcher, calls } = setup();
    const params = { name: 'greet', arguments: { who: 'Ada' } };
    expect(await send(dispatcher, 'prompts/get', params, 11)).toStrictEqual({
      jsonrpc: '2.0',
      id: 11,
      result: promptResult,
    });
    expect(calls).toEqual([{ method: 'getPrompt', args: [params, context, 11] }]);
    expect(calls[0]!.args[0]).toBe(params);
  });

  it.each([
    ['no params', undefined, 'prompts/get needs a prompt name'],
    ['an empty name', { name: '' }, 'prompts/get needs a prompt name'],
    ['a numeric name', { name: 3 }, 'prompts/get needs a prompt name'],
    ['array arguments', { name: 'greet', arguments: ['Ada'] }, 'arguments must be an object whose values are strings'],
    ['null arguments', { name: 'greet', arguments: null }, 'arguments must be an object whose values are strings'],
    [
      'a numeric argument',
      { name: 'greet', arguments: { n: 1 } },
      'arguments must be an object whose values are strings',
    ],
  ])('refuses %s with -32602 without calling the port', async (_label, params, detail) => {
    const { dispatcher, calls, reported } = setup();
    expect(errorOf(await send(dispatcher, 'prompts/get', params as JsonRpcParams | undefined))).toStrictEqual({
      code: -32602,
      message: `Invalid params: ${detail}`,
    });
    expect(calls).toEqual([]);
    expect(reported).toEqual([]);
  });

  it('answers a port refusal as is', async () => {
    const { dispatcher } = setup(undefined, {
      getPrompt: async ({ name }) => {
        throw new JsonRpcError(-32602, `Invalid params: Unknown prompt: ${name}`);
      },
    });
    expect(errorOf(await send(dispatcher, 'prompts/get', { name: 'nope' }))).toStrictEqual({
      code: -32602,
      message: 'Invalid params: Unknown prompt: nope',
    });
  });
});

describe('Dispatcher: completion/complete', () => {
  it('passes the checked params, the context and the request id', async () => {
    const { dispatcher, calls } = setup();
    const params = {
      ref: { type: 'ref/resource', uri: 'weather://{city}' },
      argument: { name: 'city', value: 'Pa' },
      context: { arguments: { unit: 'C' } },
    };
    expect(await send(dispatcher, 'completion/complete', params, 'c')).toStrictEqual({
      jsonrpc: '2.0',
      id: 'c',
      result: completeResult,
    });
    expect(calls).toEqual([{ method: 'complete', args: [params, context, 'c'] }]);
    expect(calls[0]!.args[0]).toBe(params);
  });

  const argument = { name: 'who', value: '' };
  it.each([
    ['no params', undefined, 'ref must be an object'],
    [
      'an unknown ref type',
      { ref: { type: 'ref/tool', name: 'x' }, argument },
      'ref.type must be "ref/prompt" or "ref/resource"',
    ],
    ['a prompt ref without name', { ref: { type: 'ref/prompt' }, argument }, 'ref/prompt needs a prompt name'],
    [
      'a resource ref without uri',
      { ref: { type: 'ref/resource' }, argument },
      'ref/resource needs the uri of a resource template',
    ],
    [
      'no argument',
      { ref: { type: 'ref/prompt', name: 'greet' } },
      'argument must be an object with string name and value',
    ],
    [
      'non-string context.arguments',
      { ref: { type: 'ref/prompt', name: 'greet' }, argument, context: { arguments: { a: 1 } } },
      'context.arguments must be an object whose values are strings',
    ],
  ])('refuses %s with -32602 without calling the port', async (_label, params, detail) => {
    const { dispatcher, calls, reported } = setup();
    expect(errorOf(await send(dispatcher, 'completion/complete', params as JsonRpcParams | undefined))).toStrictEqual({
      code: -32602,
      message: `Invalid params: ${detail}`,
    });
    expect(calls).toEqual([]);
    expect(reported).toEqual([]);
  });
});

describe('Dispatcher: item methods alongside the rest', () => {
  it('still answers ping and tools/list when every item method is implemented', async () => {
    const { dispatcher, calls } = setup();
    expect(await send(dispatcher, 'ping')).toStrictEqual({ jsonrpc: '2.0', id: 1, result: {} });
    expect(await send(dispatcher, 'tools/list')).toStrictEqual({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expect(calls).toEqual([]);
  });

  it('reads the port methods once, at construction', async () => {
    const calls: PortCall[] = [];
    const port: DispatcherPort<Context> & Partial<ItemMethods> = {
      listTools: () => ({ tools: [] }),
      callTool: async () => ({ content: [] }),
      reportError: () => undefined,
    };
    const dispatcher = new Dispatcher(server, port, LEGACY_ERA);
    port.listPrompts = fullMethods(calls).listPrompts;
    expect(errorOf(await send(dispatcher, 'prompts/list')).code).toBe(-32601);
    expect(calls).toEqual([]);
  });
});
