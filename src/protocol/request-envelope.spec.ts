import { JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import { claimsModernEra, MetaKey, readEnvelope } from './request-envelope.js';
import { thrownBy } from '../../test/utils/thrown.js';

const VERSION = 'io.modelcontextprotocol/protocolVersion';
const CAPABILITIES = 'io.modelcontextprotocol/clientCapabilities';
const CLIENT_INFO = 'io.modelcontextprotocol/clientInfo';
const LOG_LEVEL = 'io.modelcontextprotocol/logLevel';

/** A complete envelope, with `overrides` replacing (or, as `undefined`, removing) fields. */
function paramsWith(overrides: Record<string, unknown> = {}): JsonRpcParams {
  const meta: Record<string, unknown> = {
    [VERSION]: '2026-07-28',
    [CAPABILITIES]: { elicitation: {} },
    [CLIENT_INFO]: { name: 'client', version: '1.0.0' },
  };
  for (const [key, value] of Object.entries(overrides)) {
    if (value === undefined) delete meta[key];
    else meta[key] = value;
  }
  return { name: 'echo', _meta: meta };
}

/** What `readEnvelope` threw, which must be a -32602 naming `key` and `problem` in `data.envelope`. */
function expectEnvelopeError(params: JsonRpcParams | undefined, key: string, problem: string): void {
  const error = thrownBy(() => readEnvelope(params));
  expect(error).toBeInstanceOf(JsonRpcError);
  const { code, message, data } = error as JsonRpcError;
  expect({ code, message, data }).toStrictEqual({
    code: -32602,
    message: `Invalid params: _meta envelope: ${key}: ${problem}`,
    data: { envelope: { key, problem } },
  });
}

describe('MetaKey', () => {
  it('spells the reserved _meta keys of the 2026-07-28 revision', () => {
    expect(MetaKey).toStrictEqual({
      ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
      ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
      ClientInfo: 'io.modelcontextprotocol/clientInfo',
      LogLevel: 'io.modelcontextprotocol/logLevel',
      ServerInfo: 'io.modelcontextprotocol/serverInfo',
      SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
    });
  });
});

describe('claimsModernEra', () => {
  it('is true when params._meta holds the protocol version key, whatever its value', () => {
    for (const value of ['2026-07-28', '2025-11-25', '', 7, null, {}]) {
      expect(claimsModernEra({ _meta: { [VERSION]: value } })).toBe(true);
    }
  });

  it('is false without the key, or without a _meta object', () => {
    expect(claimsModernEra({ _meta: {} })).toBe(false);
    expect(claimsModernEra({ _meta: { [CAPABILITIES]: {} } })).toBe(false);
    expect(claimsModernEra({ [VERSION]: '2026-07-28' })).toBe(false);
    expect(claimsModernEra({ _meta: [{ [VERSION]: '2026-07-28' }] })).toBe(false);
    expect(claimsModernEra({ _meta: null })).toBe(false);
    expect(claimsModernEra({})).toBe(false);
  });

  it('is false for params that are not an object', () => {
    for (const params of [undefined, null, 'x', 3, [{ _meta: { [VERSION]: '2026-07-28' } }]]) {
      expect(claimsModernEra(params)).toBe(false);
    }
  });

  it('ignores a key inherited rather than owned', () => {
    const meta = Object.create({ [VERSION]: '2026-07-28' }) as Record<string, unknown>;
    expect(claimsModernEra({ _meta: meta })).toBe(false);
  });
});

describe('readEnvelope: accepted envelopes', () => {
  it('reads every field', () => {
    const envelope = readEnvelope(paramsWith({ [LOG_LEVEL]: 'warning' }));
    expect(envelope).toStrictEqual({
      protocolVersion: '2026-07-28',
      clientCapabilities: { elicitation: {} },
      clientInfo: { name: 'client', version: '1.0.0' },
      logLevel: 'warning',
    });
  });

  it('hands over the capabilities object as sent', () => {
    const params = paramsWith({ [CAPABILITIES]: { sampling: { tools: {} }, extensions: { x: {} } } });
    expect(readEnvelope(params).clientCapabilities).toBe((params._meta as Record<string, unknown>)[CAPABILITIES]);
  });

  it('accepts empty capabilities: the client supports no optional capability', () => {
    expect(readEnvelope(paramsWith({ [CAPABILITIES]: {} })).clientCapabilities).toStrictEqual({});
  });

  it('leaves clientInfo out when the request has none (it is optional)', () => {
    const envelope = readEnvelope(paramsWith({ [CLIENT_INFO]: undefined }));
    expect(envelope).toStrictEqual({ protocolVersion: '2026-07-28', clientCapabilities: { elicitation: {} } });
    expect(Object.hasOwn(envelope, 'clientInfo')).toBe(false);
  });

  it('keeps the other fields of clientInfo', () => {
    const clientInfo = { name: 'client', version: '2.0', title: 'Client', websiteUrl: 'https://example.com' };
    expect(readEnvelope(paramsWith({ [CLIENT_INFO]: clientInfo })).clientInfo).toStrictEqual(clientInfo);
  });

  it('leaves logLevel out when the request sets none (no logs for it)', () => {
    expect(Object.hasOwn(readEnvelope(paramsWith()), 'logLevel')).toBe(false);
  });

  it.each(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'])(
    'accepts the log level %s',
    (level) => {
      expect(readEnvelope(paramsWith({ [LOG_LEVEL]: level })).logLevel).toBe(level);
    },
  );

  it('accepts any non-empty version (whether it is spoken is checked later)', () => {
    expect(readEnvelope(paramsWith({ [VERSION]: '1999-01-01' })).protocolVersion).toBe('1999-01-01');
  });

  it('ignores other _meta keys', () => {
    const params = paramsWith({ progressToken: 'p', 'example.com/x': 1 });
    expect(readEnvelope(params)).toStrictEqual(readEnvelope(paramsWith()));
  });
});

describe('readEnvelope: refused envelopes', () => {
  it('refuses params without _meta', () => {
    expectEnvelopeError(undefined, '_meta', 'missing');
    expectEnvelopeError({}, '_meta', 'missing');
    expectEnvelopeError({ name: 'x' }, '_meta', 'missing');
  });

  it.each([
    ['null', null],
    ['an array', [{ [VERSION]: '2026-07-28' }]],
    ['a string', '2026-07-28'],
  ])('refuses a _meta that is %s', (_label, meta) => {
    expectEnvelopeError({ _meta: meta }, '_meta', 'missing');
  });

  it('refuses a missing protocol version', () => {
    expectEnvelopeError(paramsWith({ [VERSION]: undefined }), VERSION, 'missing');
  });

  it.each([
    ['empty', ''],
    ['a number', 20260728],
    ['null', null],
    ['an object', { version: '2026-07-28' }],
  ])('refuses a protocol version that is %s', (_label, version) => {
    expectEnvelopeError(paramsWith({ [VERSION]: version }), VERSION, 'must be a non-empty string');
  });

  it('refuses missing client capabilities', () => {
    expectEnvelopeError(paramsWith({ [CAPABILITIES]: undefined }), CAPABILITIES, 'missing');
  });

  it.each([
    ['null', null],
    ['an array', [{}]],
    ['a string', 'elicitation'],
    ['true', true],
  ])('refuses client capabilities that are %s', (_label, capabilities) => {
    expectEnvelopeError(paramsWith({ [CAPABILITIES]: capabilities }), CAPABILITIES, 'must be an object');
  });

  it.each([
    ['null', null],
    ['a string', 'client/1.0'],
    ['an array', [{ name: 'client', version: '1.0' }]],
    ['without a name', { version: '1.0' }],
    ['without a version', { name: 'client' }],
    ['with a numeric version', { name: 'client', version: 1 }],
    ['with a numeric name', { name: 7, version: '1.0' }],
  ])('refuses clientInfo %s', (_label, clientInfo) => {
    expectEnvelopeError(
      paramsWith({ [CLIENT_INFO]: clientInfo }),
      CLIENT_INFO,
      'must be an object with string name and version',
    );
  });

  it.each(['verbose', 'INFO', 'warn', '', 3, null, ['info']])('refuses the log level %p', (level) => {
    expectEnvelopeError(
      paramsWith({ [LOG_LEVEL]: level }),
      LOG_LEVEL,
      'must be one of debug, info, notice, warning, error, critical, alert, emergency',
    );
  });

  it('names the first problem, in the order version, capabilities, clientInfo, logLevel', () => {
    expectEnvelopeError(
      paramsWith({ [VERSION]: undefined, [CAPABILITIES]: undefined, [CLIENT_INFO]: 1, [LOG_LEVEL]: 'x' }),
      VERSION,
      'missing',
    );
    expectEnvelopeError(
      paramsWith({ [CAPABILITIES]: undefined, [CLIENT_INFO]: 1, [LOG_LEVEL]: 'x' }),
      CAPABILITIES,
      'missing',
    );
    expectEnvelopeError(
      paramsWith({ [CLIENT_INFO]: 1, [LOG_LEVEL]: 'x' }),
      CLIENT_INFO,
      'must be an object with string name and version',
    );
  });
});
