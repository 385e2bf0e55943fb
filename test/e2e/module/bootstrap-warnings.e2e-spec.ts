/**
 * Misconfigurations that would fail silently are told at bootstrap, each naming its fix: a DTO
 * without class-validator decorators, a module that serves nothing, a list cached `public` although
 * guards filter it. (Several servers that cannot all work fail bootstrap: servers.e2e-spec.ts.)
 */
import { Controller, Get, Injectable, UseGuards, type CanActivate, type OnModuleInit } from '@nestjs/common';
import { IsString } from 'class-validator';
import { McpModule, McpRoute, McpTool, McpToolRegistry } from '../../../src/index.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';

/** A DTO someone forgot to decorate: its schema allows no property. */
class BareArgs {
  city!: string;
}

class CityArgs {
  @IsString()
  city!: string;
}

@Injectable()
class BareTools {
  @McpTool({ description: 'Forecast', input: BareArgs })
  forecast(): string {
    return 'sunny';
  }
}

@Injectable()
class DecoratedTools {
  @McpTool({ description: 'Forecast', input: CityArgs })
  forecast(): string {
    return 'sunny';
  }
}

/** Items only added at run time, from a provider's onModuleInit. */
@Injectable()
class RuntimeTools implements OnModuleInit {
  constructor(private readonly tools: McpToolRegistry) {}

  onModuleInit(): void {
    this.tools.add({ name: 'ping', description: 'Ping' }, () => 'pong');
  }
}

class DenyGuard implements CanActivate {
  canActivate(): boolean {
    return false;
  }
}

@Injectable()
class GuardedTools {
  @McpTool({ description: 'Forecast for admins' })
  @UseGuards(DenyGuard)
  forecast(): string {
    return 'sunny';
  }
}

@Controller('reports')
@UseGuards(DenyGuard)
class GuardedRoutes {
  @McpRoute({ name: 'report', description: 'A report for admins' })
  @Get()
  report(): string {
    return 'report';
  }
}

const forRoot = (name: string, path?: string) =>
  McpModule.forRoot({ name, version: '1.0.0', ...(path === undefined ? {} : { path }) });

describe('warnings at bootstrap', () => {
  let running: RunningApp | undefined;

  afterEach(async () => {
    await running?.close();
    running = undefined;
  });

  async function warningsOf(metadata: Parameters<typeof startApp>[0]): Promise<string[]> {
    const logger = new RecordingLogger();
    running = await startApp(metadata, { logger });
    return logger.at('warn');
  }

  it('names a DTO without class-validator decorators, the tool using it and the fix', async () => {
    const warnings = await warningsOf({ imports: [forRoot('bare')], providers: [BareTools] });
    expect(warnings).toEqual([
      expect.stringMatching(
        /^@McpTool\(\) on BareTools\.forecast \(input\): BareArgs has no class-validator decorators, .*every argument is refused .*Decorate its properties/,
      ),
    ]);
  });

  it('says nothing about a decorated DTO', async () => {
    expect(await warningsOf({ imports: [forRoot('decorated')], providers: [DecoratedTools] })).toEqual([]);
  });

  it('tells a module that serves nothing where decorated methods must be', async () => {
    const warnings = await warningsOf({ imports: [forRoot('empty')] });
    expect(warnings).toEqual([
      expect.stringMatching(/^McpModule serves no tools, resources, resource templates or prompts: .*`providers`/),
    ]);
  });

  it('counts items added at run time while modules initialise', async () => {
    expect(await warningsOf({ imports: [forRoot('runtime')], providers: [RuntimeTools] })).toEqual([]);
  });

  it('says, in production only, that sealed state needs a state.secret shared by every instance', async () => {
    const before = process.env.NODE_ENV;
    process.env.NODE_ENV = 'production';
    try {
      expect(await warningsOf({ imports: [forRoot('prod')], providers: [DecoratedTools] })).toEqual([
        expect.stringMatching(
          /^No state\.secret is set \(NODE_ENV is production\): a client whose next request .* another instance, .*set the same state\.secret on every instance \| McpModule$/,
        ),
      ]);
    } finally {
      process.env.NODE_ENV = before;
    }
  });

  it("names the endpoint in Nest's route log once or twice, not once per method", async () => {
    const logger = new RecordingLogger();
    running = await startApp({ imports: [forRoot('routes')], providers: [DecoratedTools] }, { logger });
    const mentions = logger.entries.filter((entry) => entry.text.includes('/mcp'));
    expect(mentions.map((entry) => entry.text)).toEqual([
      expect.stringMatching(/\{\/mcp\}/),
      expect.stringMatching(/\{\/mcp, ALL\} route/),
    ]);
  });

  it("warns when a list guards filter is cached 'public', naming the item; not when it is private", async () => {
    const publicTools = McpModule.forRoot({ name: 'cached', version: '1.0.0', cache: { tools: { scope: 'public' } } });
    expect(await warningsOf({ imports: [publicTools], providers: [GuardedTools] })).toEqual([
      expect.stringMatching(/^options\.cache\.tools\.scope is 'public', but GuardedTools\.forecast has guards/),
    ]);
    await running!.close();

    expect(await warningsOf({ imports: [publicTools], providers: [DecoratedTools] })).toEqual([]);
    await running!.close();

    expect(await warningsOf({ imports: [publicTools], controllers: [GuardedRoutes] })).toEqual([
      expect.stringMatching(/^options\.cache\.tools\.scope is 'public', but GuardedRoutes\.report has guards/),
    ]);
    await running!.close();

    const privateTools = McpModule.forRoot({ name: 'private', version: '1.0.0', cache: { tools: { ttlMs: 60_000 } } });
    expect(await warningsOf({ imports: [privateTools], providers: [GuardedTools] })).toEqual([]);
  });
});
