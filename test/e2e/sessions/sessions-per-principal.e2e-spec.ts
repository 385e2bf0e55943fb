/**
 * `maxSessionsPerPrincipal`: a principal (here `request.user.sub`, set by an endpoint guard from a
 * header) at its cap gets 429 for its next `initialize`, with a JSON-RPC error and `Retry-After`;
 * other principals and anonymous clients are unaffected; a DELETE or an idle timeout gives a place
 * back. In one process, and across two instances sharing one Redis.
 */
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Redis } from 'ioredis';
import { McpModule, McpTool, type McpModuleOptions } from '../../../src/index.js';
import { redisState } from '../../../src/redis/index.js';
import { RedisServer } from '../../utils/redis-server.js';
import { httpExchange, type HttpResult } from '../../utils/http-exchange.js';
import { openSession } from '../../utils/open-session.js';
import { expectRefusal } from '../../utils/refusal.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';
import { delay, until } from '../../utils/wait.js';

const CAP = 3;
const SECRET = 'a shared secret of at least 32 bytes, the same on every instance';

/** Authentication as a guard does it: the principal named by `x-principal` becomes `request.user`. */
@Injectable()
class PrincipalHeaderGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ headers: Record<string, unknown>; user?: unknown }>();
    const principal = request.headers['x-principal'];
    if (typeof principal === 'string') request.user = { sub: principal };
    return true;
  }
}

@Injectable()
class PingTools {
  @McpTool({ description: 'Answers pong' })
  pong(): string {
    return 'pong';
  }
}

/** The endpoints of one deployment: one process (the same URL twice) or two instances. */
interface Deployment {
  readonly urls: readonly [string, string];
  close(): Promise<void>;
}

const app = (options: Partial<McpModuleOptions>): Promise<RunningApp> =>
  startApp({
    imports: [
      McpModule.forRoot({
        name: 'per-principal',
        version: '1.0.0',
        ...options,
        guards: [PrincipalHeaderGuard],
        limits: { sessionsPerPrincipal: CAP, ...options.limits },
      }),
    ],
    providers: [PingTools],
  });

const principal = (sub: string | undefined): Record<string, string> =>
  sub === undefined ? {} : { 'x-principal': sub };

const initialize = (url: string, sub: string | undefined): Promise<HttpResult> =>
  httpExchange(
    url,
    'POST',
    { ...MCP_POST_HEADERS, ...principal(sub) },
    JSON.stringify(initializeRequest('2025-11-25', 'init')),
  );

/** Opens a session (not acknowledged with `notifications/initialized`), expecting success; returns its id. */
const open = async (url: string, sub: string | undefined): Promise<string> =>
  (await openSession(url, { protocolVersion: '2025-11-25', id: 'init', headers: principal(sub), initialized: false }))
    .id;

/** Expects `initialize` refused for the principal: 429, `Retry-After`, a JSON-RPC error, no session. */
async function expectRefused(url: string, sub: string): Promise<void> {
  const answer = await initialize(url, sub);
  expectRefusal(answer, 429, {
    id: 'init',
    message: 'Too many sessions for this principal; end one (DELETE) or try again later',
  });
  expect(Number(answer.headers['retry-after'])).toBeGreaterThan(0);
}

async function remove(url: string, sessionId: string, sub: string): Promise<void> {
  const answer = await fetch(url, {
    method: 'DELETE',
    headers: { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-11-25', ...principal(sub) },
  });
  await answer.text();
  expect(answer.status).toBe(204);
}

describe.each<[string, (options: Partial<McpModuleOptions>) => Promise<Deployment>]>([
  [
    'one process',
    async (options) => {
      const running = await app(options);
      return { urls: [running.mcpUrl, running.mcpUrl], close: () => running.close() };
    },
  ],
  [
    'two instances sharing one Redis',
    async (options) => {
      const redis = await RedisServer.start();
      const clients = [new Redis(redis.url), new Redis(redis.url)];
      const state = (client: Redis) => redisState({ client, keyPrefix: `per-principal-${process.pid}:` });
      const instances: RunningApp[] = [];
      for (const client of clients)
        instances.push(await app({ ...options, state: { ...options.state, secret: SECRET, shared: state(client) } }));
      return {
        urls: [instances[0]!.mcpUrl, instances[1]!.mcpUrl],
        close: async () => {
          for (const instance of instances) await instance.close();
          for (const client of clients) client.disconnect();
          await redis.stop();
        },
      };
    },
  ],
])('maxSessionsPerPrincipal, %s (e2e)', (_label, deploy) => {
  describe('sessions that do not idle out', () => {
    let deployment: Deployment;

    beforeAll(async () => {
      deployment = await deploy({});
    }, 30_000);

    afterAll(async () => {
      await deployment?.close();
    });

    test('a principal opens its share, on any instance; the next initialize gets 429; others are unaffected', async () => {
      const [first, second] = deployment.urls;
      for (let index = 0; index < CAP; index++) await open(deployment.urls[index % 2]!, 'alice');
      await expectRefused(first, 'alice');
      await expectRefused(second, 'alice');

      // Another principal has a share of its own; anonymous clients are bounded by maxSessions alone.
      for (let index = 0; index < CAP; index++) await open(deployment.urls[index % 2]!, 'bob');
      for (let index = 0; index < CAP + 2; index++) await open(deployment.urls[index % 2]!, undefined);
      await expectRefused(second, 'bob');
    });

    test('after a DELETE (on the other instance, when there are two) the principal opens one again', async () => {
      const [first, second] = deployment.urls;
      const ids: string[] = [];
      for (let index = 0; index < CAP; index++) ids.push(await open(first, 'carol'));
      await expectRefused(second, 'carol');
      await remove(second, ids[0]!, 'carol');
      await open(second, 'carol');
      await expectRefused(first, 'carol');
    });
  });

  test('a session idle past sessionIdleTimeoutMs frees its place', async () => {
    const idleMs = 1_500;
    const deployment = await deploy({ sessions: { idleTimeoutMs: idleMs }, limits: { sessionsPerPrincipal: 1 } });
    try {
      const [first, second] = deployment.urls;
      await open(first, 'dave');
      await expectRefused(second, 'dave');
      // A fixed wait on purpose: the idle timeout running out is what is tested.
      await delay(idleMs);
      let status = 0;
      await until(
        async () => {
          status = (await initialize(second, 'dave')).status;
          return status !== 429;
        },
        'the idle session to give its place back',
        5_000,
      );
      expect(status).toBe(200);
      await expectRefused(first, 'dave');
    } finally {
      await deployment.close();
    }
  }, 30_000);
});
