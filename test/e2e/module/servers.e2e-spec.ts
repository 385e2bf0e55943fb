/**
 * Several MCP servers in one application: each `McpModule.forRoot()` is a server with its own path,
 * identity, guards, items (`options.items`), sessions and registries. One server may serve every
 * decorated item; a server beside it names what it serves, so that a second endpoint can never serve
 * a guarded server's items without its guards. Configurations that cannot work fail bootstrap.
 */
import {
  Injectable,
  Module,
  UnauthorizedException,
  type CanActivate,
  type ExecutionContext,
  type OnModuleInit,
} from '@nestjs/common';
import type { IncomingMessage } from 'node:http';
import {
  McpCompletion,
  McpModule,
  McpPrompt,
  McpResource,
  McpTool,
  McpToolRegistry,
  type McpModuleOptions,
} from '../../../src/index.js';
import { redisState } from '../../../src/redis/index.js';
import { bootstrapFailure, definitionError } from '../../utils/bootstrap-failure.js';
import { RedisServer } from '../../utils/redis-server.js';
import { Redis } from 'ioredis';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';

/** The main server's guard: `x-api-key: k` or 401. */
@Injectable()
class ApiKeyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<IncomingMessage>();
    if (request.headers['x-api-key'] !== 'k') throw new UnauthorizedException();
    return true;
  }
}

@Injectable()
class WeatherItems {
  @McpTool({ description: 'Forecast for a city' })
  forecast(): string {
    return 'sunny';
  }

  @McpTool({ description: 'Clears every cached forecast' })
  clear_cache(): string {
    return 'cleared';
  }

  @McpResource({ uri: 'weather://cities', name: 'cities' })
  cities(): string {
    return 'Lisbon, Oslo';
  }

  @McpPrompt({ description: 'Summarise a city', args: [{ name: 'city', required: true }] })
  summary({ city }: { city: string }): string {
    return `Summarise the weather in ${city}`;
  }

  @McpCompletion({ prompt: 'summary', argument: 'city' })
  cityNames(): string[] {
    return ['Lisbon', 'Oslo'];
  }
}

const main = (extra: Partial<McpModuleOptions> = {}) =>
  McpModule.forRoot({ name: 'weather', version: '1.0.0', guards: [ApiKeyGuard], ...extra });

const PUBLIC_ITEMS = { tools: ['forecast'], resources: ['weather://cities'], prompts: ['summary'] };

/** A feature module with its own server: its providers inject that server's registries. */
@Injectable()
class PublicExtras implements OnModuleInit {
  constructor(private readonly tools: McpToolRegistry) {}

  onModuleInit(): void {
    this.tools.add({ name: 'status', description: 'Public status' }, () => 'all systems go');
  }
}

@Module({
  imports: [McpModule.forRoot({ name: 'weather-public', version: '1.0.0', path: 'public/mcp', items: PUBLIC_ITEMS })],
  providers: [PublicExtras],
})
class PublicServerModule {}

describe('several MCP servers in one application (e2e)', () => {
  let running: RunningApp;
  const clients = useSdkClients({ closeAfter: 'all' });
  const publicUrl = () => `${running.baseUrl}/public/mcp`;

  beforeAll(async () => {
    running = await startApp({ imports: [main(), PublicServerModule], providers: [WeatherItems] });
  });

  afterAll(async () => {
    await clients.closeAll();
    await running?.close();
  });

  it('serves on the second path exactly the items it names, plus those its own registry adds', async () => {
    const { client } = await clients.connect(publicUrl());
    expect(client.getServerVersion()).toMatchObject({ name: 'weather-public' });
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['forecast', 'status']);
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['weather://cities']);
    expect((await client.listPrompts()).prompts.map((prompt) => prompt.name)).toEqual(['summary']);
    expect(await client.callTool({ name: 'forecast', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'sunny' }],
    });
    // The completion follows its prompt.
    const completed = await client.complete({
      ref: { type: 'ref/prompt', name: 'summary' },
      argument: { name: 'city', value: 'Li' },
    });
    expect(completed.completion.values).toEqual(['Lisbon', 'Oslo']);
  });

  it("never serves the guarded server's other items there, not even by name", async () => {
    const { client } = await clients.connect(publicUrl());
    // Answered as for a tool that does not exist: nothing says the other server has it.
    expect(await client.callTool({ name: 'clear_cache', arguments: {} })).toEqual({
      content: [{ type: 'text', text: 'Unknown tool: clear_cache' }],
      isError: true,
    });
  });

  it('keeps the guarded server as it was: its guard, every decorated item, none of the other server', async () => {
    await expect(clients.connect(running.mcpUrl)).rejects.toThrow(/"message":"Unauthorized"/);
    const { client } = await clients.connect(running.mcpUrl, { headers: { 'x-api-key': 'k' } });
    expect(client.getServerVersion()).toMatchObject({ name: 'weather' });
    expect((await client.listTools()).tools.map((tool) => tool.name).sort()).toEqual(['clear_cache', 'forecast']);
  });

  it('keeps sessions per server: an id of one is unknown to the other', async () => {
    const { transport } = await clients.connect(publicUrl());
    const id = transport.sessionId!;
    const answer = await fetch(running.mcpUrl, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-session-id': id,
        'mcp-protocol-version': '2025-11-25',
        'x-api-key': 'k',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(answer.status).toBe(404);
    await answer.body?.cancel();
  });
});

describe('servers that cannot all work fail bootstrap', () => {
  it('two that both serve every item: a second endpoint would serve the guarded one without its guards', async () => {
    const error = await definitionError({
      imports: [main(), McpModule.forRoot({ name: 'open', version: '1.0.0', path: 'mcp2' })],
      providers: [WeatherItems],
    });
    expect(error.message).toBe(
      "MCP servers 'weather' (/mcp) and 'open' (/mcp2) both serve every decorated item of the application, each " +
        "behind its own guards. A server beside another names what it serves: McpModule.forRoot({ ..., items: { tools: ['…'], resources: ['…'] } }).",
    );
  });

  it('two on one path', async () => {
    const error = await definitionError({
      imports: [main(), McpModule.forRoot({ name: 'other', version: '1.0.0', path: '/mcp/', items: PUBLIC_ITEMS })],
      providers: [WeatherItems],
    });
    expect(error.message).toMatch(/^MCP servers '.+' \(\/mcp\) and '.+' \(\/mcp\) both serve \/mcp: .*another `path`/);
  });

  it('two with one name', async () => {
    const error = await definitionError({
      imports: [main(), McpModule.forRoot({ name: 'weather', version: '2.0.0', path: 'v2', items: PUBLIC_ITEMS })],
      providers: [WeatherItems],
    });
    expect(error.message).toBe(
      "Two MCP servers of this application are named 'weather': give each McpModule.forRoot() its own name",
    );
  });

  it('items naming what no decorated method serves', async () => {
    const failure = await bootstrapFailure({
      imports: [main({ items: { tools: ['forecast', 'forcast'], prompts: ['nope'] } })],
      providers: [WeatherItems],
    });
    expect(failure.error.message).toBe(
      "McpModule 'weather': options.items names what no decorated method of the application serves: tool forcast, prompt nope",
    );
  });

  describe('sharing Redis', () => {
    let redis: RedisServer;
    const clients: Redis[] = [];
    const SECRET = 'a shared secret of at least 32 bytes, the same on every instance';
    const stateOf = (keyPrefix?: string) => {
      const client = new Redis(redis.url);
      clients.push(client);
      return { secret: SECRET, shared: redisState({ client, ...(keyPrefix === undefined ? {} : { keyPrefix }) }) };
    };

    beforeAll(async () => {
      redis = await RedisServer.start();
    });

    afterAll(async () => {
      for (const client of clients) client.disconnect();
      await redis.stop();
    });

    it("two whose states share one key prefix: each would serve the other's sessions", async () => {
      const error = await definitionError({
        imports: [
          main({ state: stateOf() }),
          McpModule.forRoot({ name: 'open', version: '1.0.0', path: 'mcp2', items: PUBLIC_ITEMS, state: stateOf() }),
        ],
        providers: [WeatherItems],
      });
      expect(error.message).toMatch(
        /^MCP servers '(weather|open)' \(\/mcp2?\) and '(weather|open)' \(\/mcp2?\) share one state namespace \('mcp42:'\): each would serve the other's sessions and hear its broadcasts\. Give each server's redisState\(\) its own keyPrefix\.$/,
      );
    });

    it('two with prefixes of their own start', async () => {
      const app = await startApp({
        imports: [
          main({ state: stateOf('weather:') }),
          McpModule.forRoot({
            name: 'open',
            version: '1.0.0',
            path: 'mcp2',
            items: PUBLIC_ITEMS,
            state: stateOf('open:'),
          }),
        ],
        providers: [WeatherItems],
      });
      await app.close();
    });
  });
});
