import {
  ErrorCode,
  errorResponse,
  internalError,
  invalidParams,
  invalidRequest,
  JsonRpcError,
  headerMismatch,
  methodNotFound,
  parseError,
  serverError,
  unsupportedProtocolVersion,
} from './json-rpc.errors.js';
import type { JsonRpcErrorObject } from './json-rpc.types.js';

describe('ErrorCode', () => {
  it('holds the JSON-RPC 2.0 and MCP codes', () => {
    expect(ErrorCode).toStrictEqual({
      ParseError: -32700,
      InvalidRequest: -32600,
      MethodNotFound: -32601,
      InvalidParams: -32602,
      InternalError: -32603,
      ServerError: -32000,
      RequestTimeout: -32001,
      ResourceNotFound: -32002,
      HeaderMismatch: -32020,
      MissingRequiredClientCapability: -32021,
      UnsupportedProtocolVersion: -32022,
    });
  });
});

describe('the errors of the 2026-07-28 revision', () => {
  it('header mismatch: -32020 naming the header in data', () => {
    expect(headerMismatch('Mcp-Name', 'Mcp-Name does not match the body').toErrorObject()).toStrictEqual({
      code: -32020,
      message: 'Header mismatch: Mcp-Name does not match the body',
      data: { mismatch: { header: 'Mcp-Name' } },
    });
  });

  it('unsupported version: -32022 with what is supported and what was requested', () => {
    const error = unsupportedProtocolVersion('v999', ['2026-07-28']);
    expect(error.toErrorObject()).toStrictEqual({
      code: -32022,
      message: 'Unsupported protocol version: v999',
      data: { supported: ['2026-07-28'], requested: 'v999' },
    });
  });
});

describe('JsonRpcError', () => {
  it('is an Error carrying code, message and name', () => {
    const error = new JsonRpcError(-32001, 'custom');
    expect(error).toBeInstanceOf(Error);
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(-32001);
    expect(error.message).toBe('custom');
    expect(error.name).toBe('JsonRpcError');
    expect(error.data).toBeUndefined();
    expect(typeof error.stack).toBe('string');
  });

  it('omits data from the error object when undefined', () => {
    const object = new JsonRpcError(1, 'm').toErrorObject();
    expect(object).toStrictEqual({ code: 1, message: 'm' });
    expect('data' in object).toBe(false);
  });

  it('omits data when explicitly passed undefined', () => {
    expect('data' in new JsonRpcError(1, 'm', undefined).toErrorObject()).toBe(false);
  });

  it.each([
    ['an object', { field: 'name', reason: 'missing' }],
    ['an array', [1, 2]],
    ['a string', 'detail'],
    ['zero', 0],
    ['false', false],
    ['null', null],
    ['an empty string', ''],
  ])('keeps data when it is %s', (_label, data) => {
    const error = new JsonRpcError(-32602, 'Invalid params', data);
    expect(error.data).toBe(data);
    expect(error.toErrorObject()).toStrictEqual({ code: -32602, message: 'Invalid params', data });
  });

  it('keeps the very data reference', () => {
    const data = { nested: { deep: true } };
    expect(new JsonRpcError(1, 'm', data).toErrorObject().data).toBe(data);
  });

  it('builds only code, message (and data) in the error object, no name or stack', () => {
    const object = new JsonRpcError(2, 'x', 'd').toErrorObject();
    expect(Object.keys(object).sort()).toEqual(['code', 'data', 'message']);
  });
});

describe('error constructors', () => {
  it.each([
    ['parseError()', parseError(), -32700, 'Parse error'],
    ['parseError(detail)', parseError('bad token'), -32700, 'Parse error: bad token'],
    ['parseError("")', parseError(''), -32700, 'Parse error'],
    ['invalidRequest()', invalidRequest(), -32600, 'Invalid Request'],
    ['invalidRequest(detail)', invalidRequest('empty batch'), -32600, 'Invalid Request: empty batch'],
    ['invalidRequest("")', invalidRequest(''), -32600, 'Invalid Request'],
    ['methodNotFound(method)', methodNotFound('tools/unknown'), -32601, 'Method not found: tools/unknown'],
    ['methodNotFound("")', methodNotFound(''), -32601, 'Method not found: '],
    ['invalidParams()', invalidParams(), -32602, 'Invalid params'],
    [
      'invalidParams(detail)',
      invalidParams('cursor must be a string'),
      -32602,
      'Invalid params: cursor must be a string',
    ],
    ['invalidParams("")', invalidParams(''), -32602, 'Invalid params'],
    ['internalError()', internalError(), -32603, 'Internal error'],
    ['serverError(message)', serverError('Session not found'), -32000, 'Session not found'],
  ])('%s has the right code and message', (_label, error, code, message) => {
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error.code).toBe(code);
    expect(error.message).toBe(message);
    expect(error.data).toBeUndefined();
    expect(error.toErrorObject()).toStrictEqual({ code, message });
  });

  it('internalError takes no cause and always says only "Internal error"', () => {
    const a = internalError();
    const b = internalError();
    expect(a).not.toBe(b);
    expect(a.toErrorObject()).toStrictEqual({ code: -32603, message: 'Internal error' });
    expect(b.toErrorObject()).toStrictEqual(a.toErrorObject());
  });

  it('each call builds a fresh error', () => {
    expect(parseError()).not.toBe(parseError());
    expect(methodNotFound('a')).not.toBe(methodNotFound('a'));
  });
});

describe('errorResponse', () => {
  it('wraps a JsonRpcError without data', () => {
    expect(errorResponse(1, methodNotFound('nope'))).toStrictEqual({
      jsonrpc: '2.0',
      id: 1,
      error: { code: -32601, message: 'Method not found: nope' },
    });
  });

  it('wraps a JsonRpcError with data', () => {
    expect(errorResponse('abc', new JsonRpcError(-32602, 'Invalid params', { at: 'name' }))).toStrictEqual({
      jsonrpc: '2.0',
      id: 'abc',
      error: { code: -32602, message: 'Invalid params', data: { at: 'name' } },
    });
  });

  it('never leaks the name or stack of a JsonRpcError', () => {
    const response = errorResponse(1, internalError());
    expect(JSON.stringify(response)).toBe(
      '{"jsonrpc":"2.0","id":1,"error":{"code":-32603,"message":"Internal error"}}',
    );
  });

  it('accepts id null', () => {
    expect(errorResponse(null, parseError())).toStrictEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
  });

  it('accepts id 0 without turning it into null', () => {
    expect(errorResponse(0, invalidRequest()).id).toBe(0);
  });

  it('passes a plain error object through as is', () => {
    const plain: JsonRpcErrorObject = { code: -32002, message: 'Resource not found', data: { uri: 'file:///x' } };
    const response = errorResponse(7, plain);
    expect(response).toStrictEqual({ jsonrpc: '2.0', id: 7, error: plain });
    expect(response.error).toBe(plain);
  });

  it('passes a plain error object without data through as is', () => {
    const plain: JsonRpcErrorObject = { code: 42, message: 'm' };
    expect(errorResponse('s', plain)).toStrictEqual({ jsonrpc: '2.0', id: 's', error: { code: 42, message: 'm' } });
  });
});
