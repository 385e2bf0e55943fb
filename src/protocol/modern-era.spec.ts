import { ErrorCode, JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcParams, JsonRpcRequest } from './json-rpc.types.js';
import { INTERIM_RESULT, type Implementation, type ServerCapabilities } from './mcp.types.js';
import {
  admitModernParams,
  admitModernRequest,
  CACHEABLE_METHODS,
  finishModernResult,
  INPUT_METHODS,
  modernError,
  modernErrorStatus,
  ModernRefusal,
  MODERN_METHODS,
  MODERN_NOTIFICATIONS,
  readInputParams,
  servesMethod,
  type HeaderReader,
  type ModernAdmission,
} from './modern-era.js';
import { readEnvelope } from './request-envelope.js';
import { thrownBy } from '../../test/utils/thrown.js';

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const SERVER_INFO = 'io.modelcontextprotocol/serverInfo';

const ALL_CAPABILITIES: ServerCapabilities = {
  tools: { listChanged: true },
  resources: { subscribe: false, listChanged: true },
  prompts: { listChanged: true },
  completions: {},
  logging: {},
  extensions: { 'io.modelcontextprotocol/tasks': {} },
};

/** A server with tools and resources (and so completions of templates), but no prompts. */
const admission: ModernAdmission = {
  supportedVersions: ['2026-07-28', '2025-11-25', '2025-06-18'],
  capabilities: { tools: {}, resources: {}, completions: {} },
};

const meta = (version: unknown = '2026-07-28'): Record<string, unknown> => ({
  [VERSION]: version,
  [CAPABILITIES]: {},
});

function request(method: string, params: JsonRpcParams = {}, version: unknown = '2026-07-28'): JsonRpcRequest {
  return { jsonrpc: '2.0', id: 11, method, params: { ...params, _meta: meta(version) } };
}

/** A header reader over lower-case names, recording what it was asked. */
function headers(values: Record<string, string>): HeaderReader & { readonly asked: string[] } {
  const asked: string[] = [];
  const reader = (name: string): string | undefined => {
    asked.push(name);
    return Object.hasOwn(values, name) ? values[name] : undefined;
  };
  return Object.assign(reader, { asked });
}

/** The headers a conforming client sends for `method` (and the name it mirrors, if any). */
function conforming(method: string, name?: string, version = '2026-07-28'): Record<string, string> {
  return {
    'mcp-protocol-version': version,
    'mcp-method': method,
    ...(name === undefined ? {} : { 'mcp-name': name }),
  };
}

function refusalOf(action: () => unknown): { status: number; code: number; message: string; data: unknown } {
  const error = thrownBy(action);
  expect(error).toBeInstanceOf(ModernRefusal);
  const refusal = error as ModernRefusal;
  expect(refusal.error).toBeInstanceOf(JsonRpcError);
  return {
    status: refusal.status,
    code: refusal.error.code,
    message: refusal.error.message,
    data: refusal.error.data,
  };
}

const mismatch = (header: string, detail: string) => ({
  status: 400,
  code: -32020,
  message: `Header mismatch: ${detail}`,
  data: { mismatch: { header } },
});

describe('the modern method sets', () => {
  it('has the 2026-07-28 methods, without initialize, ping, logging/setLevel or resource subscriptions', () => {
    expect([...MODERN_METHODS].sort()).toStrictEqual(
      [
        'server/discover',
        'tools/list',
        'tools/call',
        'resources/list',
        'resources/templates/list',
        'resources/read',
        'prompts/list',
        'prompts/get',
        'completion/complete',
        'subscriptions/listen',
        'tasks/get',
        'tasks/update',
        'tasks/cancel',
      ].sort(),
    );
  });

  it('acts on no notification over HTTP (a cancellation is a closed stream)', () => {
    expect([...MODERN_NOTIFICATIONS]).toStrictEqual([]);
  });

  it('lets tools/call, prompts/get and resources/read ask for input', () => {
    expect([...INPUT_METHODS].sort()).toStrictEqual(['prompts/get', 'resources/read', 'tools/call']);
  });

  it('stamps caching hints on discover, the lists and reads', () => {
    expect([...CACHEABLE_METHODS].sort()).toStrictEqual(
      [
        'server/discover',
        'tools/list',
        'prompts/list',
        'resources/list',
        'resources/templates/list',
        'resources/read',
      ].sort(),
    );
  });
});

describe('servesMethod', () => {
  it('serves every modern method when every capability is there', () => {
    for (const method of MODERN_METHODS) expect(servesMethod(method, ALL_CAPABILITIES)).toBe(true);
  });

  it('serves only discover and listen when the server has nothing', () => {
    const served = [...MODERN_METHODS].filter((method) => servesMethod(method, {}));
    expect(served.sort()).toStrictEqual(['server/discover', 'subscriptions/listen']);
  });

  it.each([
    ['tools', ['tools/list', 'tools/call']],
    ['resources', ['resources/list', 'resources/templates/list', 'resources/read']],
    ['prompts', ['prompts/list', 'prompts/get']],
    ['completions', ['completion/complete']],
  ] as const)('serves the methods of %s only with that capability', (capability, methods) => {
    const served = [...MODERN_METHODS].filter((method) => servesMethod(method, { [capability]: {} }));
    expect(served.sort()).toStrictEqual([...methods, 'server/discover', 'subscriptions/listen'].sort());
  });

  it('serves the tasks methods only while the server declares the tasks extension', () => {
    const capabilities = { extensions: { 'io.modelcontextprotocol/tasks': {} } };
    const served = [...MODERN_METHODS].filter((method) => servesMethod(method, capabilities));
    expect(served.sort()).toStrictEqual(
      ['server/discover', 'subscriptions/listen', 'tasks/cancel', 'tasks/get', 'tasks/update'].sort(),
    );
  });

  it.each([
    'initialize',
    'ping',
    'logging/setLevel',
    'resources/subscribe',
    'resources/unsubscribe',
    'notifications/cancelled',
    'notifications/initialized',
    'tasks/result',
    'tasks/list',
    'Tools/List',
    '',
  ])('does not serve %p, whatever the capabilities', (method) => {
    expect(servesMethod(method, ALL_CAPABILITIES)).toBe(false);
  });
});

describe('admitModernRequest: admitted requests', () => {
  it('returns the envelope of a conforming tools/call', () => {
    const call = request('tools/call', { name: 'get_weather', arguments: { location: 'Seattle, WA' } });
    const envelope = admitModernRequest(call, headers(conforming('tools/call', 'get_weather')), admission);
    expect(envelope).toStrictEqual(readEnvelope(call.params));
    expect(envelope).toStrictEqual({ protocolVersion: '2026-07-28', clientCapabilities: {} });
  });

  it('reads headers by their lower-case names', () => {
    const reader = headers(conforming('tools/call', 'echo'));
    admitModernRequest(request('tools/call', { name: 'echo' }), reader, admission);
    expect(reader.asked).toStrictEqual(['mcp-protocol-version', 'mcp-method', 'mcp-name']);
  });

  it('admits a resources/read whose Mcp-Name mirrors the uri', () => {
    const read = request('resources/read', { uri: 'file:///projects/myapp/config.json' });
    const reader = headers(conforming('resources/read', 'file:///projects/myapp/config.json'));
    expect(() => admitModernRequest(read, reader, admission)).not.toThrow();
  });

  it('admits a prompts/get whose Mcp-Name mirrors the name, when the server has prompts', () => {
    const withPrompts: ModernAdmission = { ...admission, capabilities: { prompts: {} } };
    const get = request('prompts/get', { name: 'summarise' });
    expect(() => admitModernRequest(get, headers(conforming('prompts/get', 'summarise')), withPrompts)).not.toThrow();
  });

  it('admits an Mcp-Name in the base64 sentinel form once decoded', () => {
    const call = request('tools/call', { name: 'Hello, 世界' });
    const reader = headers(conforming('tools/call', '=?base64?SGVsbG8sIOS4lueVjA==?='));
    expect(() => admitModernRequest(call, reader, admission)).not.toThrow();
  });

  it('does not look at Mcp-Name for methods that mirror no name', () => {
    for (const method of ['tools/list', 'server/discover', 'subscriptions/listen', 'completion/complete']) {
      const reader = headers({ ...conforming(method), 'mcp-name': 'whatever' });
      expect(() => admitModernRequest(request(method, { name: 'other' }), reader, admission)).not.toThrow();
      expect(reader.asked).not.toContain('mcp-name');
    }
  });

  it('leaves a body without the mirrored field to the params reader when no Mcp-Name came', () => {
    const reader = headers(conforming('tools/call'));
    expect(() => admitModernRequest(request('tools/call', {}), reader, admission)).not.toThrow();
  });
});

describe('admitModernRequest: the envelope comes first', () => {
  it('refuses a broken envelope with 400 and -32602, before looking at any header', () => {
    const broken: JsonRpcRequest = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { _meta: { [VERSION]: 'x' } },
    };
    const reader = headers({});
    expect(refusalOf(() => admitModernRequest(broken, reader, admission))).toStrictEqual({
      status: 400,
      code: -32602,
      message: `Invalid params: _meta envelope: ${CAPABILITIES}: missing`,
      data: { envelope: { key: CAPABILITIES, problem: 'missing' } },
    });
    expect(reader.asked).toStrictEqual([]);
  });

  it('refuses a request without params', () => {
    const bare: JsonRpcRequest = { jsonrpc: '2.0', id: 1, method: 'tools/list' };
    const refusal = refusalOf(() => admitModernRequest(bare, headers(conforming('tools/list')), admission));
    expect(refusal.status).toBe(400);
    expect(refusal.code).toBe(-32602);
    expect(refusal.data).toStrictEqual({ envelope: { key: '_meta', problem: 'missing' } });
  });
});

describe('admitModernRequest: the MCP-Protocol-Version header', () => {
  it('must be present', () => {
    const { 'mcp-protocol-version': _omitted, ...rest } = conforming('tools/list');
    expect(refusalOf(() => admitModernRequest(request('tools/list'), headers(rest), admission))).toStrictEqual(
      mismatch('MCP-Protocol-Version', 'the MCP-Protocol-Version header is missing'),
    );
  });

  it('must equal the version in _meta', () => {
    const reader = headers(conforming('tools/list', undefined, '2025-11-25'));
    expect(refusalOf(() => admitModernRequest(request('tools/list'), reader, admission))).toStrictEqual(
      mismatch('MCP-Protocol-Version', 'the MCP-Protocol-Version header does not match _meta'),
    );
  });

  it('is compared before the version is judged: a mismatch wins over an unsupported version', () => {
    for (const version of ['2025-11-25', '2099-01-01']) {
      const reader = headers(conforming('tools/list'));
      expect(refusalOf(() => admitModernRequest(request('tools/list', {}, version), reader, admission))).toStrictEqual(
        mismatch('MCP-Protocol-Version', 'the MCP-Protocol-Version header does not match _meta'),
      );
    }
  });

  it('is compared exactly (values are case-sensitive)', () => {
    const reader = headers(conforming('tools/list', undefined, '2026-07-28 '));
    expect(refusalOf(() => admitModernRequest(request('tools/list'), reader, admission)).code).toBe(-32020);
  });
});

describe('admitModernRequest: the version', () => {
  it.each(['2025-11-25', '2025-03-26', '2099-01-01'])(
    'refuses %s with 400 and -32022 naming what is supported and what was requested',
    (version) => {
      const reader = headers(conforming('tools/list', undefined, version));
      expect(refusalOf(() => admitModernRequest(request('tools/list', {}, version), reader, admission))).toStrictEqual({
        status: 400,
        code: -32022,
        message: `Unsupported protocol version: ${version}`,
        data: { supported: ['2026-07-28', '2025-11-25', '2025-06-18'], requested: version },
      });
    },
  );

  it('is judged before the method: an unsupported version of a method that does not exist is -32022', () => {
    const reader = headers(conforming('initialize', undefined, '2025-11-25'));
    expect(refusalOf(() => admitModernRequest(request('initialize', {}, '2025-11-25'), reader, admission)).code).toBe(
      -32022,
    );
  });
});

describe('admitModernRequest: the method', () => {
  it.each(['initialize', 'ping', 'logging/setLevel', 'resources/subscribe', 'tasks/list'])(
    'answers %s with 404 and -32601',
    (method) => {
      expect(
        refusalOf(() => admitModernRequest(request(method), headers(conforming(method)), admission)),
      ).toStrictEqual({
        status: 404,
        code: -32601,
        message: `Method not found: ${method}`,
        data: undefined,
      });
    },
  );

  it('is judged before Mcp-Method and Mcp-Name: a missing method with no headers of its own is 404', () => {
    const reader = headers({ 'mcp-protocol-version': '2026-07-28' });
    expect(refusalOf(() => admitModernRequest(request('initialize'), reader, admission)).status).toBe(404);
    expect(reader.asked).toStrictEqual(['mcp-protocol-version']);
  });

  it('does not exist for a kind the server has no items of (prompts here)', () => {
    for (const [method, name] of [['prompts/list'], ['prompts/get', 'summarise']] as const) {
      const params = name === undefined ? {} : { name };
      const reader = headers(conforming(method, name));
      expect(refusalOf(() => admitModernRequest(request(method, params), reader, admission))).toStrictEqual({
        status: 404,
        code: -32601,
        message: `Method not found: ${method}`,
        data: undefined,
      });
    }
  });

  it('does not exist without completions, and exists with them', () => {
    const none: ModernAdmission = { ...admission, capabilities: { tools: {} } };
    const reader = headers(conforming('completion/complete'));
    expect(refusalOf(() => admitModernRequest(request('completion/complete'), reader, none)).status).toBe(404);
    expect(() =>
      admitModernRequest(request('completion/complete'), headers(conforming('completion/complete')), admission),
    ).not.toThrow();
  });

  it('serves discover and listen even for a server without items', () => {
    const empty: ModernAdmission = { ...admission, capabilities: {} };
    for (const method of ['server/discover', 'subscriptions/listen']) {
      expect(() => admitModernRequest(request(method), headers(conforming(method)), empty)).not.toThrow();
    }
  });
});

describe('admitModernRequest: Mcp-Method', () => {
  it('must be present', () => {
    const reader = headers({ 'mcp-protocol-version': '2026-07-28', 'mcp-name': 'echo' });
    expect(
      refusalOf(() => admitModernRequest(request('tools/call', { name: 'echo' }), reader, admission)),
    ).toStrictEqual(mismatch('Mcp-Method', 'the Mcp-Method header is missing'));
  });

  it.each(['prompts/list', 'TOOLS/LIST', 'tools/list ', ''])('must equal the method exactly (not %p)', (value) => {
    const reader = headers({ ...conforming('tools/list'), 'mcp-method': value });
    expect(refusalOf(() => admitModernRequest(request('tools/list'), reader, admission))).toStrictEqual(
      mismatch('Mcp-Method', 'Mcp-Method does not match the method'),
    );
  });

  it('is checked before Mcp-Name', () => {
    const reader = headers({ ...conforming('tools/list', 'wrong'), 'mcp-method': 'tools/list' });
    expect(
      refusalOf(() => admitModernRequest(request('tools/call', { name: 'echo' }), reader, admission)).data,
    ).toStrictEqual({ mismatch: { header: 'Mcp-Method' } });
  });
});

describe('admitModernRequest: Mcp-Name', () => {
  it('must be present when the body has the field', () => {
    const reader = headers(conforming('tools/call'));
    expect(
      refusalOf(() => admitModernRequest(request('tools/call', { name: 'echo' }), reader, admission)),
    ).toStrictEqual(mismatch('Mcp-Name', 'the Mcp-Name header is missing'));
  });

  it('must equal the name of a tools/call', () => {
    const reader = headers(conforming('tools/call', 'wrong_tool_name'));
    expect(
      refusalOf(() => admitModernRequest(request('tools/call', { name: 'echo' }), reader, admission)),
    ).toStrictEqual(mismatch('Mcp-Name', 'Mcp-Name does not match the body'));
  });

  it('is compared case-sensitively', () => {
    const reader = headers(conforming('tools/call', 'Echo'));
    expect(refusalOf(() => admitModernRequest(request('tools/call', { name: 'echo' }), reader, admission)).code).toBe(
      -32020,
    );
  });

  it('mirrors the uri of resources/read, not its other fields', () => {
    const read = request('resources/read', { uri: 'file:///a.txt', name: 'a' });
    expect(
      refusalOf(() => admitModernRequest(read, headers(conforming('resources/read', 'a')), admission)),
    ).toStrictEqual(mismatch('Mcp-Name', 'Mcp-Name does not match the body'));
  });

  it('must be a valid header value', () => {
    for (const value of ['=?base64?ZWNobw?=', '=?base64?ec!o?=', 'ec\nho', 'écho']) {
      const reader = headers(conforming('tools/call', value));
      expect(
        refusalOf(() => admitModernRequest(request('tools/call', { name: 'echo' }), reader, admission)),
      ).toStrictEqual(mismatch('Mcp-Name', 'Mcp-Name is not a valid header value'));
    }
  });

  it('does not match a body without the field', () => {
    const reader = headers(conforming('tools/call', 'echo'));
    expect(refusalOf(() => admitModernRequest(request('tools/call', {}), reader, admission))).toStrictEqual(
      mismatch('Mcp-Name', 'Mcp-Name does not match the body'),
    );
  });

  it('does not match a body field that is not a string', () => {
    const reader = headers(conforming('tools/call', '5'));
    expect(refusalOf(() => admitModernRequest(request('tools/call', { name: 5 }), reader, admission)).code).toBe(
      -32020,
    );
  });

  it('decodes the sentinel before comparing: an encoded wrong name is still wrong', () => {
    // "other" in base64
    const reader = headers(conforming('tools/call', '=?base64?b3RoZXI=?='));
    expect(
      refusalOf(() => admitModernRequest(request('tools/call', { name: 'echo' }), reader, admission)),
    ).toStrictEqual(mismatch('Mcp-Name', 'Mcp-Name does not match the body'));
  });
});

describe('ModernRefusal', () => {
  it('carries the status and the error, with the error message', () => {
    const error = new JsonRpcError(-32020, 'Header mismatch: x');
    const refusal = new ModernRefusal(400, error);
    expect(refusal).toBeInstanceOf(Error);
    expect(refusal.name).toBe('ModernRefusal');
    expect(refusal.message).toBe('Header mismatch: x');
    expect(refusal.status).toBe(400);
    expect(refusal.error).toBe(error);
  });
});

describe('modernErrorStatus', () => {
  it.each([
    [-32601, 404],
    [-32020, 400],
    [-32021, 400],
    [-32022, 400],
    [-32602, 200],
    [-32600, 200],
    [-32603, 200],
    [-32700, 200],
    [-32000, 200],
    [-32001, 200],
    [-32002, 200],
    [1, 200],
  ])('maps %d to %d', (code, status) => {
    expect(modernErrorStatus(code)).toBe(status);
  });
});

describe('readInputParams', () => {
  it('reads nothing from params without MRTR fields', () => {
    expect(readInputParams({ name: 'x', arguments: {} })).toStrictEqual({});
  });

  it('reads both fields as they came', () => {
    const inputResponses = { 'elicitation-1': { action: 'accept', content: { name: 'Alice' } } };
    const read = readInputParams({ name: 'x', inputResponses, requestState: 'abc' });
    expect(read).toStrictEqual({ inputResponses, requestState: 'abc' });
    expect(read.inputResponses).toBe(inputResponses);
  });

  it('reads an empty requestState and empty inputResponses', () => {
    expect(readInputParams({ inputResponses: {}, requestState: '' })).toStrictEqual({
      inputResponses: {},
      requestState: '',
    });
  });

  it.each([
    ['null', null],
    ['an array', [{ action: 'accept' }]],
    ['a string', '{}'],
    ['a number', 1],
  ])('refuses inputResponses that are %s', (_label, inputResponses) => {
    const error = thrownBy(() => readInputParams({ inputResponses }));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32602);
    expect(error.message).toBe('Invalid params: inputResponses must be an object');
  });

  it.each([
    ['null', null],
    ['a number', 5],
    ['an object', { state: 'x' }],
  ])('refuses a requestState that is %s', (_label, requestState) => {
    const error = thrownBy(() => readInputParams({ requestState }));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32602);
    expect(error.message).toBe('Invalid params: requestState must be a string');
  });
});

describe('admitModernParams', () => {
  const bad = { name: 'x', inputResponses: null };

  it.each(['tools/call', 'prompts/get', 'resources/read'])('checks the MRTR fields of %s', (method) => {
    const error = thrownBy(() => admitModernParams({ jsonrpc: '2.0', id: 1, method, params: bad }));
    expect((error as JsonRpcError).code).toBe(-32602);
  });

  it('ignores them on methods that cannot ask for input', () => {
    for (const method of ['tools/list', 'server/discover', 'completion/complete', 'subscriptions/listen']) {
      expect(() => admitModernParams({ jsonrpc: '2.0', id: 1, method, params: bad })).not.toThrow();
    }
  });

  it('accepts a request without params', () => {
    expect(() => admitModernParams({ jsonrpc: '2.0', id: 1, method: 'tools/call' })).not.toThrow();
  });
});

describe('finishModernResult', () => {
  const serverInfo: Implementation = { name: 'srv', version: '1.2.3' };

  it('adds resultType complete and the server identity', () => {
    expect(finishModernResult({ tools: [] }, serverInfo, undefined)).toStrictEqual({
      tools: [],
      resultType: 'complete',
      _meta: { [SERVER_INFO]: { name: 'srv', version: '1.2.3' } },
    });
  });

  it('sends input_required only for an interim result the lifecycle marked, without the mark', () => {
    const interim = Object.defineProperty({ resultType: 'input_required', requestState: 's' }, INTERIM_RESULT, {
      value: true,
    });
    const finished = finishModernResult(interim, serverInfo, undefined);
    expect(finished.resultType).toBe('input_required');
    expect(finished.requestState).toBe('s');
    expect(JSON.parse(JSON.stringify(finished))).toStrictEqual({
      resultType: 'input_required',
      requestState: 's',
      _meta: { [SERVER_INFO]: serverInfo },
    });
  });

  it('sends complete whatever resultType a handler put in its own value', () => {
    for (const resultType of ['input_required', 'task', 3, null, 'complete']) {
      expect(finishModernResult({ resultType }, serverInfo, undefined).resultType).toBe('complete');
    }
  });

  it('merges the server identity into an existing _meta, replacing only its own key', () => {
    const result = {
      content: [],
      _meta: { 'example.com/trace': 'abc', [SERVER_INFO]: { name: 'fake', version: '0' } },
    };
    expect(finishModernResult(result, serverInfo, undefined)._meta).toStrictEqual({
      'example.com/trace': 'abc',
      [SERVER_INFO]: serverInfo,
    });
  });

  it('replaces a _meta that is not an object', () => {
    for (const meta of [null, 'x', [1]]) {
      expect(finishModernResult({ _meta: meta }, serverInfo, undefined)._meta).toStrictEqual({
        [SERVER_INFO]: serverInfo,
      });
    }
  });

  it('does not change the result it is given', () => {
    const result = { tools: [], _meta: { a: 1 } };
    finishModernResult(result, serverInfo, { ttlMs: 5, cacheScope: 'public' });
    expect(result).toStrictEqual({ tools: [], _meta: { a: 1 } });
  });

  it('stamps the caching hints on a complete result', () => {
    const finished = finishModernResult({ tools: [] }, serverInfo, { ttlMs: 60_000, cacheScope: 'public' });
    expect(finished).toStrictEqual({
      tools: [],
      resultType: 'complete',
      _meta: { [SERVER_INFO]: serverInfo },
      ttlMs: 60_000,
      cacheScope: 'public',
    });
  });

  it('stamps them on a result the handler marked complete itself, replacing its own', () => {
    const finished = finishModernResult({ resultType: 'complete', ttlMs: 1, cacheScope: 'public' }, serverInfo, {
      ttlMs: 0,
      cacheScope: 'private',
    });
    expect([finished.ttlMs, finished.cacheScope]).toStrictEqual([0, 'private']);
  });

  it('never stamps them on an interim result', () => {
    const interim = Object.defineProperty({ resultType: 'input_required' }, INTERIM_RESULT, { value: true });
    const finished = finishModernResult(interim, serverInfo, {
      ttlMs: 60_000,
      cacheScope: 'public',
    });
    expect(Object.hasOwn(finished, 'ttlMs')).toBe(false);
    expect(Object.hasOwn(finished, 'cacheScope')).toBe(false);
  });

  it('adds no hints when there are none', () => {
    const finished = finishModernResult({ content: [] }, serverInfo, undefined);
    expect(Object.hasOwn(finished, 'ttlMs')).toBe(false);
    expect(Object.hasOwn(finished, 'cacheScope')).toBe(false);
  });
});

describe('modernError', () => {
  it('turns resource-not-found (-32002) into -32602, keeping the message and data.uri', () => {
    const notFound = new JsonRpcError(ErrorCode.ResourceNotFound, 'Resource not found', { uri: 'file:///nope' });
    const mapped = modernError(notFound);
    expect(mapped).toBeInstanceOf(JsonRpcError);
    expect(mapped.toErrorObject()).toStrictEqual({
      code: -32602,
      message: 'Resource not found',
      data: { uri: 'file:///nope' },
    });
  });

  it.each([-32601, -32602, -32603, -32020, -32021, -32022, -32001])('leaves %d as it is', (code) => {
    const error = new JsonRpcError(code, 'm', { x: 1 });
    expect(modernError(error)).toBe(error);
  });
});
