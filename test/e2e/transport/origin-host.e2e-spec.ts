/**
 * Origin and Host validation (the DNS-rebinding defence) on POST, GET and DELETE: the loopback
 * defaults, custom lists replacing them, `'*'` opening each list, the check running as a middleware
 * ahead of every guard (on any path or global prefix), and each application keeping its own lists.
 */
import { Injectable, type CanActivate } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
import { EchoTools } from '../../../sample-app/echo.tools.js';
import { McpModule, McpSessionRegistry, type McpModuleOptions } from '../../../src/index.js';
import { httpExchange, type HttpResult } from '../../utils/http-exchange.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { exchange, HttpMcpClient } from '../../utils/http-mcp-client.js';
import {
  initializeRequest,
  MCP_POST_HEADERS,
  startApp,
  type RunningApp,
  type StartAppOptions,
} from '../../utils/start-app.js';
import { openSession } from '../../utils/open-session.js';
import { expectRefusal } from '../../utils/refusal.js';

type Method = 'POST' | 'GET' | 'DELETE';
const METHODS: Method[] = ['POST', 'GET', 'DELETE'];

/** Counts its calls and lets everything through: proves which requests reached the guards. */
@Injectable()
class CountingGuard implements CanActivate {
  static calls = 0;

  canActivate(): boolean {
    CountingGuard.calls++;
    return true;
  }
}

const ALLOWED_STATUS: Record<Method, number> = { POST: 200, GET: 200, DELETE: 204 };

/**
 * Drives one method on `app` with the Origin and Host under test. GET and DELETE need a session: it
 * is created first with headers the app accepts (`setupHost`, no Origin).
 */
class Prober {
  constructor(
    private readonly app: RunningApp,
    private readonly setupHost: string,
  ) {}

  get port(): string {
    return new URL(this.app.baseUrl).port;
  }

  /** A session's id, opened from the setup host and not acknowledged with `notifications/initialized`. */
  async newSession(): Promise<string> {
    return (await openSession(this.app.mcpUrl, { headers: { host: this.setupHost }, initialized: false })).id;
  }

  async probe(method: Method, test: { origin?: string; host?: string }): Promise<HttpResult> {
    const headers: Record<string, string> = { host: test.host ?? this.setupHost };
    if (test.origin !== undefined) headers.origin = test.origin;
    if (method === 'POST') {
      return httpExchange(
        this.app.mcpUrl,
        'POST',
        { ...MCP_POST_HEADERS, ...headers },
        JSON.stringify(initializeRequest()),
      );
    }
    const sessionId = await this.newSession();
    const res = await httpExchange(this.app.mcpUrl, method, {
      ...headers,
      'mcp-session-id': sessionId,
      ...(method === 'GET' ? { accept: 'text/event-stream' } : {}),
    });
    if (res.status === 403) {
      // A refused request has no effect: the session is still there.
      expect(this.app.app.get(McpSessionRegistry).get(sessionId)).toBeDefined();
    }
    return res;
  }

  async expectAllowed(method: Method, test: { origin?: string; host?: string }): Promise<void> {
    const res = await this.probe(method, test);
    expect({ status: res.status, text: res.text }).toMatchObject({ status: ALLOWED_STATUS[method] });
  }

  async expectForbidden(method: Method, test: { origin?: string; host?: string }): Promise<void> {
    const registry = this.app.app.get(McpSessionRegistry);
    const before = method === 'POST' ? registry.size : undefined;
    expectRefusal(await this.probe(method, test), 403);
    if (before !== undefined) expect(registry.size).toBe(before);
  }
}

async function start(options: Partial<McpModuleOptions> = {}): Promise<RunningApp> {
  return startApp({
    imports: [McpModule.forRoot({ name: 'origin-e2e', version: '1.0.0', ...options })],
    providers: [EchoTools],
  });
}

describe('Origin and Host validation (e2e)', () => {
  describe('defaults (loopback only)', () => {
    let running: RunningApp;
    let prober: Prober;

    beforeAll(async () => {
      running = await start();
      prober = new Prober(running, `127.0.0.1:${new URL(running.baseUrl).port}`);
    });

    afterAll(async () => {
      await running?.close();
    });

    describe.each(METHODS)('%s', (method) => {
      it('allows a request without Origin', async () => {
        await prober.expectAllowed(method, {});
      });

      it.each([
        'http://localhost:3000',
        'http://localhost:5173',
        'http://localhost',
        'http://127.0.0.1:8080',
        'http://127.0.0.1',
        'http://[::1]:3000',
        'https://localhost:8443',
      ])('allows Origin %s', async (origin) => {
        await prober.expectAllowed(method, { origin });
      });

      it.each([
        'https://evil.example',
        'http://evil.example:3000',
        'null',
        'garbage',
        'http://localhost.evil.example',
        'http://127.0.0.1.evil.example:8080',
        'http://evil.example/http://localhost:3000',
        'file:///etc/passwd',
      ])('refuses Origin %s with 403 and a JSON-RPC error body', async (origin) => {
        await prober.expectForbidden(method, { origin });
      });

      it.each(['localhost:PORT', '127.0.0.1:PORT', '[::1]:PORT', 'localhost', 'LOCALHOST:PORT'])(
        'allows Host %s',
        async (host) => {
          await prober.expectAllowed(method, { host: host.replace('PORT', prober.port) });
        },
      );

      it.each([
        'evil.example.com',
        'evil.example.com:PORT',
        'localhost.evil.example.com:PORT',
        '127.0.0.1.nip.io:PORT',
        '0.0.0.0:PORT',
      ])('refuses Host %s with 403 and a JSON-RPC error body', async (host) => {
        await prober.expectForbidden(method, { host: host.replace('PORT', prober.port) });
      });

      it('refuses an allowed Origin arriving through a foreign Host', async () => {
        await prober.expectForbidden(method, { origin: 'http://localhost:3000', host: 'evil.example.com' });
      });
    });
  });

  describe("custom lists: allowedOrigins ['https://app.example.com'], allowedHosts ['mcp.example.com']", () => {
    let running: RunningApp;
    let prober: Prober;

    beforeAll(async () => {
      running = await start({
        http: { allowedOrigins: ['https://app.example.com'], allowedHosts: ['mcp.example.com'] },
      });
      prober = new Prober(running, 'mcp.example.com');
    });

    afterAll(async () => {
      await running?.close();
    });

    describe.each(METHODS)('%s', (method) => {
      it.each<[string | undefined, string]>([
        ['https://app.example.com', 'mcp.example.com'],
        ['https://app.example.com:443', 'mcp.example.com'],
        [undefined, 'mcp.example.com'],
        [undefined, 'mcp.example.com:443'],
        ['https://app.example.com', 'MCP.example.com:8443'],
      ])('allows Origin %s with Host %s', async (origin, host) => {
        await prober.expectAllowed(method, { origin, host });
      });

      it.each<[string | undefined, string]>([
        ['http://localhost:3000', 'mcp.example.com'],
        ['http://127.0.0.1:3000', 'mcp.example.com'],
        ['http://app.example.com', 'mcp.example.com'],
        ['https://app.example.com:8443', 'mcp.example.com'],
        ['https://evil.example', 'mcp.example.com'],
        ['null', 'mcp.example.com'],
        [undefined, '127.0.0.1:PORT'],
        [undefined, 'localhost:PORT'],
        [undefined, 'evil.example.com'],
        ['https://app.example.com', 'evil.example.com'],
      ])('refuses Origin %s with Host %s (the defaults no longer apply)', async (origin, host) => {
        await prober.expectForbidden(method, { origin, host: host.replace('PORT', prober.port) });
      });
    });
  });

  describe("'*' opens a list", () => {
    let running: RunningApp | undefined;

    afterEach(async () => {
      await running?.close();
      running = undefined;
    });

    it.each(METHODS)("allowedOrigins ['*'] allows any Origin on %s, Host is still checked", async (method) => {
      running = await start({ http: { allowedOrigins: ['*'] } });
      const prober = new Prober(running, `127.0.0.1:${new URL(running.baseUrl).port}`);
      for (const origin of ['https://evil.example', 'null', 'garbage', 'http://localhost:1']) {
        await prober.expectAllowed(method, { origin });
      }
      await prober.expectForbidden(method, { origin: 'https://evil.example', host: 'evil.example.com' });
    });

    it.each(METHODS)("allowedHosts ['*'] allows any Host on %s, Origin is still checked", async (method) => {
      running = await start({ http: { allowedHosts: ['*'] } });
      const prober = new Prober(running, 'evil.example.com');
      for (const host of ['evil.example.com', 'evil.example.com:8080', '0.0.0.0', `127.0.0.1:${prober.port}`]) {
        await prober.expectAllowed(method, { host });
      }
      await prober.expectAllowed(method, { origin: 'http://localhost:3000' });
      await prober.expectForbidden(method, { origin: 'https://evil.example' });
    });

    it.each(METHODS)('both lists opened allow everything on %s', async (method) => {
      running = await start({ http: { allowedOrigins: ['*'], allowedHosts: ['*'] } });
      const prober = new Prober(running, 'evil.example.com');
      await prober.expectAllowed(method, { origin: 'https://evil.example', host: 'evil.example.com:1234' });
    });
  });
});

describe('the Origin/Host check runs as a middleware before every guard', () => {
  const apps: RunningApp[] = [];

  afterAll(async () => {
    await Promise.all(apps.map((app) => app.close()));
  });

  async function guarded(options: StartAppOptions = {}): Promise<RunningApp> {
    const running = await startApp(
      {
        imports: [
          McpModule.forRoot({
            name: 'origin-before-guards-e2e',
            version: '1.0.0',
            ...(options.path === undefined ? {} : { path: options.path }),
          }),
        ],
        providers: [EchoTools, { provide: APP_GUARD, useClass: CountingGuard }],
      },
      options,
    );
    apps.push(running);
    return running;
  }

  const hostOf = (running: RunningApp): string => new URL(running.baseUrl).host;

  /** Sends initialize, and a POST, a GET and a DELETE on `sessionId`, with `headers`; returns the replies. */
  async function everyMethod(running: RunningApp, sessionId: string, headers: Record<string, string>) {
    const withSession = { ...headers, 'mcp-session-id': sessionId };
    return [
      await exchange(running.mcpUrl, { headers: { ...MCP_POST_HEADERS, ...headers }, body: initializeRequest() }),
      await exchange(running.mcpUrl, {
        headers: { ...MCP_POST_HEADERS, ...withSession },
        body: { jsonrpc: '2.0', id: 1, method: 'ping' },
      }),
      await exchange(running.mcpUrl, { method: 'GET', headers: { ...withSession, accept: 'text/event-stream' } }),
      await exchange(running.mcpUrl, { method: 'DELETE', headers: withSession }),
    ];
  }

  describe.each<[string, StartAppOptions]>([
    ['the default path', {}],
    ['a custom path', { path: 'agents/v1/mcp' }],
    ["app.setGlobalPrefix('api')", { prefix: 'api' }],
  ])('on %s', (_label, options) => {
    let running: RunningApp;

    beforeAll(async () => {
      running = await guarded(options);
    });

    it('serves the endpoint where expected', () => {
      const expected = options.prefix ? '/api/mcp' : `/${options.path ?? 'mcp'}`;
      expect(new URL(running.mcpUrl).pathname).toBe(expected);
    });

    it.each<[string, (running: RunningApp) => Record<string, string>]>([
      ['Host: evil.example.com', () => ({ host: 'evil.example.com' })],
      ['Origin: https://evil.example', (app) => ({ host: hostOf(app), origin: 'https://evil.example' })],
    ])(
      'refuses %s with 403 and a JSON-RPC body on POST, GET and DELETE, and never calls the guard',
      async (_h, make) => {
        const sessionId = await new HttpMcpClient(running.mcpUrl).initialize();
        const before = CountingGuard.calls;
        const replies = await everyMethod(running, sessionId, make(running));
        expect(replies).toHaveLength(4);
        for (const reply of replies) expectRefusal(reply, 403);
        expect(CountingGuard.calls).toBe(before);
        // The refused DELETE ended nothing.
        expect(running.app.get(McpSessionRegistry).get(sessionId)).toBeDefined();
      },
    );

    it('lets an allowed request through to the guard', async () => {
      const client = new HttpMcpClient(running.mcpUrl, { origin: 'http://localhost:5173' });
      const before = CountingGuard.calls;
      await client.initialize();
      expect(CountingGuard.calls).toBe(before + 1);
      expect((await client.ping()).result).toEqual({});
      expect(CountingGuard.calls).toBe(before + 2);
    });
  });

  it('keeps each application to its own allowedHosts when two run in one process', async () => {
    const start = async (host: string) => {
      const running = await startApp({
        imports: [McpModule.forRoot({ name: 'origin-e2e', version: '1.0.0', http: { allowedHosts: [host] } })],
        providers: [EchoTools],
      });
      apps.push(running);
      return running;
    };
    const [a, b] = [await start('a.example'), await start('b.example')];
    const init = (running: RunningApp, host: string) =>
      exchange(running.mcpUrl, { headers: { ...MCP_POST_HEADERS, host }, body: initializeRequest() });

    expect((await init(a, 'a.example')).status).toBe(200);
    expectRefusal(await init(a, 'b.example'), 403);
    expect((await init(b, 'b.example')).status).toBe(200);
    expectRefusal(await init(b, 'a.example'), 403);
    expectRefusal(await init(a, '127.0.0.1'), 403);
    expectRefusal(await init(b, '127.0.0.1'), 403);
  });

  it('logs a refused Host or Origin once per value, naming the option that admits it, and bounded', async () => {
    const logger = new RecordingLogger();
    const running = await startApp(
      { imports: [McpModule.forRoot({ name: 'origin-log', version: '1.0.0' })], providers: [EchoTools] },
      { logger },
    );
    apps.push(running);
    const init = (headers: Record<string, string>) =>
      exchange(running.mcpUrl, { headers: { ...MCP_POST_HEADERS, ...headers }, body: initializeRequest() });
    const refusals = () => logger.at('warn').filter((line) => line.startsWith('Refused a request'));

    for (let i = 0; i < 3; i++) expectRefusal(await init({ host: 'mcp.example.com' }), 403);
    expectRefusal(await init({ origin: 'https://app.example' }), 403);
    expect(refusals()).toEqual([
      expect.stringMatching(
        /^Refused a request for Host "mcp\.example\.com" \(403\): add its host name to the http\.allowedHosts option/,
      ),
      expect.stringMatching(
        /^Refused a request from Origin "https:\/\/app\.example" \(403\): add it to the http\.allowedOrigins option/,
      ),
    ]);

    // A flood of distinct values: every one refused, at most ten lines a minute logged.
    for (let i = 0; i < 30; i++) expectRefusal(await init({ host: `flood-${i}.example` }), 403);
    expect(refusals().length).toBe(10);
  });
});
