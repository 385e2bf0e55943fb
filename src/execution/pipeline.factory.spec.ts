import 'reflect-metadata';
import { Injectable, Module, UseGuards, type CanActivate } from '@nestjs/common';
import { APP_GUARD, ExternalContextCreator } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { McpModule, McpTool } from '../index.js';
import { ToolStore } from '../tools/tool.store.js';

@Injectable()
class Allow implements CanActivate {
  canActivate(): boolean {
    return true;
  }
}

@Injectable()
class OpenTools {
  @McpTool({ description: 'Open' })
  open(): string {
    return 'open';
  }

  @UseGuards(Allow)
  @McpTool({ description: 'Guarded on the method' })
  onMethod(): string {
    return 'method';
  }
}

@UseGuards(Allow)
@Injectable()
class GuardedTools {
  @McpTool({ description: 'Guarded on the class' })
  onClass(): string {
    return 'class';
  }
}

/** Whether each tool's pipeline runs any guard, as the lifecycle sees it. */
async function guardedTools(extra: { globalGuard?: 'provider' | 'app' } = {}): Promise<Record<string, boolean>> {
  @Module({
    imports: [McpModule.forRoot({ name: 'guards', version: '1.0.0' })],
    providers: [
      Allow,
      OpenTools,
      GuardedTools,
      ...(extra.globalGuard === 'provider' ? [{ provide: APP_GUARD, useClass: Allow }] : []),
    ],
  })
  class AppModule {}
  const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
  const app = moduleRef.createNestApplication({ logger: false });
  if (extra.globalGuard === 'app') app.useGlobalGuards(new Allow());
  await app.init();
  try {
    const store = app.get(ToolStore);
    const guarded: Record<string, boolean> = {};
    for (const tool of store.servedItems()) guarded[tool.definition.name] = (await tool.target({})).guarded;
    return guarded;
  } finally {
    await app.close();
  }
}

// PipelineFactory reads how many guards Nest's guards context creator gives a pipeline (Nest
// keeps it to itself): these tests break if Nest changes where it keeps them.
describe('PipelineFactory: whether a pipeline runs guards', () => {
  it('tells a method with no guard anywhere from those guarded on the method or the class', async () => {
    expect(await guardedTools()).toEqual({ open: false, onMethod: true, onClass: true });
  });

  it('counts global guards, from APP_GUARD providers and from app.useGlobalGuards()', async () => {
    expect(await guardedTools({ globalGuard: 'provider' })).toEqual({ open: true, onMethod: true, onClass: true });
    expect(await guardedTools({ globalGuard: 'app' })).toEqual({ open: true, onMethod: true, onClass: true });
  });
});

// Nest 11 caches handler metadata by class and method name only; each context creator of ours keeps
// its own cache in Nest's `handlerMetadataStorage` field, and these tests break if Nest renames it.
describe('PipelineFactory: handler metadata of its own', () => {
  it("finds Nest's handlerMetadataStorage where it replaces it, with get and set", () => {
    const creator = new ExternalContextCreator(
      ...([
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
        undefined,
      ] as unknown as ConstructorParameters<typeof ExternalContextCreator>),
    ) as unknown as { handlerMetadataStorage?: { get?: unknown; set?: unknown } };
    expect(typeof creator.handlerMetadataStorage?.get).toBe('function');
    expect(typeof creator.handlerMetadataStorage?.set).toBe('function');
  });

  it("gives a tool its arguments although its guard-only pipeline was built first (Nest 11's shared cache)", async () => {
    @Injectable()
    class EchoTools {
      @UseGuards(Allow)
      @McpTool({ description: 'Echo', input: { type: 'object', properties: { text: { type: 'string' } } } })
      echo({ text }: { text: string }): string {
        return `echo:${text}`;
      }
    }
    @Module({ imports: [McpModule.forRoot({ name: 'args', version: '1.0.0' })], providers: [Allow, EchoTools] })
    class AppModule {}
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    try {
      const tool = app.get(ToolStore).get('echo')!;
      const target = await tool.target({});
      const invocation = { phase: 'call', kind: 'tool', name: 'echo', arguments: { text: 'hi' } };
      expect(await target.canActivate([{}, undefined, undefined, invocation] as never)).toBe(true);
      expect(await target.execute([{}, undefined, undefined, invocation] as never)).toBe('echo:hi');
    } finally {
      await app.close();
    }
  });
});
