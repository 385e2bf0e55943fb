import 'reflect-metadata';
import {
  createParamDecorator,
  Injectable,
  Module,
  UseGuards,
  UseInterceptors,
  UsePipes,
  type CallHandler,
  type CanActivate,
  type NestInterceptor,
  type PipeTransform,
} from '@nestjs/common';
import { map, of, type Observable } from 'rxjs';
import { APP_GUARD, ExternalContextCreator } from '@nestjs/core';
import { Test } from '@nestjs/testing';
import { McpArgs, McpModule, McpTool } from '../index.js';
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

/** Nest's context creator with none of its collaborators: enough to see which members it has. */
function bareContextCreator(): ExternalContextCreator {
  return new ExternalContextCreator(
    ...(Array.from({ length: 7 }) as unknown as ConstructorParameters<typeof ExternalContextCreator>),
  );
}

// Nest 11 caches handler metadata by class and method name only; each context creator of ours keeps
// its own cache in Nest's `handlerMetadataStorage` field, and these tests break if Nest renames it.
describe('PipelineFactory: handler metadata of its own', () => {
  it("finds Nest's handlerMetadataStorage where it replaces it, with get and set", () => {
    const creator = bareContextCreator() as unknown as { handlerMetadataStorage?: { get?: unknown; set?: unknown } };
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

// Steps of a pipeline with nothing to run are answered without promises of their own (see
// `withEmptyStepsSkipped`): these tests break if Nest renames what is replaced, and pin that the
// handler gets and gives what Nest's own steps would.
describe('PipelineFactory: steps with nothing to run', () => {
  it("finds Nest's interceptorsConsumer, createPipesFn and transformToResult where it replaces them", () => {
    const creator = bareContextCreator() as unknown as Record<string, unknown>;
    expect(Object.hasOwn(creator, 'interceptorsConsumer')).toBe(true);
    expect(typeof creator.createPipesFn).toBe('function');
    expect(typeof creator.transformToResult).toBe('function');
  });

  const extracted: string[] = [];
  const Later = createParamDecorator((data: string) => {
    extracted.push(data);
    return Promise.resolve(`later:${data}`);
  });
  const Broken = createParamDecorator((data: string) => {
    extracted.push(data);
    throw new Error('cannot extract');
  });

  class Upper implements PipeTransform {
    transform(value: unknown): unknown {
      return typeof value === 'string' ? value.toUpperCase() : value;
    }
  }

  class Suffix implements NestInterceptor {
    intercept(_: unknown, next: CallHandler): Observable<unknown> {
      return next.handle().pipe(map((value) => `${String(value)}!`));
    }
  }

  @Injectable()
  class StepTools {
    @McpTool({ description: 'A parameter whose decorator answers with a promise' })
    awaited(@McpArgs() args: object, @Later('a') later: string): string {
      return `${Object.keys(args).length}:${later}`;
    }

    @McpTool({ description: 'A parameter that cannot be extracted' })
    broken(@Broken('x') broken: string, @Later('y') later: string): string {
      return `${broken}${later}`;
    }

    @McpTool({ description: 'An observable result' })
    observed(): Observable<string> {
      return of('first', 'last');
    }

    @UsePipes(Upper)
    @UseInterceptors(Suffix)
    @McpTool({ description: 'A pipe and an interceptor' })
    piped(@Later('p') later: string): string {
      return later;
    }
  }

  async function withTools<T>(run: (execute: (name: string) => Promise<unknown>) => Promise<T>): Promise<T> {
    @Module({ imports: [McpModule.forRoot({ name: 'steps', version: '1.0.0' })], providers: [StepTools] })
    class AppModule {}
    const moduleRef = await Test.createTestingModule({ imports: [AppModule] }).compile();
    const app = moduleRef.createNestApplication({ logger: false });
    await app.init();
    try {
      return await run(async (name) => {
        const target = await app.get(ToolStore).get(name)!.target({});
        const invocation = { phase: 'call', kind: 'tool', name, arguments: {} };
        return target.execute([{}, undefined, undefined, invocation] as never);
      });
    } finally {
      await app.close();
    }
  }

  it('gives a parameter the value its decorator promised', async () => {
    await withTools(async (execute) => {
      expect(await execute('awaited')).toBe('0:later:a');
    });
  });

  it('fails the call when a parameter cannot be extracted, the others extracted all the same, as Nest does', async () => {
    extracted.length = 0;
    await withTools(async (execute) => {
      await expect(execute('broken')).rejects.toThrow('cannot extract');
      expect([...extracted].sort()).toEqual(['x', 'y']);
    });
  });

  it("answers an observable's last value", async () => {
    await withTools(async (execute) => {
      expect(await execute('observed')).toBe('last');
    });
  });

  it('still runs pipes and interceptors where there are some', async () => {
    await withTools(async (execute) => {
      expect(await execute('piped')).toBe('LATER:P!');
    });
  });
});
