import {
  acceptInitialize,
  MAX_CLIENT_CAPABILITIES_LENGTH,
  MAX_INITIALIZE_PARAMS_LENGTH,
  type ServerDescription,
} from './initialize.js';
import { JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcParams } from './json-rpc.types.js';
import { thrownBy } from '../../test/utils/thrown.js';

const server: ServerDescription = {
  serverInfo: { name: 'test-server', version: '1.2.3', title: 'Test Server' },
  capabilities: {
    tools: { listChanged: true },
    resources: { subscribe: true, listChanged: true },
    prompts: { listChanged: true },
    completions: {},
    logging: {},
  },
  instructions: 'Use the echo tool.',
};

const clientInfo = { name: 'test-client', version: '0.9.0' };

function params(overrides: Record<string, unknown> = {}): JsonRpcParams {
  return { protocolVersion: '2025-06-18', capabilities: { sampling: {} }, clientInfo, ...overrides };
}

/** Runs `action`, failing unless it throws a JsonRpcError, and returns that error. */
function thrown(action: () => unknown): JsonRpcError {
  const error = thrownBy(action);
  expect(error).toBeInstanceOf(JsonRpcError);
  return error as JsonRpcError;
}

function expectInvalidParams(input: JsonRpcParams | undefined, detail: string): void {
  const error = thrown(() => acceptInitialize(input, server));
  expect(error.code).toBe(-32602);
  expect(error.message).toBe(`Invalid params: ${detail}`);
}

describe('acceptInitialize: accepted requests', () => {
  it.each(['2025-11-25', '2025-06-18', '2025-03-26', '2024-11-05', '2024-10-07'])(
    'echoes the supported protocolVersion %s',
    (version) => {
      const handshake = acceptInitialize(params({ protocolVersion: version }), server);
      expect(handshake.protocolVersion).toBe(version);
      expect(handshake.result.protocolVersion).toBe(version);
    },
  );

  it('answers with the full InitializeResult', () => {
    const handshake = acceptInitialize(params(), server);
    expect(handshake.result).toStrictEqual({
      protocolVersion: '2025-06-18',
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      },
      serverInfo: { name: 'test-server', version: '1.2.3', title: 'Test Server' },
      instructions: 'Use the echo tool.',
    });
  });

  it('carries the server description by reference', () => {
    const { result } = acceptInitialize(params(), server);
    expect(result.serverInfo).toBe(server.serverInfo);
    expect(result.capabilities).toBe(server.capabilities);
  });

  it('omits instructions when the server has none', () => {
    const { result } = acceptInitialize(params(), {
      serverInfo: { name: 's', version: '1' },
      capabilities: {},
    });
    expect(result).toStrictEqual({
      protocolVersion: '2025-06-18',
      capabilities: {},
      serverInfo: { name: 's', version: '1' },
    });
    expect('instructions' in result).toBe(false);
    expect(JSON.stringify(result)).not.toContain('instructions');
  });

  it('omits instructions when explicitly undefined', () => {
    const { result } = acceptInitialize(params(), { ...server, instructions: undefined });
    expect('instructions' in result).toBe(false);
  });

  it('keeps empty instructions (only undefined is omitted)', () => {
    const { result } = acceptInitialize(params(), { ...server, instructions: '' });
    expect(result.instructions).toBe('');
  });

  it.each(['2099-12-31', '2026-07-28', 'garbage', '', '1.0'])(
    'negotiates the unknown version %p to the latest',
    (version) => {
      const handshake = acceptInitialize(params({ protocolVersion: version }), server);
      expect(handshake.protocolVersion).toBe('2025-11-25');
      expect(handshake.result.protocolVersion).toBe('2025-11-25');
    },
  );

  it('carries the capabilities as sent and the identifying fields of clientInfo', () => {
    const info = {
      name: 'c',
      version: '2',
      title: 'Client',
      description: 'd',
      websiteUrl: 'https://c.example',
      icons: [{ src: 'data:image/png;base64,AAAA' }],
      extra: { x: 1 },
    };
    const capabilities = { roots: { listChanged: true }, experimental: { y: true } };
    const handshake = acceptInitialize(params({ clientInfo: info, capabilities }), server);
    expect(handshake.clientCapabilities).toBe(capabilities);
    // Icons and unknown fields are not kept for the session's life.
    expect(handshake.clientInfo).toStrictEqual({
      name: 'c',
      version: '2',
      title: 'Client',
      description: 'd',
      websiteUrl: 'https://c.example',
    });
  });

  it('cuts clientInfo strings to 256 characters', () => {
    const long = 'n'.repeat(1_000);
    const handshake = acceptInitialize(params({ clientInfo: { name: long, version: '1', title: 7 } }), server);
    expect(handshake.clientInfo).toStrictEqual({ name: 'n'.repeat(256), version: '1' });
  });

  it('refuses capabilities over 4 KiB of JSON with -32602, and accepts them at the limit', () => {
    const sized = (length: number): Record<string, unknown> => {
      const room = length - JSON.stringify({ experimental: { pad: '' } }).length;
      return { experimental: { pad: 'x'.repeat(room) } };
    };
    expect(MAX_CLIENT_CAPABILITIES_LENGTH).toBe(4 * 1024);
    expect(
      acceptInitialize(params({ capabilities: sized(MAX_CLIENT_CAPABILITIES_LENGTH) }), server).protocolVersion,
    ).toBe('2025-06-18');
    expect(() => acceptInitialize(params({ capabilities: sized(MAX_CLIENT_CAPABILITIES_LENGTH + 1) }), server)).toThrow(
      `capabilities must not exceed ${MAX_CLIENT_CAPABILITIES_LENGTH} characters`,
    );
  });

  it('accepts empty capabilities and empty name/version strings', () => {
    const handshake = acceptInitialize(params({ capabilities: {}, clientInfo: { name: '', version: '' } }), server);
    expect(handshake.clientCapabilities).toStrictEqual({});
    expect(handshake.clientInfo).toStrictEqual({ name: '', version: '' });
  });

  it('ignores extra params such as _meta', () => {
    const handshake = acceptInitialize(params({ _meta: { progressToken: 1 }, unknown: true }), server);
    expect(handshake.protocolVersion).toBe('2025-06-18');
  });

  it('does not modify the params it is given', () => {
    const input = params();
    const snapshot = JSON.parse(JSON.stringify(input)) as unknown;
    acceptInitialize(input, server);
    expect(input).toStrictEqual(snapshot);
  });
});

describe('acceptInitialize: refused requests', () => {
  it('refuses missing params', () => {
    expectInvalidParams(undefined, 'initialize needs protocolVersion, capabilities and clientInfo');
  });

  it('refuses empty params', () => {
    expectInvalidParams({}, 'protocolVersion must be a string');
  });

  it('refuses a missing protocolVersion', () => {
    const { protocolVersion: _omitted, ...rest } = params();
    expectInvalidParams(rest, 'protocolVersion must be a string');
  });

  it.each([
    ['a number', 20250618],
    ['null', null],
    ['an object', { v: '2025-06-18' }],
    ['an array', ['2025-06-18']],
    ['a boolean', true],
  ])('refuses a protocolVersion that is %s', (_label, protocolVersion) => {
    expectInvalidParams(params({ protocolVersion }), 'protocolVersion must be a string');
  });

  it('refuses missing capabilities', () => {
    const { capabilities: _omitted, ...rest } = params();
    expectInvalidParams(rest, 'capabilities must be an object');
  });

  it.each([
    ['null', null],
    ['an array', []],
    ['a string', 'all'],
    ['a number', 1],
    ['a boolean', true],
  ])('refuses capabilities that are %s', (_label, capabilities) => {
    expectInvalidParams(params({ capabilities }), 'capabilities must be an object');
  });

  it('refuses a missing clientInfo', () => {
    const { clientInfo: _omitted, ...rest } = params();
    expectInvalidParams(rest, 'clientInfo must be an object with string name and version');
  });

  it.each([
    ['null', null],
    ['an array', [clientInfo]],
    ['a string', 'test-client/0.9.0'],
    ['a number', 1],
    ['without name', { version: '1' }],
    ['without version', { name: 'c' }],
    ['empty', {}],
    ['with a numeric name', { name: 1, version: '1' }],
    ['with a null name', { name: null, version: '1' }],
    ['with a numeric version', { name: 'c', version: 1 }],
    ['with an object version', { name: 'c', version: { major: 1 } }],
  ])('refuses a clientInfo that is %s', (_label, info) => {
    expectInvalidParams(params({ clientInfo: info }), 'clientInfo must be an object with string name and version');
  });

  it('checks protocolVersion before capabilities and clientInfo', () => {
    expectInvalidParams(
      { protocolVersion: 1, capabilities: null, clientInfo: null },
      'protocolVersion must be a string',
    );
  });

  it('checks capabilities before clientInfo', () => {
    expectInvalidParams(
      { protocolVersion: '2025-06-18', capabilities: null, clientInfo: null },
      'capabilities must be an object',
    );
  });

  it('refuses with a JsonRpcError that carries no data', () => {
    const error = thrown(() => acceptInitialize(params({ capabilities: 'x' }), server));
    expect(error.data).toBeUndefined();
    expect(error.toErrorObject()).toStrictEqual({
      code: -32602,
      message: 'Invalid params: capabilities must be an object',
    });
  });
});

describe('acceptInitialize: size of the params', () => {
  /** Params whose JSON text is exactly `length` characters, padded inside capabilities with `pad`. */
  function paramsOfLength(length: number, pad = 'x'): JsonRpcParams {
    // Padded in `_meta`, which is measured but not kept (capabilities have a smaller limit of their own).
    const base = params({ _meta: { padding: '' } });
    const room = length - JSON.stringify(base).length;
    const padded = params({ _meta: { padding: pad.repeat(room) } });
    expect(JSON.stringify(padded)).toHaveLength(length);
    return padded;
  }

  it('is bounded at 64 KiB of JSON text', () => {
    expect(MAX_INITIALIZE_PARAMS_LENGTH).toBe(64 * 1024);
  });

  it('accepts params exactly at the limit, keeping the capabilities as sent', () => {
    const input = paramsOfLength(MAX_INITIALIZE_PARAMS_LENGTH);
    const handshake = acceptInitialize(input, server);
    expect(handshake.protocolVersion).toBe('2025-06-18');
    expect(handshake.clientCapabilities).toBe(input.capabilities);
  });

  it('refuses params one character over the limit with -32602', () => {
    expectInvalidParams(
      paramsOfLength(MAX_INITIALIZE_PARAMS_LENGTH + 1),
      `initialize params must not exceed ${MAX_INITIALIZE_PARAMS_LENGTH} characters`,
    );
  });

  it('counts the size anywhere in the params: clientInfo and extra fields too', () => {
    const big = 'y'.repeat(MAX_INITIALIZE_PARAMS_LENGTH);
    expect(() => acceptInitialize(params({ clientInfo: { ...clientInfo, description: big } }), server)).toThrow(
      JsonRpcError,
    );
    expect(() => acceptInitialize(params({ _meta: { big } }), server)).toThrow(JsonRpcError);
  });

  it('measures characters of JSON, not bytes: multi-byte text at the limit is accepted', () => {
    const input = paramsOfLength(MAX_INITIALIZE_PARAMS_LENGTH, 'é');
    expect(Buffer.byteLength(JSON.stringify(input))).toBeGreaterThan(MAX_INITIALIZE_PARAMS_LENGTH);
    expect(acceptInitialize(input, server).protocolVersion).toBe('2025-06-18');
  });

  it('still reports a malformed field first, whatever the size', () => {
    expectInvalidParams(
      { ...paramsOfLength(MAX_INITIALIZE_PARAMS_LENGTH + 10), protocolVersion: 5 },
      'protocolVersion must be a string',
    );
  });
});
