import {
  decodeBody,
  decodeMessage,
  decodeValue,
  type DecodedBody,
  type DecodedMessage,
  encodeMessage,
  encodeResponse,
  isPlainObject,
  isRequestId,
  notificationMessage,
  requestMessage,
  successResponse,
} from './json-rpc.codec.js';
import { errorResponse, invalidParams } from './json-rpc.errors.js';
import type { JsonRpcFailure, JsonRpcMessage, RequestId } from './json-rpc.types.js';

/** Narrows a body to its single entry, failing the test when it is not one. */
function single(body: DecodedBody): DecodedMessage {
  if (body.kind !== 'single') throw new Error(`expected a single message, got ${body.kind}`);
  return body.entry;
}

/** Narrows a body to its batch entries, failing the test when it is not a batch. */
function batch(body: DecodedBody): readonly DecodedMessage[] {
  if (body.kind !== 'batch') throw new Error(`expected a batch, got ${body.kind}`);
  return body.entries;
}

/** Narrows an entry to the error response it earned, failing the test when it is valid. */
function invalidOf(entry: DecodedMessage): JsonRpcFailure {
  if (entry.kind !== 'invalid') throw new Error(`expected an invalid message, got ${entry.kind}`);
  return entry.error;
}

/** Narrows a body to its body-level error, failing the test when it is not one. */
function bodyError(body: DecodedBody): JsonRpcFailure {
  if (body.kind !== 'error') throw new Error(`expected a body error, got ${body.kind}`);
  return body.error;
}

function decodeOne(value: unknown): DecodedMessage {
  return single(decodeBody(JSON.stringify(value)));
}

function expectInvalidRequest(entry: DecodedMessage, id: RequestId | null): JsonRpcFailure {
  const failure = invalidOf(entry);
  expect(failure.jsonrpc).toBe('2.0');
  expect(failure.id).toBe(id);
  expect(failure.error.code).toBe(-32600);
  expect(failure.error.message).toMatch(/^Invalid Request/);
  expect(failure.error).not.toHaveProperty('data');
  return failure;
}

describe('decodeBody: valid single messages', () => {
  it('classifies a request with params', () => {
    const text = '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"cursor":"abc"}}';
    expect(decodeBody(text)).toEqual({
      kind: 'single',
      entry: {
        kind: 'request',
        message: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { cursor: 'abc' } },
      },
    });
  });

  it('classifies a request without params', () => {
    expect(decodeBody('{"jsonrpc":"2.0","id":"a","method":"ping"}')).toEqual({
      kind: 'single',
      entry: { kind: 'request', message: { jsonrpc: '2.0', id: 'a', method: 'ping' } },
    });
  });

  it('classifies a request with empty params object', () => {
    const entry = single(decodeBody('{"jsonrpc":"2.0","id":2,"method":"ping","params":{}}'));
    expect(entry).toEqual({ kind: 'request', message: { jsonrpc: '2.0', id: 2, method: 'ping', params: {} } });
  });

  it('accepts an empty method string (routing decides later)', () => {
    expect(decodeOne({ jsonrpc: '2.0', id: 1, method: '' }).kind).toBe('request');
  });

  it('classifies a notification (no id member)', () => {
    expect(decodeBody('{"jsonrpc":"2.0","method":"notifications/initialized"}')).toEqual({
      kind: 'single',
      entry: { kind: 'notification', message: { jsonrpc: '2.0', method: 'notifications/initialized' } },
    });
  });

  it('classifies a notification with params', () => {
    const entry = decodeOne({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } });
    expect(entry).toEqual({
      kind: 'notification',
      message: { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 3 } },
    });
  });

  it('classifies a success response', () => {
    expect(decodeBody('{"jsonrpc":"2.0","id":7,"result":{"ok":true}}')).toEqual({
      kind: 'single',
      entry: { kind: 'response', message: { jsonrpc: '2.0', id: 7, result: { ok: true } } },
    });
  });

  it.each([null, 0, false, '', [], 'text'])('classifies a success response whose result is %p', (result) => {
    const entry = decodeOne({ jsonrpc: '2.0', id: 'r', result });
    expect(entry).toEqual({ kind: 'response', message: { jsonrpc: '2.0', id: 'r', result } });
  });

  it('classifies an error response', () => {
    const entry = decodeOne({ jsonrpc: '2.0', id: 'x', error: { code: -32601, message: 'Method not found' } });
    expect(entry).toEqual({
      kind: 'response',
      message: { jsonrpc: '2.0', id: 'x', error: { code: -32601, message: 'Method not found' } },
    });
  });

  it('classifies an error response carrying data', () => {
    const message = { jsonrpc: '2.0', id: 4, error: { code: 1, message: '', data: { why: ['a'] } } };
    expect(decodeOne(message)).toEqual({ kind: 'response', message });
  });

  it('accepts an error response with id null (it answers an unreadable id)', () => {
    const entry = decodeOne({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
    expect(entry).toEqual({
      kind: 'response',
      message: { jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } },
    });
  });

  it('tolerates surrounding whitespace', () => {
    expect(single(decodeBody('  \n\t{"jsonrpc":"2.0","id":1,"method":"ping"}\r\n ')).kind).toBe('request');
  });

  it('keeps the decoded message identical to the parsed value, extra members included', () => {
    const entry = decodeOne({ jsonrpc: '2.0', id: 1, method: 'ping', extra: 'kept' });
    if (entry.kind !== 'request') throw new Error('expected a request');
    expect(entry.message).toEqual({ jsonrpc: '2.0', id: 1, method: 'ping', extra: 'kept' });
  });
});

describe('request ids', () => {
  const roundTripIds: RequestId[] = [
    0,
    1,
    -1,
    -42,
    123456789,
    Number.MAX_SAFE_INTEGER,
    Number.MIN_SAFE_INTEGER,
    '',
    'abc',
    '0',
    '1.5',
    '9007199254740993',
    'ünïcødé ✓',
    'with "quotes" and \\ backslash',
  ];

  it.each(roundTripIds)('round-trips id %p exactly through decodeBody and encodeMessage', (id) => {
    const text = `{"jsonrpc":"2.0","id":${JSON.stringify(id)},"method":"ping"}`;
    const entry = single(decodeBody(text));
    if (entry.kind !== 'request') throw new Error(`expected a request, got ${entry.kind}`);
    expect(entry.message.id).toBe(id);
    const encoded = encodeMessage(successResponse(entry.message.id, {}));
    expect(encoded).toBe(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{}}`);
    expect(JSON.parse(encoded)).toEqual({ jsonrpc: '2.0', id, result: {} });
  });

  it('round-trips the largest safe integer digit for digit', () => {
    const entry = single(decodeBody('{"jsonrpc":"2.0","id":9007199254740991,"method":"ping"}'));
    if (entry.kind !== 'request') throw new Error('expected a request');
    expect(encodeMessage(successResponse(entry.message.id, null))).toBe(
      '{"jsonrpc":"2.0","id":9007199254740991,"result":null}',
    );
  });

  it('round-trips the smallest safe integer digit for digit', () => {
    const entry = single(decodeBody('{"jsonrpc":"2.0","id":-9007199254740991,"method":"ping"}'));
    if (entry.kind !== 'request') throw new Error('expected a request');
    expect(encodeMessage(successResponse(entry.message.id, null))).toBe(
      '{"jsonrpc":"2.0","id":-9007199254740991,"result":null}',
    );
  });

  it.each([
    ['2^53', '9007199254740992'],
    ['2^53 + 1 (already rounded by JSON.parse)', '9007199254740993'],
    ['-(2^53)', '-9007199254740992'],
    ['a huge integer', '123456789012345678901234567890'],
    ['an exponent form beyond 2^53', '1e20'],
  ])('rejects an unsafe integer id (%s) on a request with -32600 and id null', (_label, literal) => {
    const entry = single(decodeBody(`{"jsonrpc":"2.0","id":${literal},"method":"ping"}`));
    expectInvalidRequest(entry, null);
  });

  it.each(['1.5', '-0.25', '0.1', '1e-3'])('rejects a fractional id %s on a request with -32600 and id null', (lit) => {
    const entry = single(decodeBody(`{"jsonrpc":"2.0","id":${lit},"method":"ping"}`));
    const failure = expectInvalidRequest(entry, null);
    expect(failure.error.message).toContain('id must be a string or an integer');
  });

  it('rejects id null on a request with -32600 and id null', () => {
    const failure = expectInvalidRequest(decodeOne({ jsonrpc: '2.0', id: null, method: 'ping' }), null);
    expect(failure.error.message).toContain('never null');
  });

  it.each([[true], [false], [{}], [[1]], [{ id: 1 }]])('rejects a non-scalar id %p on a request', (id) => {
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0', id, method: 'ping' }), null);
  });

  it('rejects an unsafe integer id on a success response with id null', () => {
    const entry = single(decodeBody('{"jsonrpc":"2.0","id":9007199254740993,"result":{}}'));
    expectInvalidRequest(entry, null);
  });

  it('rejects a fractional id on a success response', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0', id: 2.5, result: {} }), null);
  });

  it('rejects id null on a success response', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0', id: null, result: {} }), null);
  });

  it('rejects a success response without an id', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0', result: {} }), null);
  });

  it('rejects an error response without an id', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0', error: { code: 1, message: 'm' } }), null);
  });

  it('rejects an error response with a fractional or boolean id', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0', id: 0.5, error: { code: 1, message: 'm' } }), null);
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0', id: true, error: { code: 1, message: 'm' } }), null);
  });
});

describe('isRequestId', () => {
  it.each([0, -1, 1, Number.MAX_SAFE_INTEGER, Number.MIN_SAFE_INTEGER, '', 'x', '1'])('accepts %p', (value) => {
    expect(isRequestId(value)).toBe(true);
  });

  it.each([
    null,
    undefined,
    1.5,
    NaN,
    Infinity,
    -Infinity,
    Number.MAX_SAFE_INTEGER + 1,
    Number.MIN_SAFE_INTEGER - 1,
    true,
    {},
    [],
    1n,
  ])('rejects %p', (value) => {
    expect(isRequestId(value)).toBe(false);
  });
});

describe('isPlainObject', () => {
  it.each([{}, { a: 1 }, Object.create(null) as object])('accepts %p', (value) => {
    expect(isPlainObject(value)).toBe(true);
  });

  it.each([null, undefined, [], [1], 'x', 0, true, () => ({})])('rejects %p', (value) => {
    expect(isPlainObject(value)).toBe(false);
  });
});

describe('decodeBody: jsonrpc member', () => {
  it.each([
    ['missing', undefined],
    ['1.0', '1.0'],
    ['2', '2'],
    ['the number 2', 2],
    ['"2.00"', '2.00'],
    ['null', null],
    ['"2.0 " with a trailing space', '2.0 '],
    ['an object', { version: '2.0' }],
  ])('rejects jsonrpc %s with -32600, keeping a numeric id', (_label, jsonrpc) => {
    const message: Record<string, unknown> = { id: 5, method: 'ping' };
    if (jsonrpc !== undefined) message.jsonrpc = jsonrpc;
    const failure = expectInvalidRequest(decodeOne(message), 5);
    expect(failure.error.message).toBe('Invalid Request: jsonrpc must be "2.0"');
  });

  it('keeps a string id when jsonrpc is wrong', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '1.0', id: 'req-1', method: 'ping' }), 'req-1');
  });

  it('keeps id 0 when jsonrpc is wrong', () => {
    expectInvalidRequest(decodeOne({ id: 0, method: 'ping' }), 0);
  });

  it('answers id null when jsonrpc is wrong and the id is unreadable', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '1.0', id: 1.5, method: 'ping' }), null);
    expectInvalidRequest(decodeOne({ jsonrpc: '1.0', id: null, method: 'ping' }), null);
    expectInvalidRequest(decodeOne({ jsonrpc: '1.0', method: 'ping' }), null);
  });

  it('rejects a response with a wrong jsonrpc, keeping its id', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '1.0', id: 3, result: {} }), 3);
  });
});

describe('decodeBody: method member', () => {
  it.each([
    ['a number', 42],
    ['null', null],
    ['a boolean', true],
    ['an object', { name: 'ping' }],
    ['an array', ['ping']],
  ])('rejects a request whose method is %s with -32600, keeping its id', (_label, method) => {
    const failure = expectInvalidRequest(decodeOne({ jsonrpc: '2.0', id: 9, method }), 9);
    expect(failure.error.message).toBe('Invalid Request: method must be a string');
  });

  it('rejects a notification whose method is not a string with id null', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0', method: 1 }), null);
  });

  it('treats an id member holding undefined on a pre-parsed value as an unreadable id, not as a notification', () => {
    expectInvalidRequest(single(decodeValue({ jsonrpc: '2.0', id: undefined, method: 'ping' })), null);
  });

  it('rejects a method member holding undefined on a pre-parsed value', () => {
    expectInvalidRequest(single(decodeValue({ jsonrpc: '2.0', id: 1, method: undefined })), 1);
  });
});

describe('decodeBody: params member', () => {
  it.each([
    ['an array', [1, 2]],
    ['an empty array', []],
    ['a string', 'params'],
    ['null', null],
    ['a number', 3],
    ['zero', 0],
    ['a boolean', false],
  ])('rejects a request whose params is %s with -32600, keeping its id', (_label, params) => {
    const failure = expectInvalidRequest(decodeOne({ jsonrpc: '2.0', id: 'p', method: 'tools/list', params }), 'p');
    expect(failure.error.message).toBe('Invalid Request: params must be an object');
  });

  it.each([
    ['an array', ['a']],
    ['a string', 's'],
    ['null', null],
    ['a number', 1],
  ])('rejects a notification whose params is %s with id null', (_label, params) => {
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0', method: 'notifications/initialized', params }), null);
  });

  it('rejects a params member holding undefined on a pre-parsed value', () => {
    expectInvalidRequest(single(decodeValue({ jsonrpc: '2.0', id: 1, method: 'ping', params: undefined })), 1);
  });
});

describe('decodeBody: non-object messages', () => {
  it.each([
    ['a string', '"hello"'],
    ['a number', '42'],
    ['zero', '0'],
    ['null', 'null'],
    ['true', 'true'],
    ['false', 'false'],
  ])('rejects a body that is %s with one -32600 and id null', (_label, text) => {
    const failure = expectInvalidRequest(single(decodeBody(text)), null);
    expect(failure.error.message).toBe('Invalid Request: a message must be a JSON object');
  });

  it.each([[undefined], ['x'], [1], [null], [true]])('decodeMessage rejects %p with id null', (value) => {
    expectInvalidRequest(decodeMessage(value), null);
  });
});

describe('decodeBody: result / error members', () => {
  it('rejects a message with both result and error, keeping its id', () => {
    const failure = expectInvalidRequest(
      decodeOne({ jsonrpc: '2.0', id: 1, result: {}, error: { code: 1, message: 'm' } }),
      1,
    );
    expect(failure.error.message).toBe('Invalid Request: a message needs a method, a result or an error');
  });

  it('rejects a message with neither method, result nor error, keeping its id', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0', id: 'only-id' }), 'only-id');
  });

  it('rejects a bare {"jsonrpc":"2.0"} with id null', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0' }), null);
  });

  it('rejects an empty object with id null', () => {
    expectInvalidRequest(single(decodeBody('{}')), null);
  });

  it('does not treat a result member holding undefined as absent on a pre-parsed value', () => {
    expect(single(decodeValue({ jsonrpc: '2.0', id: 1, result: undefined })).kind).toBe('response');
  });
});

describe('decodeBody: malformed error objects', () => {
  it.each([
    ['null', null],
    ['a string', 'boom'],
    ['a number', -32000],
    ['an array', [{ code: 1, message: 'm' }]],
    ['an empty object', {}],
    ['missing code', { message: 'm' }],
    ['missing message', { code: -32000 }],
    ['a string code', { code: '-32000', message: 'm' }],
    ['a fractional code', { code: 1.5, message: 'm' }],
    ['a null code', { code: null, message: 'm' }],
    ['a numeric message', { code: 1, message: 2 }],
    ['a null message', { code: 1, message: null }],
  ])('rejects an error response whose error is %s, keeping its id', (_label, error) => {
    const failure = expectInvalidRequest(decodeOne({ jsonrpc: '2.0', id: 12, error }), 12);
    expect(failure.error.message).toBe('Invalid Request: error must have an integer code and a string message');
  });

  it('rejects a malformed error object with id null when the id is null', () => {
    expectInvalidRequest(decodeOne({ jsonrpc: '2.0', id: null, error: { code: 'x', message: 'm' } }), null);
  });

  it('rejects a non-finite code on a pre-parsed value', () => {
    expectInvalidRequest(single(decodeValue({ jsonrpc: '2.0', id: 1, error: { code: NaN, message: 'm' } })), 1);
    expectInvalidRequest(single(decodeValue({ jsonrpc: '2.0', id: 1, error: { code: Infinity, message: 'm' } })), 1);
  });
});

describe('decodeBody: unparseable JSON', () => {
  it.each([
    ['an empty string', ''],
    ['only whitespace', '   \n '],
    ['a truncated object', '{"jsonrpc":"2.0","id":1,"method":"pi'],
    ['a truncated array', '[{"jsonrpc":"2.0","id":1,"method":"ping"}'],
    ['an unclosed brace', '{'],
    ['a trailing comma', '{"jsonrpc":"2.0","id":1,"method":"ping",}'],
    ['single quotes', "{'jsonrpc':'2.0'}"],
    ['unquoted keys', '{jsonrpc:"2.0"}'],
    ['plain text', 'hello world'],
    ['undefined literal', 'undefined'],
    ['NaN literal', 'NaN'],
    ['two concatenated objects', '{"a":1}{"b":2}'],
    ['a JavaScript comment', '{"jsonrpc":"2.0" /* c */}'],
    ['a byte order mark', '\uFEFF{"jsonrpc":"2.0","id":1,"method":"ping"}'],
    ['a lone minus sign', '-'],
  ])('answers %s with one -32700 and id null, leaking no parser detail', (_label, text) => {
    const error = bodyError(decodeBody(text));
    expect(error).toEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  });

  it('does not echo any of the input or any position in the message', () => {
    const error = bodyError(decodeBody('{"secret":"s3cr3t", oops}'));
    expect(error.error.message).toBe('Parse error');
    expect(JSON.stringify(error.error)).not.toMatch(/s3cr3t|oops|position|column|line|Unexpected|SyntaxError/i);
    expect(Object.keys(error.error)).toEqual(['code', 'message']);
  });
});

describe('decodeBody / decodeValue: batches', () => {
  it('answers an empty batch with a single -32600 body error and id null', () => {
    const error = bodyError(decodeBody('[]'));
    expect(error).toEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: empty batch' },
    });
  });

  it('answers an empty pre-parsed batch the same way', () => {
    expect(decodeValue([])).toEqual(decodeBody('[]'));
  });

  it('classifies every entry independently, in order', () => {
    const text = JSON.stringify([
      { jsonrpc: '2.0', id: 1, method: 'ping' },
      { jsonrpc: '2.0', method: 'notifications/initialized' },
      { jsonrpc: '2.0', id: 'r', result: { a: 1 } },
      { jsonrpc: '2.0', id: 2, error: { code: -1, message: 'no' } },
      { jsonrpc: '1.0', id: 3, method: 'ping' },
      1,
      'str',
      null,
      [],
      [{ jsonrpc: '2.0', id: 4, method: 'ping' }],
      { jsonrpc: '2.0', id: 5, method: 'tools/list', params: [] },
      { jsonrpc: '2.0', id: 6.5, method: 'ping' },
    ]);
    const entries = batch(decodeBody(text));
    expect(entries.map((entry) => entry.kind)).toEqual([
      'request',
      'notification',
      'response',
      'response',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
      'invalid',
    ]);
    expect(entries[0]).toEqual({ kind: 'request', message: { jsonrpc: '2.0', id: 1, method: 'ping' } });
    expect(entries[1]).toEqual({
      kind: 'notification',
      message: { jsonrpc: '2.0', method: 'notifications/initialized' },
    });
    expectInvalidRequest(entries[4]!, 3);
    for (const index of [5, 6, 7, 8, 9]) {
      const failure = expectInvalidRequest(entries[index]!, null);
      expect(failure.error.message).toBe('Invalid Request: a message must be a JSON object');
    }
    expectInvalidRequest(entries[10]!, 5);
    expectInvalidRequest(entries[11]!, null);
  });

  it('returns a batch even when every entry is invalid', () => {
    const entries = batch(decodeBody('[1,2,3]'));
    expect(entries).toHaveLength(3);
    for (const entry of entries) expectInvalidRequest(entry, null);
  });

  it('returns a batch of one for a one-element array', () => {
    const entries = batch(decodeBody('[{"jsonrpc":"2.0","id":1,"method":"ping"}]'));
    expect(entries).toEqual([{ kind: 'request', message: { jsonrpc: '2.0', id: 1, method: 'ping' } }]);
  });

  it('answers a nested empty array as one invalid entry, not as an empty batch', () => {
    const entries = batch(decodeBody('[[]]'));
    expect(entries).toHaveLength(1);
    expectInvalidRequest(entries[0]!, null);
  });

  it('answers a truncated batch as a parse error, not per entry', () => {
    expect(bodyError(decodeBody('[{"jsonrpc":"2.0","id":1,"method":"ping"},')).error.code).toBe(-32700);
  });
});

describe('decodeValue on pre-parsed values', () => {
  it('classifies a pre-parsed request', () => {
    const value = { jsonrpc: '2.0', id: 1, method: 'ping' };
    const body = decodeValue(value);
    expect(body).toEqual({ kind: 'single', entry: { kind: 'request', message: value } });
    expect(single(body)).toHaveProperty('message', value);
  });

  it('returns the very same message object it was given', () => {
    const value = { jsonrpc: '2.0', id: 1, method: 'ping', params: { a: 1 } };
    const entry = single(decodeValue(value));
    if (entry.kind !== 'request') throw new Error('expected a request');
    expect(entry.message).toBe(value);
  });

  it('classifies a pre-parsed batch entry by entry', () => {
    const entries = batch(
      decodeValue([{ jsonrpc: '2.0', method: 'notifications/initialized' }, 'nope', { jsonrpc: '2.0', id: 'x' }]),
    );
    expect(entries[0]!.kind).toBe('notification');
    expectInvalidRequest(entries[1]!, null);
    expectInvalidRequest(entries[2]!, 'x');
  });

  it.each([[undefined], [null], [7], ['string']])('answers a pre-parsed non-object %p as a single invalid', (v) => {
    expectInvalidRequest(single(decodeValue(v)), null);
  });

  it('rejects pre-parsed unsafe and fractional ids', () => {
    expectInvalidRequest(single(decodeValue({ jsonrpc: '2.0', id: 2 ** 53, method: 'ping' })), null);
    expectInvalidRequest(single(decodeValue({ jsonrpc: '2.0', id: 0.5, method: 'ping' })), null);
    expectInvalidRequest(single(decodeValue({ jsonrpc: '2.0', id: NaN, method: 'ping' })), null);
  });

  it('decodeBody(text) equals decodeValue(JSON.parse(text))', () => {
    const text = '[{"jsonrpc":"2.0","id":1,"method":"ping"},{"jsonrpc":"2.0","method":3}]';
    expect(decodeBody(text)).toEqual(decodeValue(JSON.parse(text)));
  });
});

describe('encodeMessage and builders', () => {
  it('encodes a success response', () => {
    expect(encodeMessage(successResponse(1, { tools: [] }))).toBe('{"jsonrpc":"2.0","id":1,"result":{"tools":[]}}');
  });

  it('successResponse builds exactly jsonrpc, id and result', () => {
    expect(successResponse('a', null)).toStrictEqual({ jsonrpc: '2.0', id: 'a', result: null });
  });

  it('encodes an error response', () => {
    expect(encodeMessage(errorResponse(null, invalidParams('x')))).toBe(
      '{"jsonrpc":"2.0","id":null,"error":{"code":-32602,"message":"Invalid params: x"}}',
    );
  });

  it('encodes a batch as a JSON array in order', () => {
    const messages: JsonRpcMessage[] = [successResponse(1, 'a'), successResponse('2', 'b')];
    expect(encodeMessage(messages)).toBe(
      '[{"jsonrpc":"2.0","id":1,"result":"a"},{"jsonrpc":"2.0","id":"2","result":"b"}]',
    );
  });

  it('round-trips an encoded request through decodeBody', () => {
    const request = requestMessage(5, 'tools/call', { name: 'echo', arguments: { text: 'hi' } });
    expect(decodeBody(encodeMessage(request))).toEqual({
      kind: 'single',
      entry: { kind: 'request', message: request },
    });
  });

  it('round-trips an encoded notification through decodeBody', () => {
    const notification = notificationMessage('notifications/tools/list_changed');
    expect(decodeBody(encodeMessage(notification))).toEqual({
      kind: 'single',
      entry: { kind: 'notification', message: notification },
    });
  });

  it('notificationMessage omits params when undefined', () => {
    const message = notificationMessage('notifications/initialized');
    expect(message).toStrictEqual({ jsonrpc: '2.0', method: 'notifications/initialized' });
    expect('params' in message).toBe(false);
    expect(encodeMessage(message)).toBe('{"jsonrpc":"2.0","method":"notifications/initialized"}');
  });

  it('notificationMessage keeps params when given, even empty', () => {
    expect(notificationMessage('m', { a: 1 })).toStrictEqual({ jsonrpc: '2.0', method: 'm', params: { a: 1 } });
    expect(notificationMessage('m', {})).toStrictEqual({ jsonrpc: '2.0', method: 'm', params: {} });
  });

  it('requestMessage omits params when undefined', () => {
    const message = requestMessage(0, 'ping');
    expect(message).toStrictEqual({ jsonrpc: '2.0', id: 0, method: 'ping' });
    expect('params' in message).toBe(false);
    expect(encodeMessage(message)).toBe('{"jsonrpc":"2.0","id":0,"method":"ping"}');
  });

  it('requestMessage keeps params and a string id when given', () => {
    expect(requestMessage('s-1', 'tools/list', { cursor: 'c' })).toStrictEqual({
      jsonrpc: '2.0',
      id: 's-1',
      method: 'tools/list',
      params: { cursor: 'c' },
    });
  });
});

describe('encodeResponse', () => {
  const internal = (id: RequestId | null): string =>
    JSON.stringify({ jsonrpc: '2.0', id, error: { code: -32603, message: 'Internal error' } });

  /** A callback that records what it was told. */
  function recorder(): { onFailure: (error: unknown) => void; errors: unknown[] } {
    const errors: unknown[] = [];
    return { onFailure: (error) => errors.push(error), errors };
  }

  it('encodes a good success response exactly as JSON.stringify does, reporting nothing', () => {
    const { onFailure, errors } = recorder();
    const response = successResponse('a-1', { content: [{ type: 'text', text: 'héllo ☀' }], nested: { n: 1 } });
    expect(encodeResponse(response, onFailure)).toBe(JSON.stringify(response));
    expect(errors).toEqual([]);
  });

  it('encodes an error response as it is', () => {
    const { onFailure, errors } = recorder();
    const response = errorResponse(7, invalidParams('x'));
    expect(encodeResponse(response, onFailure)).toBe(JSON.stringify(response));
    expect(errors).toEqual([]);
  });

  it('answers a result holding a BigInt with -32603 for the same id, and reports why', () => {
    const { onFailure, errors } = recorder();
    const text = encodeResponse(successResponse(3, { structuredContent: { n: 1n } }), onFailure);
    expect(text).toBe(internal(3));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
  });

  it('answers a circular result with -32603 for the same id, and reports why', () => {
    const { onFailure, errors } = recorder();
    const cycle: Record<string, unknown> = { name: 'loop' };
    cycle.self = cycle;
    expect(encodeResponse(successResponse('c', { structuredContent: cycle }), onFailure)).toBe(internal('c'));
    expect(errors).toHaveLength(1);
    expect(errors[0]).toBeInstanceOf(TypeError);
  });

  it('answers an undefined result (which JSON.stringify drops) with -32603 for the same id, and reports it', () => {
    const { onFailure, errors } = recorder();
    const text = encodeResponse(successResponse(4, undefined), onFailure);
    expect(text).toBe(internal(4));
    expect(errors).toHaveLength(1);
  });

  it('never produces a success response without a result (results JSON.stringify drops: function, symbol)', () => {
    for (const result of [undefined, () => 1, Symbol('s')]) {
      const parsed = JSON.parse(encodeResponse(successResponse(6, result))) as Record<string, unknown>;
      expect('result' in parsed || 'error' in parsed).toBe(true);
    }
  });

  it('works without a callback', () => {
    expect(encodeResponse(successResponse(8, { n: 1n }))).toBe(internal(8));
  });

  it('keeps string ids and id 0 in the internal error', () => {
    expect(encodeResponse(successResponse(0, { n: 1n }))).toBe(internal(0));
    expect(encodeResponse(successResponse('', { n: 1n }))).toBe(internal(''));
  });
});
