/**
 * Who may see and call which tool, over real HTTP: a request-scoped APP_GUARD on tools of static
 * providers, list cursors sealed per session, request ids checked before the tool is looked up,
 * guards that hang or break, and request-scoped tool providers (one instance per HTTP request; one
 * that cannot be built leaves the rest listed).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { Inject, Injectable, Logger, Scope, UseGuards, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { APP_GUARD, REQUEST } from '@nestjs/core';
import type { IncomingMessage } from 'node:http';
import { McpExecutionContext, McpModule, McpSessionRegistry, McpTool } from '../../src/index.js';
import { httpExchange } from '../utils/http-exchange.js';
import { RecordingLogger } from '../utils/recording-logger.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../utils/start-app.js';
import { until } from '../utils/wait.js';
import { mcpErrorOf } from '../utils/thrown.js';

/** Denies `secret` to requests without `x-admin: yes`; built per HTTP request (Scope.REQUEST). */
@Injectable({ scope: Scope.REQUEST })
class AdminOnlyGuard implements CanActivate {
  static built = 0;

  constructor(@Inject(REQUEST) private readonly request: IncomingMessage) {
    AdminOnlyGuard.built++;
  }

  canActivate(context: ExecutionContext): boolean {
    if (context.getType<string>() !== 'mcp') return true;
    return McpExecutionContext.of(context).toolName !== 'secret' || this.request.headers['x-admin'] === 'yes';
  }
}

/** Lets the tool be listed, then never settles when it is called. */
class HungGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean | Promise<boolean> {
    if (McpExecutionContext.of(context).phase === 'list') return true;
    return new Promise(() => undefined);
  }
}

class BrokenGuard implements CanActivate {
  canActivate(): boolean {
    throw new TypeError('guard bug');
  }
}

@Injectable()
class StaticTools {
  @McpTool({ name: 'alpha', description: 'first' })
  alpha(): string {
    return 'alpha';
  }

  @McpTool({ name: 'secret', description: 'admins only' })
  secret(): string {
    return 'secret';
  }

  @McpTool({ name: 'zeta', description: 'last' })
  zeta(): string {
    return 'zeta';
  }

  @McpTool({ name: 'hung_guard', description: 'never let through' })
  @UseGuards(HungGuard)
  hungGuard(): string {
    return 'never';
  }

  @McpTool({ name: 'hung_guard_timed', description: 'never let through', timeoutMs: 100 })
  @UseGuards(HungGuard)
  hungGuardTimed(): string {
    return 'never';
  }

  @McpTool({ name: 'broken_guard', description: 'guard throws' })
  @UseGuards(BrokenGuard)
  brokenGuard(): string {
    return 'never';
  }
}

@Injectable({ scope: Scope.REQUEST })
class ScopedTools {
  static built = 0;

  constructor() {
    ScopedTools.built++;
  }

  @McpTool({ name: 'scoped_one', description: 'scoped' })
  one(): string {
    return 'one';
  }

  @McpTool({ name: 'scoped_two', description: 'scoped' })
  two(): string {
    return 'two';
  }

  @McpTool({ name: 'scoped_three', description: 'scoped' })
  three(): string {
    return 'three';
  }
}

@Injectable({ scope: Scope.REQUEST })
class UnbuildableTools {
  constructor() {
    throw new Error('no database today');
  }

  @McpTool({ name: 'unbuildable', description: 'cannot be built' })
  unbuildable(): string {
    return 'never';
  }
}

/** A plain singleton that another singleton injects: tools must not turn it request-scoped. */
@Injectable()
class SingletonTools {
  static initialised = 0;

  onModuleInit(): void {
    SingletonTools.initialised++;
  }

  // Named like the tool AdminOnlyGuard denies, to show the request-scoped global guard applies here too.
  @McpTool({ name: 'secret', description: 'from a singleton' })
  run(): string {
    return 'singleton';
  }
}

@Injectable()
class Scheduler {
  constructor(readonly tools: SingletonTools) {}
}

const ALL_VISIBLE = ['alpha', 'zeta', 'hung_guard', 'hung_guard_timed', 'scoped_one', 'scoped_two', 'scoped_three'];

describe('tool access (e2e)', () => {
  let running: RunningApp;
  let paged: RunningApp;
  const logger = new RecordingLogger();
  const clients: Client[] = [];

  async function connect(app: RunningApp, headers: Record<string, string> = {}): Promise<Client> {
    const client = new Client({ name: 'tool-access-e2e', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(app.mcpUrl), { requestInit: { headers } }));
    clients.push(client);
    return client;
  }

  async function names(client: Client): Promise<string[]> {
    const found: string[] = [];
    let cursor: string | undefined;
    do {
      const page = await client.listTools(cursor === undefined ? {} : { cursor });
      found.push(...page.tools.map((tool) => tool.name));
      cursor = page.nextCursor;
    } while (cursor !== undefined);
    return found;
  }

  const moduleOf = (pageSize?: number): object => ({
    imports: [McpModule.forRoot({ name: 'tool-access-e2e', version: '1.0.0', ...(pageSize ? { pageSize } : {}) })],
    providers: [StaticTools, ScopedTools, UnbuildableTools, { provide: APP_GUARD, useClass: AdminOnlyGuard }],
  });

  beforeAll(async () => {
    running = await startApp(moduleOf(), { logger });
    paged = await startApp(moduleOf(1), { logger });
  });

  beforeEach(() => {
    logger.entries.length = 0;
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await running.close();
    await paged.close();
    Logger.overrideLogger(false);
  });

  describe('a request-scoped APP_GUARD on tools of a static provider', () => {
    it('hides the tool it denies from tools/list and answers its call as an unknown tool', async () => {
      const client = await connect(running);
      expect(await names(client)).toEqual(ALL_VISIBLE);
      const denied = await client.callTool({ name: 'secret', arguments: {} });
      const unknown = await client.callTool({ name: 'no_such_tool', arguments: {} });
      expect(denied).toEqual({ content: [{ type: 'text', text: 'Unknown tool: secret' }], isError: true });
      expect(unknown).toEqual({ content: [{ type: 'text', text: 'Unknown tool: no_such_tool' }], isError: true });
    });

    it('leaves the tool provider a singleton: its lifecycle hooks run and singletons can inject it', async () => {
      const app = await startApp(
        {
          imports: [McpModule.forRoot({ name: 'singleton-e2e', version: '1.0.0' })],
          providers: [SingletonTools, Scheduler, { provide: APP_GUARD, useClass: AdminOnlyGuard }],
        },
        { logger },
      );
      try {
        expect(SingletonTools.initialised).toBe(1);
        const scheduler = app.app.get(Scheduler);
        expect(scheduler.tools).toBe(app.app.get(SingletonTools));
        // The request-scoped global guard still applies to the singleton's tool: denied without the header…
        const stranger = await connect(app);
        expect(await stranger.callTool({ name: 'secret', arguments: {} })).toEqual({
          content: [{ type: 'text', text: 'Unknown tool: secret' }],
          isError: true,
        });
        // …and served with it.
        const admin = await connect(app, { 'x-admin': 'yes' });
        expect(await admin.callTool({ name: 'secret', arguments: {} })).toEqual({
          content: [{ type: 'text', text: 'singleton' }],
        });
        expect(SingletonTools.initialised).toBe(1);
      } finally {
        await Promise.all(clients.splice(0).map((client) => client.close()));
        await app.close();
      }
    });

    it('lets the requests it accepts see and call the tool, building the guard per HTTP request', async () => {
      const client = await connect(running, { 'x-admin': 'yes' });
      const before = AdminOnlyGuard.built;
      expect(await names(client)).toContain('secret');
      expect(AdminOnlyGuard.built).toBeGreaterThan(before);
      expect(await client.callTool({ name: 'secret', arguments: {} })).toEqual({
        content: [{ type: 'text', text: 'secret' }],
      });
    });
  });

  describe('sealed list cursors', () => {
    it('serves every visible tool page by page, and hidden ones on none', async () => {
      const client = await connect(paged);
      expect(await names(client)).toEqual(ALL_VISIBLE);
    });

    it('refuses a forged cursor, even one naming a hidden tool (-32602)', async () => {
      const client = await connect(paged);
      const { nextCursor } = await client.listTools();
      expect(nextCursor).toEqual(expect.any(String));
      const [inner, tag] = [nextCursor!.slice(0, nextCursor!.lastIndexOf('.')), nextCursor!.split('.').at(-1)!];
      const naming = (name: string): string =>
        Buffer.from(
          Buffer.from(inner, 'base64url')
            .toString('utf8')
            .replace(/"alpha"/, JSON.stringify(name)),
        )
          .toString('base64url')
          .replace(/=+$/, '');
      expect(Buffer.from(inner, 'base64url').toString('utf8')).toContain('"alpha"');
      for (const forged of [naming('secret'), `${naming('secret')}.${tag}`, `${inner}.${'A'.repeat(22)}`, inner]) {
        expect((await mcpErrorOf(client.listTools({ cursor: forged }))).code).toBe(-32602);
      }
      // The genuine cursor still works.
      expect((await client.listTools({ cursor: nextCursor! })).tools.map((tool) => tool.name)).toEqual(['zeta']);
    });

    it('refuses a cursor issued to another session (-32602)', async () => {
      const owner = await connect(paged);
      const other = await connect(paged);
      const { nextCursor } = await owner.listTools();
      expect((await mcpErrorOf(other.listTools({ cursor: nextCursor! }))).code).toBe(-32602);
      expect((await owner.listTools({ cursor: nextCursor! })).tools).toHaveLength(1);
    });
  });

  describe('request ids', () => {
    /** A 2025-03-26 session over raw HTTP, for batches. */
    async function batchSession(): Promise<(body: unknown) => Promise<unknown>> {
      const init = await httpExchange(
        running.mcpUrl,
        'POST',
        { ...MCP_POST_HEADERS },
        JSON.stringify(initializeRequest('2025-03-26')),
      );
      const id = init.headers['mcp-session-id'] as string;
      const headers = { ...MCP_POST_HEADERS, 'mcp-session-id': id, 'mcp-protocol-version': '2025-03-26' };
      await httpExchange(
        running.mcpUrl,
        'POST',
        headers,
        JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
      );
      return async (body) => {
        const reply = await httpExchange(running.mcpUrl, 'POST', headers, JSON.stringify(body));
        expect(reply.status).toBe(200);
        return JSON.parse(reply.text) as unknown;
      };
    }

    const callOf = (id: string, name: string): object => ({
      jsonrpc: '2.0',
      id,
      method: 'tools/call',
      params: { name, arguments: {} },
    });

    it('refuses an id in use alike whether the second call names an unknown or a hidden tool', async () => {
      const post = await batchSession();
      const withUnknown = (await post([callOf('dup', 'hung_guard_timed'), callOf('dup', 'no_such_tool')])) as object[];
      const withHidden = (await post([callOf('dup', 'hung_guard_timed'), callOf('dup', 'secret')])) as object[];
      const refusal = {
        jsonrpc: '2.0',
        id: 'dup',
        error: { code: -32600, message: 'Invalid Request: request id "dup" is already in use by a running call' },
      };
      expect(withUnknown).toContainEqual(refusal);
      expect(withHidden).toContainEqual(refusal);
      expect(withUnknown).toHaveLength(2);
      expect(withHidden).toHaveLength(2);
    });
  });

  describe('guards that hang or break', () => {
    it("answers a call whose guard never settles once the tool's timeoutMs passes, as for an unknown tool", async () => {
      const client = await connect(running);
      const result = await client.callTool({ name: 'hung_guard_timed', arguments: {} });
      // The guards never admitted the caller: "timed out" would tell it the tool exists.
      expect(result).toEqual({ content: [{ type: 'text', text: 'Unknown tool: hung_guard_timed' }], isError: true });
    });

    it('lets a client cancel a call whose guard never settles, leaving no call running', async () => {
      const client = await connect(running);
      const registry = running.app.get(McpSessionRegistry);
      const controller = new AbortController();
      const pending = client.callTool({ name: 'hung_guard', arguments: {} }, undefined, { signal: controller.signal });
      const session = (): ReturnType<McpSessionRegistry['all']>[number] | undefined =>
        registry.all().find((candidate) => candidate.runningCalls > 0);
      await until(() => session() !== undefined, 'the call runs');
      const running_ = session()!;
      controller.abort('stop');
      await expect(pending).rejects.toThrow();
      await until(() => running_.runningCalls === 0, 'the cancelled call ends');
    });

    it('logs a guard that throws something other than an HttpException as an error, and denies the tool', async () => {
      const client = await connect(running);
      expect(await names(client)).not.toContain('broken_guard');
      expect(await client.callTool({ name: 'broken_guard', arguments: {} })).toMatchObject({
        content: [{ type: 'text', text: 'Unknown tool: broken_guard' }],
        isError: true,
      });
      const lines = logger
        .at('error')
        .filter((line) => line.includes('A guard of brokenGuard failed; the tool is denied'));
      expect(lines.length).toBeGreaterThanOrEqual(2);
      expect(lines[0]).toContain('TypeError: guard bug');
      expect(lines[0]).toContain('McpTools');
    });
  });

  describe('request-scoped tool providers', () => {
    it('builds one instance per HTTP request, however many of its tools it lists', async () => {
      const client = await connect(running);
      const before = ScopedTools.built;
      const { tools } = await client.listTools();
      expect(tools.filter((tool) => tool.name.startsWith('scoped_'))).toHaveLength(3);
      expect(ScopedTools.built - before).toBe(1);
      expect(await client.callTool({ name: 'scoped_two', arguments: {} })).toEqual({
        content: [{ type: 'text', text: 'two' }],
      });
      expect(ScopedTools.built - before).toBe(2);
    });

    it('leaves out the tools of a provider that cannot be built, logs it, and lists the rest', async () => {
      const client = await connect(running);
      expect(await names(client)).toEqual(ALL_VISIBLE);
      const lines = logger.at('error').filter((line) => line.includes('Tool unbuildable (UnbuildableTools'));
      expect(lines).toHaveLength(1);
      expect(lines[0]).toContain('could not be prepared for listing; it is left out');
      expect(lines[0]).toContain('no database today');
    });
  });
});
