/**
 * McpModule options end to end: guards and `useExisting` with `forRootAsync`, `isGlobal`, options
 * that must fail bootstrap (unknown keys told where they went), `auth.principalOf`, and what the server keeps of a client's `initialize`.
 */
import 'reflect-metadata';
import { Injectable, type CanActivate, type ModuleMetadata } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import { McpModule, McpSessionRegistry, type McpModuleOptions } from '../../../src/index.js';
import { ContextProbeTools } from '../../fixtures/context-probe.tools.js';
import { McpOptionsFactoryModule, SharedMcpOptionsFactory } from '../../fixtures/mcp-options-factory.module.js';
import { SessionCensus, SessionCensusModule } from '../../fixtures/session-census.module.js';
import { bootstrapFailure } from '../../utils/bootstrap-failure.js';
import { httpExchange, type HttpResult } from '../../utils/http-exchange.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';
import { replyOf } from '../../utils/http-mcp-client.js';
import { openSession } from '../../utils/open-session.js';

/** Runs `body` against an application built from `metadata`, closing it afterwards. */
async function withApp(metadata: ModuleMetadata, body: (app: RunningApp) => Promise<void>): Promise<void> {
  const app = await startApp(metadata);
  try {
    await body(app);
  } finally {
    await app.close();
  }
}

function initialize(app: RunningApp, headers: Record<string, string> = {}, message = initializeRequest()) {
  return httpExchange(app.mcpUrl, 'POST', { ...MCP_POST_HEADERS, ...headers }, JSON.stringify(message));
}

function post(
  app: RunningApp,
  sessionId: string,
  message: unknown,
  headers: Record<string, string> = {},
): Promise<HttpResult> {
  return httpExchange(
    app.mcpUrl,
    'POST',
    { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18', ...headers },
    JSON.stringify(message),
  );
}

function ping(app: RunningApp, sessionId: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  return post(app, sessionId, { jsonrpc: '2.0', id: 'ping', method: 'ping' }, headers);
}

function get(app: RunningApp, sessionId: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  return httpExchange(app.mcpUrl, 'GET', { accept: 'text/event-stream', 'mcp-session-id': sessionId, ...headers });
}

function del(app: RunningApp, sessionId: string, headers: Record<string, string> = {}): Promise<HttpResult> {
  return httpExchange(app.mcpUrl, 'DELETE', { 'mcp-session-id': sessionId, ...headers });
}

/** Refuses every request (Nest answers 403) and counts the requests it saw. */
@Injectable()
class DenyGuard implements CanActivate {
  static calls = 0;

  canActivate(): boolean {
    DenyGuard.calls++;
    return false;
  }
}

describe('McpModule.forRootAsync', () => {
  test('applies guards given beside useFactory: a denying guard refuses initialize with 403', async () => {
    DenyGuard.calls = 0;
    let factoryCalls = 0;
    await withApp(
      {
        imports: [
          McpModule.forRootAsync({
            useFactory: () => {
              factoryCalls++;
              return { name: 'guarded-async', version: '1.0.0' };
            },
            guards: [DenyGuard],
          }),
        ],
        providers: [ContextProbeTools],
      },
      async (app) => {
        const refused = await initialize(app);
        expect(refused.status).toBe(403);
        expect(refused.headers['mcp-session-id']).toBeUndefined();
        expect(DenyGuard.calls).toBe(1);
        expect(factoryCalls).toBe(1);
        expect(app.app.get(McpSessionRegistry).size).toBe(0);

        // GET and DELETE are guarded too (the guard runs before any session lookup).
        expect((await get(app, 'any-session')).status).toBe(403);
        expect((await del(app, 'any-session')).status).toBe(403);
        expect(DenyGuard.calls).toBe(3);
      },
    );
  });

  test('useExisting takes the options factory an imported module provides (that instance, once)', async () => {
    await withApp(
      {
        imports: [
          McpModule.forRootAsync({ imports: [McpOptionsFactoryModule], useExisting: SharedMcpOptionsFactory }),
          McpOptionsFactoryModule,
        ],
        providers: [ContextProbeTools],
      },
      async (app) => {
        const reply = await initialize(app);
        expect(reply.status).toBe(200);
        const result = replyOf(reply)!.result!;
        expect(result.serverInfo).toEqual({ name: 'existing-factory-server', version: '4.5.6' });

        const factory = app.app.get(SharedMcpOptionsFactory);
        expect(factory.createCalls).toBe(1);
        expect(result.instructions).toBe(`Built by ${factory.instanceTag}`);

        const sessionId = reply.headers['mcp-session-id'] as string;
        const listed = await post(app, sessionId, { jsonrpc: '2.0', id: 1, method: 'tools/list' });
        const names = ((replyOf(listed)?.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
        expect(names).toContain('probe_context');
      },
    );
  });
});

describe('isGlobal', () => {
  test('true: a provider of a module that does not import McpModule can inject McpSessionRegistry', async () => {
    await withApp(
      {
        imports: [McpModule.forRoot({ name: 'global', version: '1.0.0', isGlobal: true }), SessionCensusModule],
        providers: [ContextProbeTools],
      },
      async (app) => {
        const census = app.app.get(SessionCensus);
        expect(census.registry).toBe(app.app.get(McpSessionRegistry));
        expect(census.count()).toBe(0);
        await openSession(app.mcpUrl);
        expect(census.count()).toBe(1);
      },
    );
  });

  test.each([
    ['false', { isGlobal: false }],
    ['omitted (the default)', {}],
  ])('%s: that provider cannot be resolved, and bootstrap fails naming the registry', async (_label, extras) => {
    const { error } = await bootstrapFailure({
      imports: [McpModule.forRoot({ name: 'not-global', version: '1.0.0', ...extras }), SessionCensusModule],
    });
    expect(error.message).toMatch(/SessionCensus/);
    expect(error.message).toMatch(/McpSessionRegistry/);
  });
});

describe('options that cannot work fail bootstrap with a TypeError naming the option', () => {
  test.each<[string, Record<string, unknown>, RegExp]>([
    ['an unknown key (a typo of limits)', { limts: { bodyBytes: 1024 } }, /`limts`: did you mean `limits`\?/],
    ['a typo inside a group', { limits: { bodyByts: 1024 } }, /`limits\.bodyByts`: did you mean `limits\.bodyBytes`\?/],
    [
      'an option of 0.x',
      { maxSessions: 10 },
      /`maxSessions`: did you mean `limits\.sessions`\? \(options are grouped since 1\.0\)/,
    ],
    ['a field in the wrong group', { http: { pageSize: 10 } }, /`http\.pageSize`: did you mean `limits\.pageSize`\?/],
    [
      'a typo in the CORS options',
      { http: { cors: { credential: true } } },
      /`http\.cors\.credential`: did you mean `http\.cors\.credentials`\?/,
    ],
    ['a key of the prototype', { http: { constructor: 1 } }, /`http\.constructor`: not an option of McpModuleOptions/],
    [
      "0.x's shared state given as the state group",
      { state: { kind: 'mcp42.state', available: true } },
      /`state`: did you mean `state: \{ shared: redisState\(\.\.\.\), secret \}`\?/,
    ],
    ['a group that is not an object', { http: 'open' }, /`http` must be an object of options \(allowedOrigins, /],
    ['something unrelated', { colour: 'blue' }, /`colour`: not an option of McpModuleOptions/],
    ['allowedHosts with a port', { http: { allowedHosts: ['localhost:3000'] } }, /allowedHosts.*localhost:3000/],
    [
      'allowedOrigins with a wildcard host',
      { http: { allowedOrigins: ['https://*.example.com'] } },
      /allowedOrigins.*https:\/\/\*\.example\.com/,
    ],
    ['keepAliveMs past the longest timer', { http: { keepAliveMs: 2 ** 31 } }, /options\.http\.keepAliveMs/],
    [
      'principalOf that is not a function',
      { auth: { principalOf: 'sub' } },
      /options\.auth\.principalOf must be a function/,
    ],
    // Lists of secrets (rotation) are taken: the message says what such a list must hold.
    [
      'state.secret as an empty list',
      { state: { secret: [] } },
      /options\.state\.secret .*\(or a non-empty list of them\)/,
    ],
    [
      'state.secret with a short secret in its list',
      { state: { secret: ['a-secret-of-at-least-thirty-two-bytes!', 'short'] } },
      /options\.state\.secret .*\(or a non-empty list of them\)/,
    ],
    [
      'routes.forwardHeaders with a name that is no header',
      { routes: { forwardHeaders: ['authorization', 'x tenant'] } },
      /options\.routes\.forwardHeaders must be an array of header names/,
    ],
    [
      'routes.maxResponseBytes of zero',
      { routes: { maxResponseBytes: 0 } },
      /options\.routes\.maxResponseBytes must be a positive whole number, got 0/,
    ],
    ['a typo in the routes options', { routes: { forwardHeader: [] } }, /`routes\.forwardHeader`: did you mean/],
  ])('%s', async (_label, extra, message) => {
    const options = { name: 'invalid', version: '1.0.0', ...extra } as unknown as McpModuleOptions;
    for (const imported of [McpModule.forRoot(options), McpModule.forRootAsync({ useFactory: () => options })]) {
      const { error } = await bootstrapFailure({ imports: [imported], providers: [ContextProbeTools] });
      expect(error).toBeInstanceOf(TypeError);
      expect(error.message).toMatch(message);
    }
  });

  test("says where a module-shaping key goes when forRootAsync's factory returns it", async () => {
    const options = { name: 'invalid', version: '1.0.0', path: 'mcp2' } as unknown as McpModuleOptions;
    const { error } = await bootstrapFailure({
      imports: [McpModule.forRootAsync({ useFactory: () => options })],
      providers: [ContextProbeTools],
    });
    expect(error.message).toMatch(/`path`: it shapes the module: give it to forRootAsync\(\{ path, useFactory \}\)/);
  });

  test('lists every unknown key at once, each with its suggestion', async () => {
    const options = {
      name: 'invalid',
      version: '1.0.0',
      maxSessions: 10,
      stateSecret: 'x'.repeat(40),
      sessions: { idleTimeout: 5 },
    } as unknown as McpModuleOptions;
    const { error } = await bootstrapFailure({ imports: [McpModule.forRoot(options)], providers: [ContextProbeTools] });
    expect(error.message).toBe(
      'McpModule: unknown options: `maxSessions`: did you mean `limits.sessions`? (options are grouped since 1.0); ' +
        '`stateSecret`: did you mean `state.secret`? (options are grouped since 1.0); ' +
        '`sessions.idleTimeout`: did you mean `sessions.idleTimeoutMs`?',
    );
  });
});

describe('auth.principalOf', () => {
  /** The principal a request acts for: its `x-principal` header, if any. */
  const principalFromHeader = (request: unknown): string | undefined => {
    const value = (request as IncomingMessage).headers['x-principal'];
    return typeof value === 'string' && value !== '' ? value : undefined;
  };
  const alice = { 'x-principal': 'alice' };
  const bob = { 'x-principal': 'bob' };

  describe('a custom function (principal from a header)', () => {
    let app: RunningApp;

    beforeAll(async () => {
      app = await startApp({
        imports: [McpModule.forRoot({ name: 'owners', version: '1.0.0', auth: { principalOf: principalFromHeader } })],
        providers: [ContextProbeTools],
      });
    });

    afterAll(async () => {
      await app.close();
    });

    test('binds a session to its creator: another principal gets 404 on POST, GET and DELETE', async () => {
      const sessionId = (await openSession(app.mcpUrl, { headers: alice })).id;
      expect(app.app.get(McpSessionRegistry).get(sessionId)?.owner).toBe('alice');

      for (const stranger of [bob, {}]) {
        const posted = await ping(app, sessionId, stranger);
        expect(posted.status).toBe(404);
        expect(replyOf(posted)?.result).toBeUndefined();
        expect((await get(app, sessionId, stranger)).status).toBe(404);
        expect((await del(app, sessionId, stranger)).status).toBe(404);
      }

      // Nothing a stranger did touched the session: its owner still uses it, then ends it.
      expect(replyOf(await ping(app, sessionId, alice))).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
      expect((await get(app, sessionId, alice)).status).toBe(200);
      expect((await del(app, sessionId, alice)).status).toBe(204);
      expect((await ping(app, sessionId, alice)).status).toBe(404);
    });

    test('an anonymous session (owner undefined) can be used by anyone', async () => {
      const sessionId = (await openSession(app.mcpUrl)).id;
      expect(app.app.get(McpSessionRegistry).get(sessionId)?.owner).toBeUndefined();

      for (const caller of [alice, bob, {}]) {
        const posted = await ping(app, sessionId, caller);
        expect(posted.status).toBe(200);
        expect(replyOf(posted)).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
      }
      expect((await get(app, sessionId, bob)).status).toBe(200);
      expect((await del(app, sessionId, alice)).status).toBe(204);
    });
  });

  test('() => undefined turns binding off: a session created by a principal serves anyone', async () => {
    await withApp(
      {
        imports: [McpModule.forRoot({ name: 'unbound', version: '1.0.0', auth: { principalOf: () => undefined } })],
        providers: [ContextProbeTools],
      },
      async (app) => {
        const sessionId = (await openSession(app.mcpUrl, { headers: alice })).id;
        expect(app.app.get(McpSessionRegistry).get(sessionId)?.owner).toBeUndefined();
        expect((await ping(app, sessionId, bob)).status).toBe(200);
        expect((await get(app, sessionId, bob)).status).toBe(200);
        expect((await del(app, sessionId, bob)).status).toBe(204);
      },
    );
  });
});

describe('what the server keeps of initialize', () => {
  let app: RunningApp;

  beforeAll(async () => {
    app = await startApp({
      imports: [McpModule.forRoot({ name: 'handshake', version: '1.0.0' })],
      providers: [ContextProbeTools],
    });
  });

  afterAll(async () => {
    await app.close();
  });

  function initializeWith(params: { capabilities?: unknown; clientInfo?: unknown }): Promise<HttpResult> {
    const base = initializeRequest('2025-06-18', 'init') as { params: Record<string, unknown> };
    return initialize(app, {}, { ...base, params: { ...base.params, ...params } });
  }

  test('McpContext.clientInfo holds only name, version, title, description and websiteUrl', async () => {
    const clientInfo = {
      name: 'rich-client',
      version: '9.9.9',
      title: 'Rich Client',
      description: 'A client that says a lot about itself',
      websiteUrl: 'https://client.example.com',
      icons: [{ src: 'https://client.example.com/icon.png', mimeType: 'image/png', sizes: ['48x48'] }],
      vendorExtension: { nested: { deep: 'x'.repeat(1000) } },
      build: 1234,
    };
    const reply = await initializeWith({ clientInfo });
    expect(reply.status).toBe(200);
    const sessionId = reply.headers['mcp-session-id'] as string;

    const probe = app.app.get(ContextProbeTools);
    probe.snapshots.length = 0;
    const called = await post(app, sessionId, {
      jsonrpc: '2.0',
      id: 'probe',
      method: 'tools/call',
      params: { name: 'probe_context', arguments: {} },
    });
    expect(replyOf(called)?.result).toEqual({ content: [{ type: 'text', text: 'probed' }] });
    expect(probe.snapshots).toHaveLength(1);
    expect(probe.snapshots[0]!.clientInfo).toEqual({
      name: 'rich-client',
      version: '9.9.9',
      title: 'Rich Client',
      description: 'A client that says a lot about itself',
      websiteUrl: 'https://client.example.com',
    });
  });

  /** Capabilities whose JSON is exactly `length` characters long. */
  function capabilitiesOfLength(length: number): Record<string, unknown> {
    const padding = length - JSON.stringify({ experimental: { pad: '' } }).length;
    const capabilities = { experimental: { pad: 'x'.repeat(padding) } };
    expect(JSON.stringify(capabilities)).toHaveLength(length);
    return capabilities;
  }

  test('capabilities over 4 KiB are refused with -32602 and create no session; 4 KiB exactly are kept', async () => {
    const registry = app.app.get(McpSessionRegistry);
    const before = registry.size;

    const refused = await initializeWith({ capabilities: capabilitiesOfLength(4 * 1024 + 1) });
    expect(refused.headers['mcp-session-id']).toBeUndefined();
    const body = replyOf(refused);
    expect(body).toMatchObject({ jsonrpc: '2.0', id: 'init', error: { code: -32602 } });
    expect(body?.result).toBeUndefined();
    expect(registry.size).toBe(before);

    const capabilities = capabilitiesOfLength(4 * 1024);
    const accepted = await initializeWith({ capabilities });
    expect(accepted.status).toBe(200);
    const sessionId = accepted.headers['mcp-session-id'] as string;
    expect(registry.get(sessionId)?.clientCapabilities).toEqual(capabilities);
  });
});
