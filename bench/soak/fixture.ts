import 'reflect-metadata';
import { Injectable, Logger, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import type { NestExpressApplication } from '@nestjs/platform-express';
import { IsInt, IsString, Max, Min } from 'class-validator';
import type { Server } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { EchoArgs } from '../../sample-app/echo.args.js';
import { Redis } from 'ioredis';
import {
  McpModule,
  McpResourceRegistry,
  McpResourceTemplate,
  McpSessionRegistry,
  McpTool,
  type McpContext,
} from '../../src/index.js';
import { redisState } from '../../src/redis/index.js';
import { ListenStreams } from '../../src/dispatch/listen-streams.js';
import { SessionStore } from '../../src/session/session.store.js';
import { endpointUrl, HOST } from '../servers/bench-server.js';

/** The soak fixture's settings, read from the environment of its process. */
export interface SoakFixtureSettings {
  /** `sessionIdleTimeoutMs` (SOAK_IDLE_MS, default 2000). */
  readonly idleMs: number;
  /** `limits.outboxMessages` (SOAK_OUTBOX, default mcp42's 1000). */
  readonly outboxLimit: number | undefined;
  /** Shared state in this Redis (SOAK_REDIS_URL), with the instances of the stall part's `redis` variant. */
  readonly redisUrl: string | undefined;
}

export function fixtureSettingsFromEnv(): SoakFixtureSettings {
  const idleMs = Number(process.env.SOAK_IDLE_MS ?? 2000);
  const outbox = process.env.SOAK_OUTBOX;
  return {
    idleMs,
    outboxLimit: outbox === undefined ? undefined : Number(outbox),
    redisUrl: process.env.SOAK_REDIS_URL || undefined,
  };
}

/** The resources stalled listeners subscribe to: `soak://r/<text>`, so an update carries the text. */
export const SOAK_RESOURCE_PREFIX = 'soak://r/';

export class ProgressArgs {
  @IsInt()
  @Min(1)
  @Max(50)
  steps!: number;

  @IsInt()
  @Min(0)
  @Max(1000)
  delayMs!: number;
}

export class BroadcastArgs {
  @IsInt()
  @Min(1)
  @Max(100_000)
  count!: number;

  @IsString()
  text!: string;
}

/** How many notifyAll rounds run before the broadcast yields to the event loop (other requests go on). */
const BROADCAST_BATCH = 10;

@Injectable()
export class SoakTools {
  constructor(
    private readonly sessions: McpSessionRegistry,
    private readonly resources: McpResourceRegistry,
  ) {}

  @McpResourceTemplate({ uriTemplate: `${SOAK_RESOURCE_PREFIX}{text}`, name: 'soak_resource' })
  resource(): string {
    return 'soak';
  }

  @McpTool({
    description: 'Tells `count` times that `soak://r/<text>` changed (to listen streams and subscribed sessions)',
    input: BroadcastArgs,
    timeoutMs: 300_000,
  })
  async touch(args: BroadcastArgs): Promise<string> {
    let sent = 0;
    for (let index = 0; index < args.count; index++) {
      sent += this.resources.notifyUpdated(`${SOAK_RESOURCE_PREFIX}${args.text}`);
      if (index % BROADCAST_BATCH === BROADCAST_BATCH - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    return String(sent);
  }

  @McpTool({ description: 'Returns the given text unchanged', input: EchoArgs })
  echo(args: EchoArgs): string {
    return args.text;
  }

  @McpTool({ description: 'Reports progress `steps` times, `delayMs` apart', input: ProgressArgs, timeoutMs: 60_000 })
  async progress(args: ProgressArgs, ctx: McpContext): Promise<string> {
    for (let step = 0; step < args.steps; step++) {
      ctx.reportProgress({ progress: step, total: args.steps });
      await sleep(args.delayMs, undefined, { signal: ctx.signal });
    }
    return `done ${args.steps}`;
  }

  @McpTool({
    description: 'Sends `count` log notifications carrying `text` to every session (McpSessionRegistry.notifyAll)',
    input: BroadcastArgs,
    timeoutMs: 300_000,
  })
  async broadcast(args: BroadcastArgs): Promise<string> {
    let sent = 0;
    for (let index = 0; index < args.count; index++) {
      sent += this.sessions.notifyAll('notifications/message', { level: 'info', data: { index, text: args.text } });
      if (index % BROADCAST_BATCH === BROADCAST_BATCH - 1) await new Promise((resolve) => setImmediate(resolve));
    }
    return String(sent);
  }
}

/** The soak fixture: a minimal McpModule app with echo, progress and broadcast tools, on Express. */
export interface SoakFixture {
  readonly url: string;
  readonly httpServer: Server;
  sessionCount(): number;
  /** Open `subscriptions/listen` streams. */
  listenCount(): number;
  /** Sessions whose GET stream this instance holds open. */
  streamCount(): number;
  close(): Promise<void>;
}

export async function startSoakFixture(settings: SoakFixtureSettings): Promise<SoakFixture> {
  Logger.overrideLogger(false);
  const redis = settings.redisUrl === undefined ? undefined : new Redis(settings.redisUrl);
  @Module({
    imports: [
      McpModule.forRoot({
        name: 'mcp42-soak',
        version: '1.0.0',
        sessions: { idleTimeoutMs: settings.idleMs },
        limits: {
          sessions: 1_000_000,
          listenStreams: 100_000,
          ...(settings.outboxLimit === undefined ? {} : { outboxMessages: settings.outboxLimit }),
        },
        ...(redis === undefined
          ? {}
          : { state: { shared: redisState({ client: redis, keyPrefix: 'soak:' }), secret: 'soak-'.repeat(8) } }),
      }),
    ],
    providers: [SoakTools],
  })
  class SoakModule {}

  const app = await NestFactory.create<NestExpressApplication>(SoakModule, {
    bodyParser: false,
    logger: false,
    forceCloseConnections: true,
  });
  await app.listen(0, HOST);
  const httpServer = app.getHttpServer() as Server;
  const registry = app.get(McpSessionRegistry);
  const listens = app.get(ListenStreams, { strict: false });
  const sessionStore = app.get(SessionStore, { strict: false });
  return {
    url: endpointUrl(httpServer.address()),
    httpServer,
    sessionCount: () => registry.size,
    listenCount: () => listens.size,
    streamCount: () => sessionStore.all().filter((session) => session.hasStream).length,
    close: async () => {
      await app.close();
      redis?.disconnect();
    },
  };
}
