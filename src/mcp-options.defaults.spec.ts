import { jest } from '@jest/globals';
import type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import type { ResolvedMcpOptions } from './interfaces/resolved-mcp-options.interface.js';
import { MCP_OPTION_DEFAULTS, resolveMcpOptions } from './mcp-options.defaults.js';
import type { McpEventStore } from './interfaces/mcp-event-store.interface.js';
import { InMemoryEventStore } from './session/in-memory-event-store.js';

/** The resolved options without the event store, which is a fresh instance each time. */
function withoutStore(resolved: ResolvedMcpOptions): Omit<ResolvedMcpOptions, 'eventStore'> {
  const { eventStore: _eventStore, ...rest } = resolved;
  return rest;
}

/** A store that keeps nothing: a stand-in for a user's own implementation. */
const customStore = (): McpEventStore => ({
  append: () => undefined,
  replay: () => [],
  deleteStream: () => undefined,
  deleteSession: () => undefined,
});

const base = { name: 'weather', version: '1.0.0' } as const;

describe('MCP_OPTION_DEFAULTS', () => {
  it('holds the documented defaults', () => {
    expect(MCP_OPTION_DEFAULTS.maxBodyBytes).toBe(4_194_304);
    expect(MCP_OPTION_DEFAULTS.sessionIdleTimeoutMs).toBe(1_800_000);
    expect(MCP_OPTION_DEFAULTS.maxSessions).toBe(10_000);
    expect(MCP_OPTION_DEFAULTS.maxSessionsPerPrincipal).toBe(100);
    expect(MCP_OPTION_DEFAULTS.outboxLimit).toBe(1_000);
    expect(MCP_OPTION_DEFAULTS.keepAliveMs).toBe(15_000);
    expect([...MCP_OPTION_DEFAULTS.allowedHosts].sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
    expect([...MCP_OPTION_DEFAULTS.allowedOrigins].sort()).toEqual([
      'http://127.0.0.1:*',
      'http://[::1]:*',
      'http://localhost:*',
      'https://127.0.0.1:*',
      'https://[::1]:*',
      'https://localhost:*',
    ]);
    expect(MCP_OPTION_DEFAULTS.defaultLogLevel).toBe('info');
    expect(MCP_OPTION_DEFAULTS.clientRequestTimeoutMs).toBe(60_000);
    expect(MCP_OPTION_DEFAULTS.sseRetryMs).toBe(1_000);
    expect(MCP_OPTION_DEFAULTS.maxStoredEvents).toBe(1_000);
    expect(MCP_OPTION_DEFAULTS.storedEventMaxAgeMs).toBe(300_000);
    expect('eventStore' in MCP_OPTION_DEFAULTS).toBe(false);
  });
});

describe('resolveMcpOptions', () => {
  it('applies every default when only name and version are given', () => {
    const resolved = resolveMcpOptions({ ...base });
    expect(withoutStore(resolved)).toEqual({ ...base, ...MCP_OPTION_DEFAULTS });
    expect(resolved.eventStore).toBeInstanceOf(InMemoryEventStore);
  });

  it('leaves title and instructions out unless given, and keeps them when given', () => {
    const plain = resolveMcpOptions({ ...base });
    expect('title' in plain).toBe(false);
    expect('instructions' in plain).toBe(false);
    const described = resolveMcpOptions({ ...base, title: 'Weather', instructions: 'Ask for a city.' });
    expect(described.title).toBe('Weather');
    expect(described.instructions).toBe('Ask for a city.');
  });

  it('lets user values override the defaults', () => {
    const options: McpModuleOptions = {
      ...base,
      maxBodyBytes: 1024,
      sessionIdleTimeoutMs: 5_000,
      maxSessions: 3,
      outboxLimit: 7,
      keepAliveMs: 250,
      allowedOrigins: ['https://app.example'],
      allowedHosts: ['app.example'],
      sessionOwner: () => 'everyone',
      defaultLogLevel: 'debug',
      clientRequestTimeoutMs: 5_000,
      sseRetryMs: 250,
      eventStore: customStore(),
      maxStoredEvents: 10,
      storedEventMaxAgeMs: 1_000,
    };
    const resolved = resolveMcpOptions(options);
    // Every value given wins; options not given keep their defaults.
    expect(resolved).toEqual({ ...MCP_OPTION_DEFAULTS, ...options });
    expect(resolved.eventStore).toBe(options.eventStore);
  });

  it('derives the default session owner from request.user.sub, else request.user.id', () => {
    const owner = resolveMcpOptions(base).sessionOwner;
    expect(owner({ user: { sub: 'auth0|1', id: 'x' } })).toBe('auth0|1');
    expect(owner({ user: { id: 42 } })).toBe('42');
    expect(owner({ user: { name: 'no id' } })).toBeUndefined();
    expect(owner({ user: 'alice' })).toBeUndefined();
    expect(owner({})).toBeUndefined();
    expect(owner(undefined)).toBeUndefined();
  });

  it('rejects a sessionOwner that is not a function', () => {
    expect(() => resolveMcpOptions({ ...base, sessionOwner: 'sub' as unknown as () => string })).toThrow(
      'options.sessionOwner must be a function',
    );
  });

  it('serves 2025 clients with sessions unless legacySessions is false, and takes nothing but a boolean there', () => {
    expect(resolveMcpOptions(base).legacySessions).toBe(true);
    expect(resolveMcpOptions({ ...base, legacySessions: false }).legacySessions).toBe(false);
    for (const bad of ['false', 0, null]) {
      expect(() => resolveMcpOptions({ ...base, legacySessions: bad as unknown as boolean })).toThrow(
        'options.legacySessions must be true or false',
      );
    }
  });

  it('accepts keepAliveMs 0 (keep-alive disabled) and empty lists', () => {
    const resolved = resolveMcpOptions({ ...base, keepAliveMs: 0, allowedOrigins: [], allowedHosts: [] });
    expect(resolved.keepAliveMs).toBe(0);
    expect(resolved.allowedOrigins).toEqual([]);
    expect(resolved.allowedHosts).toEqual([]);
  });

  it('does not let undefined values erase the defaults', () => {
    const resolved = resolveMcpOptions({
      ...base,
      maxBodyBytes: undefined,
      sessionIdleTimeoutMs: undefined,
      maxSessions: undefined,
      outboxLimit: undefined,
      keepAliveMs: undefined,
      allowedOrigins: undefined,
      allowedHosts: undefined,
      title: undefined,
      defaultLogLevel: undefined,
      clientRequestTimeoutMs: undefined,
      sseRetryMs: undefined,
      eventStore: undefined,
      maxStoredEvents: undefined,
      storedEventMaxAgeMs: undefined,
    });
    expect(withoutStore(resolved)).toEqual({ ...base, ...MCP_OPTION_DEFAULTS });
    expect(resolved.eventStore).toBeInstanceOf(InMemoryEventStore);
    expect('title' in resolved).toBe(false);
  });

  it('does not modify the options it is given', () => {
    const options: McpModuleOptions = { ...base, maxSessions: undefined };
    resolveMcpOptions(options);
    expect(options).toEqual({ ...base, maxSessions: undefined });
  });

  it.each([
    'maxBodyBytes',
    'sessionIdleTimeoutMs',
    'maxSessions',
    'outboxLimit',
    'maxStoredEvents',
    'storedEventMaxAgeMs',
  ] as const)('rejects a %s that is not a positive finite number', (key) => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '10' as unknown as number, null]) {
      expect(() => resolveMcpOptions({ ...base, [key]: bad })).toThrow(TypeError);
      expect(() => resolveMcpOptions({ ...base, [key]: bad })).toThrow(`options.${key} must be a positive number`);
    }
  });

  it('takes maxSessionsPerPrincipal as a whole number from 1, or Infinity (no limit)', () => {
    for (const good of [1, 7, Number.POSITIVE_INFINITY]) {
      expect(resolveMcpOptions({ ...base, maxSessionsPerPrincipal: good }).maxSessionsPerPrincipal).toBe(good);
    }
    for (const bad of [0, -1, 2.5, Number.NaN, Number.NEGATIVE_INFINITY, '10', null] as unknown as number[]) {
      expect(() => resolveMcpOptions({ ...base, maxSessionsPerPrincipal: bad })).toThrow(
        /options\.maxSessionsPerPrincipal must be a whole number from 1, or Infinity/,
      );
    }
  });

  it('rejects a negative, non-finite or timer-overflowing keepAliveMs', () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, '15' as unknown as number, 2 ** 31]) {
      expect(() => resolveMcpOptions({ ...base, keepAliveMs: bad })).toThrow(TypeError);
      expect(() => resolveMcpOptions({ ...base, keepAliveMs: bad })).toThrow(
        'options.keepAliveMs must be from 0 to 2147483647',
      );
    }
  });

  it('accepts the largest timer delay Node honours as keepAliveMs', () => {
    expect(resolveMcpOptions({ ...base, keepAliveMs: 2 ** 31 - 1 }).keepAliveMs).toBe(2 ** 31 - 1);
  });

  it('rejects allowedOrigins and allowedHosts that are not arrays of strings', () => {
    for (const key of ['allowedOrigins', 'allowedHosts'] as const) {
      for (const bad of ['http://localhost:*', [1], null]) {
        expect(() => resolveMcpOptions({ ...base, [key]: bad as unknown as string[] })).toThrow(
          `options.${key} must be an array of strings`,
        );
      }
    }
  });

  it('requires name and version as strings', () => {
    const message = 'options.name and options.version are required strings';
    expect(() => resolveMcpOptions({ version: '1.0.0' } as McpModuleOptions)).toThrow(TypeError);
    expect(() => resolveMcpOptions({ version: '1.0.0' } as McpModuleOptions)).toThrow(message);
    expect(() => resolveMcpOptions({ name: 'weather' } as McpModuleOptions)).toThrow(message);
    expect(() => resolveMcpOptions({ name: 'weather', version: 1 } as unknown as McpModuleOptions)).toThrow(message);
    expect(() => resolveMcpOptions(undefined as unknown as McpModuleOptions)).toThrow(message);
    expect(() => resolveMcpOptions(null as unknown as McpModuleOptions)).toThrow(message);
  });
});

describe('validateMcpOptions (through resolveMcpOptions)', () => {
  const base = { name: 'weather', version: '1.0.0' };

  it('takes shared state only from an adapter, with a stateSecret, and without an eventStore of its own', () => {
    const state = { kind: 'mcp42.state', available: true, shared: {} } as unknown as McpModuleOptions['state'];
    const secret = 'a secret of at least thirty-two bytes, shared';
    expect(resolveMcpOptions({ name: 's', version: '1', state, stateSecret: secret }).state).toBe(state);
    expect(() => resolveMcpOptions({ name: 's', version: '1', state })).toThrow(/options\.stateSecret must be set/);
    expect(() =>
      resolveMcpOptions({
        name: 's',
        version: '1',
        state,
        stateSecret: secret,
        eventStore: new InMemoryEventStore({ maxEventsPerSession: 1, maxEventAgeMs: 1 }),
      }),
    ).toThrow(/leave options\.eventStore unset/);
    expect(() =>
      resolveMcpOptions({ name: 's', version: '1', state: {} as McpModuleOptions['state'], stateSecret: secret }),
    ).toThrow(/made by an adapter/);
  });

  it('takes cors as a boolean or options, and never credentials with any origin', () => {
    expect(resolveMcpOptions({ name: 's', version: '1' }).cors).toBe(false);
    expect(resolveMcpOptions({ name: 's', version: '1', cors: { credentials: true } }).cors).toEqual({
      credentials: true,
    });
    expect(() =>
      resolveMcpOptions({ name: 's', version: '1', cors: { credentials: true }, allowedOrigins: ['*'] }),
    ).toThrow(/cannot be combined with allowedOrigins/);
    expect(() => resolveMcpOptions({ name: 's', version: '1', cors: { maxAgeSeconds: -1 } })).toThrow(/maxAgeSeconds/);
    expect(() => resolveMcpOptions({ name: 's', version: '1', cors: 'yes' as unknown as boolean })).toThrow(
      /options\.cors/,
    );
  });

  it('names unknown options, so a typo fails at bootstrap', () => {
    expect(() => resolveMcpOptions({ ...base, maxBodyByts: 1 } as unknown as McpModuleOptions)).toThrow(
      'unknown option(s) maxBodyByts',
    );
  });

  it('refuses allowedHosts entries with a scheme or a port, which could never match', () => {
    for (const bad of ['localhost:3000', 'http://localhost', 'a b', '']) {
      expect(() => resolveMcpOptions({ ...base, allowedHosts: [bad] })).toThrow(`allowedHosts entry "${bad}"`);
    }
    const ok = ['mcp.example.com', 'localhost', '127.0.0.1', '[::1]', '*'];
    expect(resolveMcpOptions({ ...base, allowedHosts: ok }).allowedHosts).toEqual(ok);
  });

  it('refuses allowedOrigins entries that are not origins', () => {
    for (const bad of [
      'app.example.com',
      'https://*.example.com',
      'https://app.example.com/path',
      'https://a.com:443:*',
    ]) {
      expect(() => resolveMcpOptions({ ...base, allowedOrigins: [bad] })).toThrow(`allowedOrigins entry "${bad}"`);
    }
    const ok = ['https://app.example.com', 'https://App.Example.com/', 'http://localhost:*', 'http://[::1]:*', '*'];
    expect(resolveMcpOptions({ ...base, allowedOrigins: ok }).allowedOrigins).toEqual(ok);
  });
});

describe('validateMcpOptions: server-to-client options', () => {
  const base = { name: 'weather', version: '1.0.0' };

  afterEach(() => {
    jest.useRealTimers();
  });

  it.each(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const)(
    'accepts %p as defaultLogLevel',
    (level) => {
      expect(resolveMcpOptions({ ...base, defaultLogLevel: level }).defaultLogLevel).toBe(level);
    },
  );

  it.each(['verbose', 'INFO', 'warn', '', 3, null])('refuses %p as defaultLogLevel, listing the levels', (bad) => {
    expect(() => resolveMcpOptions({ ...base, defaultLogLevel: bad as 'info' })).toThrow(TypeError);
    expect(() => resolveMcpOptions({ ...base, defaultLogLevel: bad as 'info' })).toThrow(
      `options.defaultLogLevel must be one of debug, info, notice, warning, error, critical, alert, emergency, got ${String(bad)}`,
    );
  });

  it.each(['clientRequestTimeoutMs', 'sseRetryMs'] as const)(
    'refuses a %s that is not a whole number of milliseconds a timer honours',
    (key) => {
      for (const bad of [1.5, 0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '1000' as unknown as number]) {
        expect(() => resolveMcpOptions({ ...base, [key]: bad })).toThrow(
          `options.${key} must be a whole number from 1 to 2147483647, got ${String(bad)}`,
        );
      }
      expect(resolveMcpOptions({ ...base, [key]: 1 })[key]).toBe(1);
      expect(resolveMcpOptions({ ...base, [key]: 2 ** 31 - 1 })[key]).toBe(2 ** 31 - 1);
    },
  );

  it.each(['append', 'replay', 'deleteStream', 'deleteSession'] as const)(
    'refuses an eventStore without %s',
    (method) => {
      const store = { ...customStore(), [method]: undefined } as unknown as McpEventStore;
      expect(() => resolveMcpOptions({ ...base, eventStore: store })).toThrow(
        'options.eventStore must implement append, replay, deleteStream and deleteSession',
      );
    },
  );

  it.each([
    ['a string', 'memory'],
    ['an empty object', {}],
    ['a method that is not a function', { ...customStore(), replay: [] }],
  ])('refuses an eventStore that is %s', (_label, bad) => {
    expect(() => resolveMcpOptions({ ...base, eventStore: bad as unknown as McpEventStore })).toThrow(
      'options.eventStore must implement',
    );
  });

  it('keeps a custom eventStore, the very instance, and accepts a class instance', () => {
    const store = customStore();
    expect(resolveMcpOptions({ ...base, eventStore: store }).eventStore).toBe(store);
    const own = new InMemoryEventStore({ maxEventsPerSession: 1, maxEventAgeMs: 1 });
    expect(resolveMcpOptions({ ...base, eventStore: own }).eventStore).toBe(own);
  });

  it('gives each application its own default store', () => {
    const one = resolveMcpOptions({ ...base }).eventStore as InMemoryEventStore;
    const two = resolveMcpOptions({ ...base }).eventStore as InMemoryEventStore;
    expect(one).not.toBe(two);
    one.append('s', { streamId: 'g', seq: 1, data: '{}' });
    expect(two.size).toBe(0);
    expect(two.replay('s', 'g', 0)).toEqual([]);
  });

  it('bounds the default store with maxStoredEvents and storedEventMaxAgeMs', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const store = resolveMcpOptions({ ...base, maxStoredEvents: 2, storedEventMaxAgeMs: 5_000 })
      .eventStore as InMemoryEventStore;
    for (const seq of [1, 2, 3]) store.append('s', { streamId: 'g', seq, data: '{}' });
    expect(store.replay('s', 'g', 0).map((event) => event.seq)).toEqual([2, 3]);
    jest.setSystemTime(1_005_001);
    expect(store.replay('s', 'g', 0)).toEqual([]);
  });
});
