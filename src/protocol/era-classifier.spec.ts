import { classifyPost, type EraVerdict } from './era-classifier.js';
import { decodeBody, decodeValue, type DecodedBody } from './json-rpc.codec.js';
import type { JsonRpcFailure, JsonRpcNotification, JsonRpcRequest } from './json-rpc.types.js';

const PROTOCOL_VERSION_KEY = 'io.modelcontextprotocol/protocolVersion';

/** The `_meta` of a request that claims the modern era. */
const claim = (version: unknown = '2026-07-28'): Record<string, unknown> => ({
  [PROTOCOL_VERSION_KEY]: version,
  'io.modelcontextprotocol/clientCapabilities': {},
});

const claimed = (method = 'tools/list', id: number | string = 1, version: unknown = '2026-07-28') => ({
  jsonrpc: '2.0',
  id,
  method,
  params: { _meta: claim(version) },
});

const plain = (method = 'tools/list', id: number | string = 1) => ({ jsonrpc: '2.0', id, method, params: {} });

function modernMessage(verdict: EraVerdict): JsonRpcRequest | JsonRpcNotification {
  if (verdict.era !== 'modern') throw new Error(`expected a modern verdict, got ${JSON.stringify(verdict)}`);
  return verdict.message;
}

function refusal(verdict: EraVerdict): { status: number; response: JsonRpcFailure } {
  if (verdict.era !== 'refused') throw new Error(`expected a refusal, got ${JSON.stringify(verdict)}`);
  return { status: verdict.status, response: verdict.response };
}

describe('classifyPost: a single message claiming the modern era', () => {
  it('is modern and hands over the very message that was decoded', () => {
    const body = decodeValue(claimed('tools/call', 7));
    const verdict = classifyPost(body, undefined, false);
    expect(verdict.era).toBe('modern');
    if (body.kind !== 'single' || body.entry.kind !== 'request') throw new Error('unexpected decoding');
    expect(modernMessage(verdict)).toBe(body.entry.message);
  });

  it('is modern with a matching header too', () => {
    expect(classifyPost(decodeValue(claimed()), '2026-07-28', false).era).toBe('modern');
  });

  it('is modern even with an Mcp-Session-Id header (the body decides first)', () => {
    expect(classifyPost(decodeValue(claimed()), undefined, true).era).toBe('modern');
    expect(classifyPost(decodeValue(claimed()), '2025-11-25', true).era).toBe('modern');
  });

  it('is modern even when the claim names a version that is not spoken, or is not a string', () => {
    for (const version of ['2025-11-25', '1999-01-01', '', 42, null]) {
      expect(classifyPost(decodeValue(claimed('tools/list', 1, version)), undefined, false).era).toBe('modern');
    }
  });

  it('is modern for an initialize that claims the era (which the modern era then does not find)', () => {
    const message = modernMessage(classifyPost(decodeValue(claimed('initialize')), undefined, false));
    expect(message.method).toBe('initialize');
  });

  it('is modern for a notification that claims the era', () => {
    const notification = {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 3, _meta: claim() },
    };
    const message = modernMessage(classifyPost(decodeValue(notification), undefined, false));
    expect(message).toStrictEqual(notification);
    expect('id' in message).toBe(false);
  });
});

describe('classifyPost: a single message without a claim', () => {
  it('is legacy without any version header', () => {
    expect(classifyPost(decodeValue(plain()), undefined, false)).toStrictEqual({ era: 'legacy' });
  });

  it.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05'])('is legacy with the legacy header %s', (header) => {
    expect(classifyPost(decodeValue(plain()), header, false)).toStrictEqual({ era: 'legacy' });
  });

  it.each(['2027-01-01', '2026-07-29', 'garbage', ''])(
    'is legacy with a header naming no modern revision (%p)',
    (h) => {
      expect(classifyPost(decodeValue(plain()), h, false)).toStrictEqual({ era: 'legacy' });
    },
  );

  it('is modern by a modern header alone, when no session header came (a malformed modern request)', () => {
    const body = decodeValue(plain('tools/call', 'abc'));
    const message = modernMessage(classifyPost(body, '2026-07-28', false));
    expect(message).toStrictEqual(plain('tools/call', 'abc'));
  });

  it('is legacy with a modern header when an Mcp-Session-Id header came', () => {
    expect(classifyPost(decodeValue(plain()), '2026-07-28', true)).toStrictEqual({ era: 'legacy' });
  });

  it('is legacy when _meta holds other keys but no protocol version', () => {
    const message = {
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/list',
      params: { _meta: { progressToken: 1, 'io.modelcontextprotocol/clientCapabilities': {} } },
    };
    expect(classifyPost(decodeValue(message), undefined, false).era).toBe('legacy');
  });

  it('is legacy when the version is named outside _meta (as initialize names it)', () => {
    const initialize = {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { [PROTOCOL_VERSION_KEY]: '2026-07-28', protocolVersion: '2026-07-28', capabilities: {} },
    };
    expect(classifyPost(decodeValue(initialize), undefined, false).era).toBe('legacy');
  });

  it('is legacy when _meta is not an object', () => {
    for (const meta of [[claim()], 'x', null]) {
      const message = { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: meta } };
      expect(classifyPost(decodeValue(message), undefined, false).era).toBe('legacy');
    }
  });

  it('is legacy without params', () => {
    expect(classifyPost(decodeValue({ jsonrpc: '2.0', id: 1, method: 'ping' }), undefined, false).era).toBe('legacy');
  });
});

describe('classifyPost: responses', () => {
  const response = { jsonrpc: '2.0', id: 5, result: { _meta: claim() } };

  it('is legacy, with or without a modern header', () => {
    expect(classifyPost(decodeValue(response), undefined, false)).toStrictEqual({ era: 'legacy' });
    expect(classifyPost(decodeValue(response), '2026-07-28', false)).toStrictEqual({ era: 'legacy' });
  });

  it('is legacy for an error response too', () => {
    const failure = { jsonrpc: '2.0', id: 5, error: { code: -32601, message: 'nope' } };
    expect(classifyPost(decodeValue(failure), '2026-07-28', false)).toStrictEqual({ era: 'legacy' });
  });
});

describe('classifyPost: invalid single messages', () => {
  const invalid = { jsonrpc: '2.0', id: 9, method: 42 };

  it('is refused with 400 and the message error when a modern header came without a session', () => {
    const body = decodeValue(invalid);
    if (body.kind !== 'single' || body.entry.kind !== 'invalid') throw new Error('unexpected decoding');
    const { status, response } = refusal(classifyPost(body, '2026-07-28', false));
    expect(status).toBe(400);
    expect(response).toBe(body.entry.error);
    expect(response).toStrictEqual({
      jsonrpc: '2.0',
      id: 9,
      error: { code: -32600, message: 'Invalid Request: method must be a string' },
    });
  });

  it('is legacy without a modern header', () => {
    expect(classifyPost(decodeValue(invalid), undefined, false)).toStrictEqual({ era: 'legacy' });
    expect(classifyPost(decodeValue(invalid), '2025-11-25', false)).toStrictEqual({ era: 'legacy' });
  });

  it('is legacy with a modern header and a session header', () => {
    expect(classifyPost(decodeValue(invalid), '2026-07-28', true)).toStrictEqual({ era: 'legacy' });
  });
});

describe('classifyPost: bodies that are errors', () => {
  const unparseable: DecodedBody = decodeBody('{"jsonrpc": "2.0", "id": 1,');
  const emptyBatch: DecodedBody = decodeValue([]);

  it('refuses a parse error with 400 when a modern header came without a session', () => {
    const { status, response } = refusal(classifyPost(unparseable, '2026-07-28', false));
    expect(status).toBe(400);
    expect(response).toStrictEqual({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } });
  });

  it('refuses an empty batch with 400 and its own error when a modern header came', () => {
    if (emptyBatch.kind !== 'error') throw new Error('unexpected decoding');
    const { status, response } = refusal(classifyPost(emptyBatch, '2026-07-28', false));
    expect(status).toBe(400);
    expect(response).toBe(emptyBatch.error);
    expect(response.error.code).toBe(-32600);
  });

  it('leaves them to the legacy path otherwise', () => {
    expect(classifyPost(unparseable, undefined, false)).toStrictEqual({ era: 'legacy' });
    expect(classifyPost(unparseable, '2025-11-25', false)).toStrictEqual({ era: 'legacy' });
    expect(classifyPost(unparseable, '2026-07-28', true)).toStrictEqual({ era: 'legacy' });
    expect(classifyPost(emptyBatch, undefined, false)).toStrictEqual({ era: 'legacy' });
  });
});

describe('classifyPost: batches', () => {
  const batchRefusal = {
    jsonrpc: '2.0',
    id: null,
    error: { code: -32600, message: 'Invalid Request: batches may not carry requests of protocol revision 2026-07-28' },
  };

  it('is legacy when no entry claims the era and no modern header came', () => {
    const body = decodeValue([plain('tools/list', 1), plain('ping', 2), { jsonrpc: '2.0', method: 'x' }]);
    expect(classifyPost(body, undefined, false)).toStrictEqual({ era: 'legacy' });
    expect(classifyPost(body, '2025-03-26', false)).toStrictEqual({ era: 'legacy' });
  });

  it('is legacy with invalid entries and responses among legacy ones', () => {
    const body = decodeValue([plain('tools/list', 1), 'junk', { jsonrpc: '2.0', id: 4, result: {} }]);
    expect(classifyPost(body, undefined, false)).toStrictEqual({ era: 'legacy' });
  });

  it('refuses a batch with one request claiming the era, wherever it stands (400, -32600, id null)', () => {
    for (const entries of [
      [claimed('tools/list', 1)],
      [plain('tools/list', 1), claimed('tools/call', 2)],
      [claimed('tools/call', 2), plain('tools/list', 1)],
    ]) {
      const { status, response } = refusal(classifyPost(decodeValue(entries), undefined, false));
      expect(status).toBe(400);
      expect(response).toStrictEqual(batchRefusal);
    }
  });

  it('refuses a batch with a notification claiming the era', () => {
    const notification = { jsonrpc: '2.0', method: 'notifications/cancelled', params: { _meta: claim() } };
    const verdict = classifyPost(decodeValue([plain(), notification]), undefined, false);
    expect(refusal(verdict)).toStrictEqual({ status: 400, response: batchRefusal });
  });

  it('refuses a claiming batch even with a session header', () => {
    const verdict = classifyPost(decodeValue([plain(), claimed('tools/list', 2)]), '2025-03-26', true);
    expect(refusal(verdict)).toStrictEqual({ status: 400, response: batchRefusal });
  });

  it('refuses a batch without a claim when a modern header came without a session', () => {
    const verdict = classifyPost(decodeValue([plain('tools/list', 1), plain('ping', 2)]), '2026-07-28', false);
    expect(refusal(verdict)).toStrictEqual({ status: 400, response: batchRefusal });
  });

  it('leaves a batch without a claim to the session when a session header came with a modern header', () => {
    const verdict = classifyPost(decodeValue([plain('tools/list', 1)]), '2026-07-28', true);
    expect(verdict).toStrictEqual({ era: 'legacy' });
  });

  it('does not count a claim inside an invalid entry or a response', () => {
    const invalidClaim = { jsonrpc: '1.0', id: 3, method: 'tools/list', params: { _meta: claim() } };
    const responseClaim = { jsonrpc: '2.0', id: 4, result: { _meta: claim() } };
    const verdict = classifyPost(decodeValue([plain(), invalidClaim, responseClaim]), undefined, false);
    expect(verdict).toStrictEqual({ era: 'legacy' });
  });
});
