import 'reflect-metadata';
import { Injectable, Module, UseGuards, type CanActivate } from '@nestjs/common';
import { APP_GUARD } from '@nestjs/core';
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

// McpPipelineFactory reads how many guards Nest's guards context creator gives a pipeline (Nest
// keeps it to itself): these tests break if Nest changes where it keeps them.
describe('McpPipelineFactory: whether a pipeline runs guards', () => {
  it('tells a method with no guard anywhere from those guarded on the method or the class', async () => {
    expect(await guardedTools()).toEqual({ open: false, onMethod: true, onClass: true });
  });

  it('counts global guards, from APP_GUARD providers and from app.useGlobalGuards()', async () => {
    expect(await guardedTools({ globalGuard: 'provider' })).toEqual({ open: true, onMethod: true, onClass: true });
    expect(await guardedTools({ globalGuard: 'app' })).toEqual({ open: true, onMethod: true, onClass: true });
  });
});
