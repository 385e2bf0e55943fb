import { getHeapStatistics } from 'node:v8';
import { jest } from '@jest/globals';
import type { McpModuleOptions } from './interfaces/mcp-module-options.interface.js';
import type { ResolvedMcpOptions } from './interfaces/resolved-mcp-options.interface.js';
import { MCP_OPTION_DEFAULTS, resolveMcpOptions } from './mcp-options.defaults.js';
import type { McpEventStore } from './interfaces/mcp-event-store.interface.js';
import { InMemoryEventStore } from './session/in-memory-event-store.js';
import { NO_TELEMETRY, type McpTelemetry, type ServerTelemetry } from './interfaces/mcp-telemetry.interface.js';

/** The resolved options without the default event store, which is a fresh instance each time. */
function withoutStore(resolved: ResolvedMcpOptions): unknown {
  const { eventStore: _eventStore, ...resumability } = resolved.resumability;
  return { ...resolved, resumability };
}

/** The defaults as resolved options hold them: the default store is not the application's own. */
const RESOLVED_DEFAULTS = {
  ...MCP_OPTION_DEFAULTS,
  resumability: { ...MCP_OPTION_DEFAULTS.resumability, customEventStore: false },
  telemetry: NO_TELEMETRY,
};

/** A store that keeps nothing: a stand-in for a user's own implementation. */
const customStore = (): McpEventStore => ({
  append: () => undefined,
  replay: () => [],
  deleteStream: () => undefined,
  deleteSession: () => undefined,
});

const base = { name: 'weather', version: '1.0.0' } as const;

describe('MCP_OPTION_DEFAULTS', () => {
  it('holds the documented defaults, group by group', () => {
    const { http, limits, sessions, auth, resumability, state } = MCP_OPTION_DEFAULTS;
    expect(MCP_OPTION_DEFAULTS.eras).toBe('dual');
    expect(limits).toEqual({
      bodyBytes: 4_194_304,
      sessions: 10_000,
      sessionsPerPrincipal: 100,
      listenStreams: 1_000,
      listenStreamsPerPrincipal: 10,
      outboxMessages: 1_000,
      outboxChars: 4_194_304,
      // A 64th of the heap limit: 64 Mi characters under the usual 4 GB heap.
      bufferedChars: Math.floor(getHeapStatistics().heap_size_limit / 64),
      pageSize: 100,
    });
    expect([...http.allowedHosts].sort()).toEqual(['127.0.0.1', '[::1]', 'localhost']);
    expect([...http.allowedOrigins].sort()).toEqual([
      'http://127.0.0.1:*',
      'http://[::1]:*',
      'http://localhost:*',
      'https://127.0.0.1:*',
      'https://[::1]:*',
      'https://localhost:*',
    ]);
    expect({ ...http, allowedHosts: undefined, allowedOrigins: undefined }).toEqual({
      allowedHosts: undefined,
      allowedOrigins: undefined,
      cors: false,
      bodyTimeoutMs: 30_000,
      keepAliveMs: 15_000,
      sseRetryMs: 1_000,
    });
    expect(sessions).toEqual({
      enabled: true,
      idleTimeoutMs: 1_800_000,
      clientRequestTimeoutMs: 60_000,
      defaultLogLevel: 'info',
    });
    expect(auth.scopeDenial).toBe('hide');
    expect(resumability).toEqual({ maxEvents: 1_000, maxEventChars: 4_194_304, maxEventAgeMs: 300_000 });
    expect(state).toEqual({ requestStateTtlMs: 900_000 });
  });
});

describe('resolveMcpOptions', () => {
  it('applies every default when only name and version are given', () => {
    const resolved = resolveMcpOptions({ ...base });
    expect(withoutStore(resolved)).toEqual({ ...base, ...RESOLVED_DEFAULTS });
    expect(resolved.resumability.eventStore).toBeInstanceOf(InMemoryEventStore);
  });

  it('leaves title and instructions out unless given, and keeps them when given', () => {
    const plain = resolveMcpOptions({ ...base });
    expect('title' in plain).toBe(false);
    expect('instructions' in plain).toBe(false);
    const described = resolveMcpOptions({ ...base, title: 'Weather', instructions: 'Ask for a city.' });
    expect(described.title).toBe('Weather');
    expect(described.instructions).toBe('Ask for a city.');
  });

  it('lets user values override the defaults, field by field within a group', () => {
    const options: McpModuleOptions = {
      ...base,
      http: {
        keepAliveMs: 250,
        sseRetryMs: 250,
        allowedOrigins: ['https://app.example'],
        allowedHosts: ['app.example'],
      },
      limits: { bodyBytes: 1024, sessions: 3, outboxMessages: 7 },
      sessions: { idleTimeoutMs: 5_000, defaultLogLevel: 'debug', clientRequestTimeoutMs: 5_000 },
      auth: { principalOf: () => 'everyone' },
      resumability: { eventStore: customStore(), maxEvents: 10, maxEventAgeMs: 1_000 },
    };
    const resolved = resolveMcpOptions(options);
    // Every value given wins; fields not given keep their defaults, in the same group.
    const defaults = MCP_OPTION_DEFAULTS;
    expect(resolved).toEqual({
      ...base,
      ...defaults,
      http: { ...defaults.http, ...options.http },
      limits: { ...defaults.limits, ...options.limits },
      sessions: { ...defaults.sessions, ...options.sessions },
      auth: { ...defaults.auth, ...options.auth },
      resumability: { ...defaults.resumability, ...options.resumability, customEventStore: true },
      telemetry: NO_TELEMETRY,
    });
    expect(resolved.resumability.eventStore).toBe(options.resumability!.eventStore);
  });

  it("binds the telemetry adapter to this server's name and version, and refuses anything else", () => {
    const bound: { name: string; version: string }[] = [];
    const telemetry: McpTelemetry = {
      kind: 'mcp42.telemetry',
      port: {
        forServer: (server) => {
          bound.push({ ...server });
          return { ...NO_TELEMETRY, enabled: true } as ServerTelemetry;
        },
      },
    };
    expect(resolveMcpOptions({ ...base, telemetry }).telemetry.enabled).toBe(true);
    expect(bound).toEqual([{ name: 'weather', version: '1.0.0' }]);
    expect(() => resolveMcpOptions({ ...base, telemetry: {} as McpTelemetry })).toThrow(
      'options.telemetry must be made by an adapter, such as mcpTelemetry() from mcp42/otel',
    );
  });

  it('derives the default principal from request.user.sub, else request.user.id', () => {
    const principalOf = resolveMcpOptions(base).auth.principalOf;
    expect(principalOf({ user: { sub: 'auth0|1', id: 'x' } })).toBe('auth0|1');
    expect(principalOf({ user: { id: 42 } })).toBe('42');
    expect(principalOf({ user: { name: 'no id' } })).toBeUndefined();
    expect(principalOf({ user: 'alice' })).toBeUndefined();
    expect(principalOf({})).toBeUndefined();
    expect(principalOf(undefined)).toBeUndefined();
  });

  it('rejects a principalOf that is not a function', () => {
    expect(() => resolveMcpOptions({ ...base, auth: { principalOf: 'sub' as unknown as () => string } })).toThrow(
      'options.auth.principalOf must be a function',
    );
  });

  it('serves 2025 clients with sessions unless sessions.enabled is false, and takes nothing but a boolean there', () => {
    expect(resolveMcpOptions(base).sessions.enabled).toBe(true);
    expect(resolveMcpOptions({ ...base, sessions: { enabled: false } }).sessions.enabled).toBe(false);
    for (const bad of ['false', 0, null]) {
      expect(() => resolveMcpOptions({ ...base, sessions: { enabled: bad as unknown as boolean } })).toThrow(
        'options.sessions.enabled must be true or false',
      );
    }
  });

  it('accepts keepAliveMs 0 (keep-alive disabled) and empty lists', () => {
    const resolved = resolveMcpOptions({ ...base, http: { keepAliveMs: 0, allowedOrigins: [], allowedHosts: [] } });
    expect(resolved.http.keepAliveMs).toBe(0);
    expect(resolved.http.allowedOrigins).toEqual([]);
    expect(resolved.http.allowedHosts).toEqual([]);
  });

  it('does not let undefined values or groups erase the defaults', () => {
    const resolved = resolveMcpOptions({
      ...base,
      title: undefined,
      http: { keepAliveMs: undefined, allowedOrigins: undefined, allowedHosts: undefined, sseRetryMs: undefined },
      limits: { bodyBytes: undefined, sessions: undefined, outboxMessages: undefined },
      sessions: { idleTimeoutMs: undefined, defaultLogLevel: undefined, clientRequestTimeoutMs: undefined },
      resumability: { eventStore: undefined, maxEvents: undefined, maxEventAgeMs: undefined },
      auth: undefined,
    });
    expect(withoutStore(resolved)).toEqual({ ...base, ...RESOLVED_DEFAULTS });
    expect(resolved.resumability.eventStore).toBeInstanceOf(InMemoryEventStore);
    expect('title' in resolved).toBe(false);
  });

  it('does not modify the options it is given', () => {
    const options: McpModuleOptions = { ...base, limits: { sessions: undefined } };
    resolveMcpOptions(options);
    expect(options).toEqual({ ...base, limits: { sessions: undefined } });
  });

  it.each([
    ['limits', 'bodyBytes'],
    ['limits', 'sessions'],
    ['limits', 'outboxMessages'],
    ['limits', 'listenStreams'],
    ['sessions', 'idleTimeoutMs'],
    ['resumability', 'maxEvents'],
    ['resumability', 'maxEventAgeMs'],
    ['resumability', 'maxEventChars'],
  ] as const)('rejects a %s.%s that is not a positive finite number', (group, key) => {
    for (const bad of [0, -1, Number.NaN, Number.POSITIVE_INFINITY, '10', null]) {
      const options = { ...base, [group]: { [key]: bad } } as McpModuleOptions;
      expect(() => resolveMcpOptions(options)).toThrow(TypeError);
      expect(() => resolveMcpOptions(options)).toThrow(`options.${group}.${key} must be a positive number`);
    }
  });

  it('takes limits.sessionsPerPrincipal as a whole number from 1, or Infinity (no limit)', () => {
    for (const good of [1, 7, Number.POSITIVE_INFINITY]) {
      expect(resolveMcpOptions({ ...base, limits: { sessionsPerPrincipal: good } }).limits.sessionsPerPrincipal).toBe(
        good,
      );
    }
    for (const bad of [0, -1, 2.5, Number.NaN, Number.NEGATIVE_INFINITY, '10', null] as unknown as number[]) {
      expect(() => resolveMcpOptions({ ...base, limits: { sessionsPerPrincipal: bad } })).toThrow(
        /options\.limits\.sessionsPerPrincipal must be a whole number from 1, or Infinity/,
      );
    }
  });

  it('defaults the tasks group, and refuses TTLs, intervals and caps that cannot work', () => {
    expect(resolveMcpOptions(base).tasks).toStrictEqual({
      defaultTtlMs: 3_600_000,
      maxTtlMs: 86_400_000,
      pollIntervalMs: 1_000,
      maxPerPrincipal: 100,
      maxTasks: 10_000,
    });
    expect(resolveMcpOptions({ ...base, tasks: { maxPerPrincipal: Infinity } }).tasks.maxPerPrincipal).toBe(Infinity);
    const refused: [object, RegExp][] = [
      [{ defaultTtlMs: 0 }, /options\.tasks\.defaultTtlMs must be a whole number from 1/],
      [{ pollIntervalMs: 2 ** 31 }, /options\.tasks\.pollIntervalMs must be a whole number from 1/],
      [
        { defaultTtlMs: 10, maxTtlMs: 5 },
        /options\.tasks\.defaultTtlMs \(10\) must not exceed options\.tasks\.maxTtlMs/,
      ],
      [{ maxTasks: 0 }, /options\.tasks\.maxTasks must be a whole number from 1/],
      [{ maxPerPrincipal: 1.5 }, /options\.tasks\.maxPerPrincipal must be a whole number from 1, or Infinity/],
    ];
    for (const [tasks, message] of refused) expect(() => resolveMcpOptions({ ...base, tasks })).toThrow(message);
    expect(() => resolveMcpOptions({ ...base, tasks: { ttlMs: 1 } } as never)).toThrow(/tasks\.ttlMs/);
  });

  it('rejects a negative, non-finite or timer-overflowing keepAliveMs', () => {
    for (const bad of [-1, Number.NaN, Number.POSITIVE_INFINITY, '15' as unknown as number, 2 ** 31]) {
      expect(() => resolveMcpOptions({ ...base, http: { keepAliveMs: bad } })).toThrow(TypeError);
      expect(() => resolveMcpOptions({ ...base, http: { keepAliveMs: bad } })).toThrow(
        'options.http.keepAliveMs must be from 0 to 2147483647',
      );
    }
  });

  it('accepts the largest timer delay Node honours as keepAliveMs', () => {
    expect(resolveMcpOptions({ ...base, http: { keepAliveMs: 2 ** 31 - 1 } }).http.keepAliveMs).toBe(2 ** 31 - 1);
  });

  it('rejects allowedOrigins and allowedHosts that are not arrays of strings', () => {
    for (const key of ['allowedOrigins', 'allowedHosts'] as const) {
      for (const bad of ['http://localhost:*', [1], null]) {
        expect(() => resolveMcpOptions({ ...base, http: { [key]: bad as unknown as string[] } })).toThrow(
          `options.http.${key} must be an array of strings`,
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
  it('takes shared state only from an adapter, with a secret, and without an eventStore of its own', () => {
    const shared = { kind: 'mcp42.state', available: true, shared: {} } as unknown as NonNullable<
      McpModuleOptions['state']
    >['shared'];
    const secret = 'a secret of at least thirty-two bytes, shared';
    expect(resolveMcpOptions({ ...base, state: { shared, secret } }).state.shared).toBe(shared);
    expect(() => resolveMcpOptions({ ...base, state: { shared } })).toThrow(/options\.state\.secret must be set/);
    expect(() =>
      resolveMcpOptions({
        ...base,
        state: { shared, secret },
        resumability: { eventStore: new InMemoryEventStore({ maxEventsPerSession: 1, maxEventAgeMs: 1 }) },
      }),
    ).toThrow(/leave options\.resumability\.eventStore unset/);
    expect(() => resolveMcpOptions({ ...base, state: { shared: {} as typeof shared, secret } })).toThrow(
      /made by an adapter/,
    );
  });

  it('takes cors as a boolean or options, and never credentials with any origin', () => {
    expect(resolveMcpOptions(base).http.cors).toBe(false);
    expect(resolveMcpOptions({ ...base, http: { cors: { credentials: true } } }).http.cors).toEqual({
      credentials: true,
    });
    expect(() => resolveMcpOptions({ ...base, http: { cors: { credentials: true }, allowedOrigins: ['*'] } })).toThrow(
      /cannot be combined with http\.allowedOrigins/,
    );
    expect(() => resolveMcpOptions({ ...base, http: { cors: { maxAgeSeconds: -1 } } })).toThrow(/maxAgeSeconds/);
    expect(() => resolveMcpOptions({ ...base, http: { cors: 'yes' as unknown as boolean } })).toThrow(
      /options\.http\.cors/,
    );
  });

  it('names unknown options, so a typo fails at bootstrap', () => {
    expect(() => resolveMcpOptions({ ...base, limits: { bodyByts: 1 } } as unknown as McpModuleOptions)).toThrow(
      'unknown option: `limits.bodyByts`: did you mean `limits.bodyBytes`?',
    );
  });

  it('refuses allowedHosts entries with a scheme or a port, which could never match', () => {
    for (const bad of ['localhost:3000', 'http://localhost', 'a b', '']) {
      expect(() => resolveMcpOptions({ ...base, http: { allowedHosts: [bad] } })).toThrow(
        `allowedHosts entry "${bad}"`,
      );
    }
    const ok = ['mcp.example.com', 'localhost', '127.0.0.1', '[::1]', '*'];
    expect(resolveMcpOptions({ ...base, http: { allowedHosts: ok } }).http.allowedHosts).toEqual(ok);
  });

  it('refuses allowedOrigins entries that are not origins', () => {
    for (const bad of [
      'app.example.com',
      'https://*.example.com',
      'https://app.example.com/path',
      'https://a.com:443:*',
    ]) {
      expect(() => resolveMcpOptions({ ...base, http: { allowedOrigins: [bad] } })).toThrow(
        `allowedOrigins entry "${bad}"`,
      );
    }
    const ok = ['https://app.example.com', 'https://App.Example.com/', 'http://localhost:*', 'http://[::1]:*', '*'];
    expect(resolveMcpOptions({ ...base, http: { allowedOrigins: ok } }).http.allowedOrigins).toEqual(ok);
  });
});

describe('validateMcpOptions: server-to-client options', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it.each(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const)(
    'accepts %p as sessions.defaultLogLevel',
    (level) => {
      expect(resolveMcpOptions({ ...base, sessions: { defaultLogLevel: level } }).sessions.defaultLogLevel).toBe(level);
    },
  );

  it.each(['verbose', 'INFO', 'warn', '', 3, null])('refuses %p as defaultLogLevel, listing the levels', (bad) => {
    const options = { ...base, sessions: { defaultLogLevel: bad as 'info' } };
    expect(() => resolveMcpOptions(options)).toThrow(TypeError);
    expect(() => resolveMcpOptions(options)).toThrow(
      `options.sessions.defaultLogLevel must be one of debug, info, notice, warning, error, critical, alert, emergency, got ${String(bad)}`,
    );
  });

  it.each([
    ['sessions', 'clientRequestTimeoutMs'],
    ['http', 'sseRetryMs'],
    ['http', 'bodyTimeoutMs'],
    ['state', 'requestStateTtlMs'],
  ] as const)('refuses a %s.%s that is not a whole number of milliseconds a timer honours', (group, key) => {
    const at = (value: unknown) => ({ ...base, [group]: { [key]: value } }) as McpModuleOptions;
    const read = (resolved: ResolvedMcpOptions) => (resolved[group] as Record<string, unknown>)[key];
    for (const bad of [1.5, 0, -1, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 31, '1000']) {
      expect(() => resolveMcpOptions(at(bad))).toThrow(
        `options.${group}.${key} must be a whole number from 1 to 2147483647, got ${String(bad)}`,
      );
    }
    expect(read(resolveMcpOptions(at(1)))).toBe(1);
    expect(read(resolveMcpOptions(at(2 ** 31 - 1)))).toBe(2 ** 31 - 1);
  });

  it.each(['append', 'replay', 'deleteStream', 'deleteSession'] as const)(
    'refuses an eventStore without %s',
    (method) => {
      const store = { ...customStore(), [method]: undefined } as unknown as McpEventStore;
      expect(() => resolveMcpOptions({ ...base, resumability: { eventStore: store } })).toThrow(
        'options.resumability.eventStore must implement append, replay, deleteStream and deleteSession',
      );
    },
  );

  it.each([
    ['a string', 'memory'],
    ['an empty object', {}],
    ['a method that is not a function', { ...customStore(), replay: [] }],
  ])('refuses an eventStore that is %s', (_label, bad) => {
    expect(() => resolveMcpOptions({ ...base, resumability: { eventStore: bad as unknown as McpEventStore } })).toThrow(
      'options.resumability.eventStore must implement',
    );
  });

  it('keeps a custom eventStore, the very instance, and accepts a class instance', () => {
    const store = customStore();
    expect(resolveMcpOptions({ ...base, resumability: { eventStore: store } }).resumability.eventStore).toBe(store);
    const own = new InMemoryEventStore({ maxEventsPerSession: 1, maxEventAgeMs: 1 });
    expect(resolveMcpOptions({ ...base, resumability: { eventStore: own } }).resumability.eventStore).toBe(own);
  });

  it('gives each application its own default store', () => {
    const one = resolveMcpOptions({ ...base }).resumability.eventStore as InMemoryEventStore;
    const two = resolveMcpOptions({ ...base }).resumability.eventStore as InMemoryEventStore;
    expect(one).not.toBe(two);
    one.append('s', { streamId: 'g', seq: 1, data: '{}' });
    expect(two.size).toBe(0);
    expect(two.replay('s', 'g', 0)).toEqual([]);
  });

  it('bounds the default store with resumability.maxEvents and maxEventAgeMs', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const store = resolveMcpOptions({ ...base, resumability: { maxEvents: 2, maxEventAgeMs: 5_000 } }).resumability
      .eventStore as InMemoryEventStore;
    for (const seq of [1, 2, 3]) store.append('s', { streamId: 'g', seq, data: '{}' });
    expect(store.replay('s', 'g', 0).map((event) => event.seq)).toEqual([2, 3]);
    jest.setSystemTime(1_005_001);
    expect(store.replay('s', 'g', 0)).toEqual([]);
  });
});
