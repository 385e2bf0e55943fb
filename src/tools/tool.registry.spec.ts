import 'reflect-metadata';
import { IsInt, IsOptional, IsString, Max, MinLength } from 'class-validator';
import type { Subscription } from 'rxjs';
import { McpToolDefinitionError } from '../errors/mcp-tool-definition.error.js';
import type { McpInvocation } from '../execution/mcp-invocation.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import { NO_ARGUMENTS_SCHEMA } from '../schemas/dto-json-schema.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import { McpToolRegistry, type McpToolHandler } from './tool.registry.js';

class SearchArgs {
  @IsString()
  @MinLength(1)
  query!: string;

  @IsOptional()
  @IsInt()
  @Max(50)
  limit?: number;
}

function tool(name: string, owner: string): RegisteredTool {
  const target: PipelineTarget = {
    canActivate: () => Promise.resolve(true),
    execute: () => Promise.resolve(name),
    reportsErrors: false,
  };
  return {
    definition: { name, description: `${name} tool`, inputSchema: NO_ARGUMENTS_SCHEMA },
    owner,
    checkArguments: (raw) => Promise.resolve({ ok: true, value: raw }),
    target: () => target,
  };
}

/** The names `tools/list` would serve, every tool visible, on one page. */
async function served(registry: McpToolRegistry): Promise<string[]> {
  const { page, nextCursor } = await registry.page(undefined, 1_000, () => true);
  expect(nextCursor).toBeUndefined();
  return page.map((entry) => entry.definition.name);
}

/**
 * Runs a registered tool's handler the way the invoker does, past its pipeline. A runtime tool's
 * pipeline is empty: it reads only the arguments and the context of the invocation.
 */
async function runHandler(registered: RegisteredTool, args: object, context: McpContext): Promise<unknown> {
  const target = await registered.target({ url: '/mcp' });
  const invocation = { phase: 'call', name: registered.definition.name, arguments: args, context };
  return target.execute([{ url: '/mcp' }, undefined, undefined, invocation as unknown as McpInvocation]);
}

describe('McpToolRegistry', () => {
  it('registers tools and finds them by name', () => {
    const registry = new McpToolRegistry();
    const echo = tool('echo', 'EchoTools.echo');
    registry.register(echo);
    registry.register(tool('weather', 'WeatherTools.weather'));
    expect(registry.size).toBe(2);
    expect(registry.get('echo')).toBe(echo);
    expect(registry.get('missing')).toBeUndefined();
  });

  it('refuses a duplicate name with a message naming both owners, and keeps the first', () => {
    const registry = new McpToolRegistry();
    const first = tool('echo', 'EchoTools.echo');
    registry.register(first);
    let error: unknown;
    try {
      registry.register(tool('echo', 'OtherTools.say'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(McpToolDefinitionError);
    const message = (error as Error).message;
    expect(message).toContain('"echo"');
    expect(message).toContain('EchoTools.echo');
    expect(message).toContain('OtherTools.say');
    expect(registry.get('echo')).toBe(first);
    expect(registry.size).toBe(1);
  });

  it('treats names as case-sensitive', () => {
    const registry = new McpToolRegistry();
    registry.register(tool('echo', 'A.echo'));
    expect(() => registry.register(tool('Echo', 'B.Echo'))).not.toThrow();
    expect(registry.size).toBe(2);
  });

  it('serves the tools in registration order, as the registered objects', async () => {
    const registry = new McpToolRegistry();
    expect(await served(registry)).toEqual([]);
    registry.register(tool('b', 'T.b'));
    registry.register(tool('a', 'T.a'));
    expect(await served(registry)).toEqual(['b', 'a']);
    const { page } = await registry.page(undefined, 10, () => true);
    expect(page[0]).toBe(registry.get('b'));
  });

  it('serves a tool registered after a page was built on the next page', async () => {
    const registry = new McpToolRegistry();
    registry.register(tool('echo', 'T.echo'));
    expect(await served(registry)).toEqual(['echo']);
    registry.register(tool('weather', 'T.weather'));
    expect(await served(registry)).toEqual(['echo', 'weather']);
  });

  it('pages with a cursor and leaves out the tools the caller may not see', async () => {
    const registry = new McpToolRegistry();
    for (const name of ['a', 'b', 'c', 'd']) registry.register(tool(name, `T.${name}`));
    const first = await registry.page(undefined, 2, (entry) => entry.definition.name !== 'b');
    expect(first.page.map((entry) => entry.definition.name)).toEqual(['a', 'c']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await registry.page(first.nextCursor, 2, (entry) => entry.definition.name !== 'b');
    expect(second.page.map((entry) => entry.definition.name)).toEqual(['d']);
    expect(second.nextCursor).toBeUndefined();
  });

  it('does not change what it serves after a refused duplicate', async () => {
    const registry = new McpToolRegistry();
    const echo = tool('echo', 'T.echo');
    registry.register(echo);
    expect(() => registry.register(tool('echo', 'U.echo'))).toThrow(McpToolDefinitionError);
    const { page } = await registry.page(undefined, 10, () => true);
    expect(page).toEqual([echo]);
    expect(page[0]).toBe(echo);
  });

  it('keeps the tools of two registries apart', () => {
    const one = new McpToolRegistry();
    const two = new McpToolRegistry();
    one.register(tool('echo', 'A.echo'));
    expect(two.get('echo')).toBeUndefined();
    expect(() => two.register(tool('echo', 'B.echo'))).not.toThrow();
  });
});

/** Lets queued microtasks (the registry's burst notification) run. */
const microtasks = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

describe('McpToolRegistry.addTool', () => {
  it('adds a tool without arguments, served at once, that runs the handler it was given', async () => {
    const registry = new McpToolRegistry();
    const calls: Array<[object, McpContext]> = [];
    const handler = (args: object, context: McpContext): string => {
      calls.push([args, context]);
      return 'pong';
    };
    registry.addTool({ name: 'ping_tool', description: 'Answers pong' }, handler);
    const added = registry.get('ping_tool')!;
    expect(added.definition).toEqual({
      name: 'ping_tool',
      description: 'Answers pong',
      inputSchema: NO_ARGUMENTS_SCHEMA,
    });
    expect(added.owner).toBe('runtime tool ping_tool');
    expect(added.timeoutMs).toBeUndefined();
    expect(added.checkOutput).toBeUndefined();
    expect(await served(registry)).toEqual(['ping_tool']);
    // Without an input, only an empty object passes.
    await expect(added.checkArguments({})).resolves.toEqual({ ok: true, value: {} });
    await expect(added.checkArguments({ x: 1 })).resolves.toMatchObject({ ok: false });
    const context = { toolName: 'ping_tool' } as McpContext;
    expect(await runHandler(added, {}, context)).toBe('pong');
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toEqual({});
    expect(calls[0]![1]).toBe(context);
  });

  it('adds a tool with a DTO: its schema is advertised and the DTO validates the arguments', async () => {
    const registry = new McpToolRegistry();
    registry.addTool(
      { name: 'search', title: 'Search', description: 'Searches', input: SearchArgs, timeoutMs: 2_000 },
      (args: SearchArgs, _ctx: McpContext) => args.query,
    );
    const added = registry.get('search')!;
    expect(added.timeoutMs).toBe(2_000);
    // The DTO validates (and transforms) the arguments.
    const good = await added.checkArguments({ query: 'mcp', limit: 5 });
    expect(good.ok).toBe(true);
    expect(good.ok && good.value).toBeInstanceOf(SearchArgs);
    const bad = await added.checkArguments({ query: '', limit: 500 });
    expect(bad.ok).toBe(false);
    expect(bad.ok ? [] : bad.problems.join('\n')).toMatch(/query/);
    expect(bad.ok ? [] : bad.problems.join('\n')).toMatch(/limit/);
    expect(await runHandler(added, Object.assign(new SearchArgs(), { query: 'q1' }), {} as McpContext)).toBe('q1');
    expect(added.definition.title).toBe('Search');
    expect(added.definition.inputSchema).toMatchObject({
      type: 'object',
      properties: { query: { type: 'string', minLength: 1 }, limit: { type: 'integer', maximum: 50 } },
      required: ['query'],
    });
    expect(Object.isFrozen(added.definition)).toBe(true);
  });

  it.each(['', 'has space', 'slash/name', 'x'.repeat(129), 'emoji☀'])(
    'refuses the invalid name %p with McpToolDefinitionError, adding nothing',
    (name) => {
      const registry = new McpToolRegistry();
      expect(() => registry.addTool({ name, description: 'Bad' }, () => 'x')).toThrow(McpToolDefinitionError);
      expect(registry.size).toBe(0);
    },
  );

  it('refuses a missing description, a bad timeout and a handler that is not a function', () => {
    const registry = new McpToolRegistry();
    expect(() => registry.addTool({ name: 'a', description: ' ' }, () => 'x')).toThrow(McpToolDefinitionError);
    expect(() => registry.addTool({ name: 'a', description: 'A', timeoutMs: 0 }, () => 'x')).toThrow(
      McpToolDefinitionError,
    );
    expect(() =>
      registry.addTool({ name: 'a', description: 'A' }, 'not a function' as unknown as McpToolHandler),
    ).toThrow('addTool(a): handler must be a function');
    expect(registry.size).toBe(0);
  });

  it('refuses a name already taken, by a discovered or a runtime tool, keeping the first', () => {
    const registry = new McpToolRegistry();
    const discovered = tool('echo', 'EchoTools.echo');
    registry.register(discovered);
    expect(() => registry.addTool({ name: 'echo', description: 'Again' }, () => 'x')).toThrow(
      'by EchoTools.echo and by runtime tool echo',
    );
    registry.addTool({ name: 'beta', description: 'Beta' }, () => 'b');
    expect(() => registry.addTool({ name: 'beta', description: 'Beta again' }, () => 'c')).toThrow(
      McpToolDefinitionError,
    );
    expect(registry.get('echo')).toBe(discovered);
    expect(registry.get('beta')!.definition.description).toBe('Beta');
  });
});

describe('McpToolRegistry remove, enable and disable', () => {
  it('removeTool stops serving a tool and says whether there was one', async () => {
    const registry = new McpToolRegistry();
    registry.register(tool('a', 'T.a'));
    registry.register(tool('b', 'T.b'));
    expect(registry.removeTool('a')).toBe(true);
    expect(registry.get('a')).toBeUndefined();
    expect(registry.has('a')).toBe(false);
    expect(registry.size).toBe(1);
    expect(await served(registry)).toEqual(['b']);
    expect(registry.removeTool('a')).toBe(false);
    expect(registry.removeTool('never')).toBe(false);
    // The name is free again.
    expect(() => registry.register(tool('a', 'U.a'))).not.toThrow();
  });

  it('disableTool hides a tool from get() and page() but keeps it registered; enableTool serves it again', async () => {
    const registry = new McpToolRegistry();
    const a = tool('a', 'T.a');
    registry.register(a);
    registry.register(tool('b', 'T.b'));
    expect(registry.disableTool('a')).toBe(true);
    expect(registry.get('a')).toBeUndefined();
    expect(registry.has('a')).toBe(true);
    expect(registry.isEnabled('a')).toBe(false);
    expect(registry.isEnabled('b')).toBe(true);
    expect(registry.size).toBe(2);
    expect(await served(registry)).toEqual(['b']);
    // A disabled tool still holds its name.
    expect(() => registry.register(tool('a', 'U.a'))).toThrow(McpToolDefinitionError);

    expect(registry.enableTool('a')).toBe(true);
    expect(registry.get('a')).toBe(a);
    expect(registry.isEnabled('a')).toBe(true);
    expect(await served(registry)).toEqual(['a', 'b']);
  });

  it('enable and disable say false for an unknown tool, and are idempotent for a known one', () => {
    const registry = new McpToolRegistry();
    expect(registry.disableTool('x')).toBe(false);
    expect(registry.enableTool('x')).toBe(false);
    expect(registry.isEnabled('x')).toBe(false);
    registry.register(tool('a', 'T.a'));
    expect(registry.enableTool('a')).toBe(true);
    expect(registry.disableTool('a')).toBe(true);
    expect(registry.disableTool('a')).toBe(true);
    expect(registry.isEnabled('a')).toBe(false);
  });

  it('serves the new set right after add, remove, disable and enable (the prepared list is dropped)', async () => {
    const registry = new McpToolRegistry();
    registry.register(tool('a', 'T.a'));
    expect(await served(registry)).toEqual(['a']);
    const steps: Array<[() => unknown, string[]]> = [
      [() => registry.addTool({ name: 'b', description: 'B' }, () => 'b'), ['a', 'b']],
      [() => registry.disableTool('a'), ['b']],
      [() => registry.enableTool('a'), ['a', 'b']],
      [() => registry.removeTool('b'), ['a']],
    ];
    for (const [step, expected] of steps) {
      step();
      expect(await served(registry)).toEqual(expected);
    }
  });
});

describe('McpToolRegistry.changes', () => {
  let subscription: Subscription | undefined;

  afterEach(() => {
    subscription?.unsubscribe();
    subscription = undefined;
  });

  function watch(registry: McpToolRegistry): { count: () => number } {
    let emitted = 0;
    subscription = registry.changes.subscribe(() => emitted++);
    return { count: () => emitted };
  }

  it('emits once for a burst of changes, after the burst, and again for a later burst', async () => {
    const registry = new McpToolRegistry();
    const changes = watch(registry);
    registry.addTool({ name: 'a', description: 'A' }, () => 'a');
    registry.addTool({ name: 'b', description: 'B' }, () => 'b');
    registry.disableTool('a');
    registry.removeTool('b');
    // Not synchronously: a burst is not over until the current task's code is.
    expect(changes.count()).toBe(0);
    await microtasks();
    expect(changes.count()).toBe(1);

    registry.enableTool('a');
    await microtasks();
    expect(changes.count()).toBe(2);
    await microtasks();
    expect(changes.count()).toBe(2);
  });

  it('emits for register() too (discovery), once per burst', async () => {
    const registry = new McpToolRegistry();
    const changes = watch(registry);
    registry.register(tool('a', 'T.a'));
    registry.register(tool('b', 'T.b'));
    await microtasks();
    expect(changes.count()).toBe(1);
  });

  it('emits nothing for calls that change nothing', async () => {
    const registry = new McpToolRegistry();
    registry.register(tool('a', 'T.a'));
    await microtasks();
    const changes = watch(registry);
    registry.enableTool('a');
    registry.removeTool('missing');
    registry.disableTool('missing');
    registry.enableTool('missing');
    expect(() => registry.register(tool('a', 'U.a'))).toThrow(McpToolDefinitionError);
    expect(() => registry.addTool({ name: 'bad name', description: 'X' }, () => 'x')).toThrow(McpToolDefinitionError);
    await microtasks();
    expect(changes.count()).toBe(0);
  });

  it('emits once when a tool is disabled, and nothing more when that disabled tool is removed', async () => {
    const registry = new McpToolRegistry();
    registry.register(tool('a', 'T.a'));
    registry.register(tool('b', 'T.b'));
    await microtasks();
    const changes = watch(registry);
    registry.disableTool('a');
    await microtasks();
    expect(changes.count()).toBe(1);
    // The served set does not change: `a` was not served already.
    expect(registry.removeTool('a')).toBe(true);
    await microtasks();
    expect(changes.count()).toBe(1);
    expect(registry.has('a')).toBe(false);
    expect(await served(registry)).toEqual(['b']);
  });

  it('keeps the registries of two applications apart', async () => {
    const one = new McpToolRegistry();
    const two = new McpToolRegistry();
    const changes = watch(two);
    one.addTool({ name: 'a', description: 'A' }, () => 'a');
    await microtasks();
    expect(changes.count()).toBe(0);
  });
});
