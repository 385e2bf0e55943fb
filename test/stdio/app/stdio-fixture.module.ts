import {
  Injectable,
  Logger,
  Module,
  UseGuards,
  type CanActivate,
  type DynamicModule,
  type ExecutionContext,
  type OnApplicationBootstrap,
  type OnModuleInit,
} from '@nestjs/common';
import {
  McpCallAbortedError,
  McpExecutionContext,
  McpModule,
  McpTool,
  McpToolRegistry,
  type McpContext,
} from '../../../src/index.js';

/** Logs the way applications do while they start: Nest's logger and `console`, before any message. */
@Injectable()
class ChattyStartup implements OnModuleInit, OnApplicationBootstrap {
  onModuleInit(): void {
    new Logger('ChattyStartup').log('Nest logger in onModuleInit');
    console.log('console.log in onModuleInit');
  }

  onApplicationBootstrap(): void {
    console.info('console.info in onApplicationBootstrap');
  }
}

/** Admits only what came over stdio: guards see the transport. */
class StdioOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return McpExecutionContext.of(context).transport === 'stdio';
  }
}

/** Tools of the stdio tests: one that writes to stdout every way host code does, one that runs until aborted. */
@Injectable()
class StdioFixtureTools {
  constructor(private readonly tools: McpToolRegistry) {}

  @McpTool({ name: 'chatty', description: 'Writes to stdout every way host code does, then answers' })
  chatty(): string {
    console.log('console.log from a tool');
    process.stdout.write('process.stdout.write from a tool\n');
    new Logger('StdioFixtureTools').log('Nest logger from a tool');
    return 'said it';
  }

  @UseGuards(StdioOnlyGuard)
  @McpTool({ name: 'whoami', description: 'What the tool knows of its request' })
  whoami(_args: object, ctx: McpContext): string {
    const request = ctx.request as { transport?: unknown };
    return JSON.stringify({
      transport: ctx.transport,
      requestTransport: request.transport,
      user: ctx.user,
      headers: ctx.headers,
    });
  }

  @McpTool({ name: 'ask_client', description: "Asks the client's model and lists the client's roots" })
  async askClient(_args: object, ctx: McpContext): Promise<string> {
    const sampled = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
      maxTokens: 10,
    });
    const { roots } = await ctx.listRoots();
    return JSON.stringify({ sampled: sampled.content, roots: roots.map((root) => root.uri) });
  }

  @McpTool({ name: 'add_tool', description: 'Adds the tool `added` at run time (a tools list_changed)' })
  addTool(_args: object, ctx: McpContext): string {
    this.tools.add({ name: 'added', description: 'Added at run time' }, () => 'added here');
    ctx.log.info('added a tool');
    return 'added';
  }

  @McpTool({ name: 'wait_for_abort', description: 'Runs until aborted, then says why on stderr' })
  async waitForAbort(_args: object, ctx: McpContext): Promise<string> {
    console.error(`wait_for_abort ${String(ctx.requestId)}: running`);
    const reason = await new Promise<unknown>((resolve) => {
      ctx.signal.addEventListener('abort', () => resolve(ctx.signal.reason), { once: true });
    });
    const kind = reason instanceof McpCallAbortedError ? reason.kind : String(reason);
    console.error(`wait_for_abort ${String(ctx.requestId)}: aborted (${kind})`);
    throw reason;
  }
}

/** A stdio server with the fixture's tools; `MCP_BODY_BYTES` sets `limits.bodyBytes`. */
@Module({})
export class StdioFixtureModule {
  static register(bodyBytes = 4096): DynamicModule {
    return {
      module: StdioFixtureModule,
      imports: [
        McpModule.forRoot({
          name: 'stdio-fixture',
          version: '1.0.0',
          transport: 'stdio',
          limits: { bodyBytes },
          stdio: { user: { sub: 'local-user', scope: 'notes:read' } },
        }),
      ],
      providers: [ChattyStartup, StdioFixtureTools],
    };
  }
}
