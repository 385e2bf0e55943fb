import 'reflect-metadata';
import { IsInt, IsOptional, IsString, Max, MinLength } from 'class-validator';
import type { Subscription } from 'rxjs';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { Invocation } from '../execution/invocation.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import { NO_ARGUMENTS_SCHEMA } from '../schemas/dto-json-schema.js';
import type { RegisteredTool } from '../tools/registered-tool.interface.js';
import { ToolStore } from '../tools/tool.store.js';
import { Schemas } from '../schemas/schemas.js';
import { McpToolRegistry, type McpToolHandler } from './tool.registry.js';
import { nextTurn } from '../../test/utils/wait.js';

/** A registry over a fresh store, and the store, as the module wires them. */
function tools(): { registry: McpToolRegistry; store: ToolStore } {
  const store = new ToolStore(new Schemas());
  return { registry: new McpToolRegistry(store), store };
}

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
    guarded: false,
    canActivate: () => Promise.resolve(true),
    execute: () => Promise.resolve(name),
    reportsErrors: false,
  };
  return {
    definition: { name, description: `${name} tool`, inputSchema: NO_ARGUMENTS_SCHEMA },
    owner,
    checkArguments: (raw) => Promise.resolve({ ok: true, value: raw }),
    paramHeaders: [],
    target: () => target,
  };
}

/** The names `tools/list` would serve, every tool visible, on one page. */
async function served(store: ToolStore): Promise<string[]> {
  const { page, nextCursor } = await store.page(undefined, 1_000, () => true);
  expect(nextCursor).toBeUndefined();
  return page.map((entry) => entry.definition.name);
}

/**
 * Runs a registered tool's handler the way the call lifecycle does, past its pipeline. A runtime tool's
 * pipeline is empty: it reads only the arguments and the context of the invocation.
 */
async function runHandler(registered: RegisteredTool, args: object, context: McpContext): Promise<unknown> {
  const target = await registered.target({ url: '/mcp' });
  const invocation = { phase: 'call', name: registered.definition.name, arguments: args, context };
  return target.execute([{ url: '/mcp' }, undefined, undefined, invocation as unknown as Invocation]);
}

describe('McpToolRegistry', () => {
  it('registers tools and finds them by name', () => {
    const { registry, store } = tools();
    const echo = tool('echo', 'EchoTools.echo');
    store.add(echo);
    store.add(tool('weather', 'WeatherTools.weather'));
    expect(registry.size).toBe(2);
    expect(store.get('echo')).toBe(echo);
    expect(store.get('missing')).toBeUndefined();
  });

  it('refuses a duplicate name with a message naming both owners, and keeps the first', () => {
    const { registry, store } = tools();
    const first = tool('echo', 'EchoTools.echo');
    store.add(first);
    let error: unknown;
    try {
      store.add(tool('echo', 'OtherTools.say'));
    } catch (caught) {
      error = caught;
    }
    expect(error).toBeInstanceOf(McpDefinitionError);
    const message = (error as Error).message;
    expect(message).toContain('"echo"');
    expect(message).toContain('EchoTools.echo');
    expect(message).toContain('OtherTools.say');
    expect(store.get('echo')).toBe(first);
    expect(registry.size).toBe(1);
  });

  it('treats names as case-sensitive', () => {
    const { registry, store } = tools();
    store.add(tool('echo', 'A.echo'));
    expect(() => store.add(tool('Echo', 'B.Echo'))).not.toThrow();
    expect(registry.size).toBe(2);
  });

  it('serves the tools in registration order, as the registered objects', async () => {
    const { store } = tools();
    expect(await served(store)).toEqual([]);
    store.add(tool('b', 'T.b'));
    store.add(tool('a', 'T.a'));
    expect(await served(store)).toEqual(['b', 'a']);
    const { page } = await store.page(undefined, 10, () => true);
    expect(page[0]).toBe(store.get('b'));
  });

  it('serves a tool registered after a page was built on the next page', async () => {
    const { store } = tools();
    store.add(tool('echo', 'T.echo'));
    expect(await served(store)).toEqual(['echo']);
    store.add(tool('weather', 'T.weather'));
    expect(await served(store)).toEqual(['echo', 'weather']);
  });

  it('pages with a cursor and leaves out the tools the caller may not see', async () => {
    const { store } = tools();
    for (const name of ['a', 'b', 'c', 'd']) store.add(tool(name, `T.${name}`));
    const first = await store.page(undefined, 2, (entry) => entry.definition.name !== 'b');
    expect(first.page.map((entry) => entry.definition.name)).toEqual(['a', 'c']);
    expect(first.nextCursor).toEqual(expect.any(String));
    const second = await store.page(first.nextCursor, 2, (entry) => entry.definition.name !== 'b');
    expect(second.page.map((entry) => entry.definition.name)).toEqual(['d']);
    expect(second.nextCursor).toBeUndefined();
  });

  it('does not change what it serves after a refused duplicate', async () => {
    const { store } = tools();
    const echo = tool('echo', 'T.echo');
    store.add(echo);
    expect(() => store.add(tool('echo', 'U.echo'))).toThrow(McpDefinitionError);
    const { page } = await store.page(undefined, 10, () => true);
    expect(page).toEqual([echo]);
    expect(page[0]).toBe(echo);
  });

  it('keeps the tools of two registries apart', () => {
    const one = tools();
    const two = tools();
    one.store.add(tool('echo', 'A.echo'));
    expect(two.store.get('echo')).toBeUndefined();
    expect(() => two.store.add(tool('echo', 'B.echo'))).not.toThrow();
  });
});

/** Lets queued microtasks (the registry's burst notification) run. */
const microtasks = nextTurn;

describe('McpToolRegistry.add', () => {
  it('adds a tool without arguments, served at once, that runs the handler it was given', async () => {
    const { registry, store } = tools();
    const calls: Array<[object, McpContext]> = [];
    const handler = (args: object, context: McpContext): string => {
      calls.push([args, context]);
      return 'pong';
    };
    registry.add({ name: 'ping_tool', description: 'Answers pong' }, handler);
    const added = store.get('ping_tool')!;
    expect(added.definition).toEqual({
      name: 'ping_tool',
      description: 'Answers pong',
      inputSchema: NO_ARGUMENTS_SCHEMA,
    });
    expect(added.owner).toBe('runtime tool ping_tool');
    expect(added.timeoutMs).toBeUndefined();
    expect(added.checkOutput).toBeUndefined();
    expect(await served(store)).toEqual(['ping_tool']);
    // Without an input, only an empty object passes.
    await expect(Promise.resolve(added.checkArguments({}))).resolves.toEqual({ ok: true, value: {} });
    await expect(Promise.resolve(added.checkArguments({ x: 1 }))).resolves.toMatchObject({ ok: false });
    const context = { name: 'ping_tool' } as McpContext;
    expect(await runHandler(added, {}, context)).toBe('pong');
    expect(calls).toHaveLength(1);
    expect(calls[0]![0]).toEqual({});
    expect(calls[0]![1]).toBe(context);
  });

  it('adds a tool with a DTO: its schema is advertised and the DTO validates the arguments', async () => {
    const { registry, store } = tools();
    registry.add(
      { name: 'search', title: 'Search', description: 'Searches', input: SearchArgs, timeoutMs: 2_000 },
      (args: SearchArgs, _ctx: McpContext) => args.query,
    );
    const added = store.get('search')!;
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
    'refuses the invalid name %p with McpDefinitionError, adding nothing',
    (name) => {
      const { registry } = tools();
      expect(() => registry.add({ name, description: 'Bad' }, () => 'x')).toThrow(McpDefinitionError);
      expect(registry.size).toBe(0);
    },
  );

  it('refuses a missing description, a bad timeout and a handler that is not a function', () => {
    const { registry } = tools();
    expect(() => registry.add({ name: 'a', description: ' ' }, () => 'x')).toThrow(McpDefinitionError);
    expect(() => registry.add({ name: 'a', description: 'A', timeoutMs: 0 }, () => 'x')).toThrow(McpDefinitionError);
    expect(() => registry.add({ name: 'a', description: 'A' }, 'not a function' as unknown as McpToolHandler)).toThrow(
      'McpToolRegistry.add(a): handler must be a function',
    );
    expect(registry.size).toBe(0);
  });

  it('refuses a name already taken, by a discovered or a runtime tool, keeping the first', () => {
    const { registry, store } = tools();
    const discovered = tool('echo', 'EchoTools.echo');
    store.add(discovered);
    expect(() => registry.add({ name: 'echo', description: 'Again' }, () => 'x')).toThrow(
      'by EchoTools.echo and by runtime tool echo',
    );
    registry.add({ name: 'beta', description: 'Beta' }, () => 'b');
    expect(() => registry.add({ name: 'beta', description: 'Beta again' }, () => 'c')).toThrow(McpDefinitionError);
    expect(store.get('echo')).toBe(discovered);
    expect(store.get('beta')!.definition.description).toBe('Beta');
  });
});

describe('McpToolRegistry remove, enable and disable', () => {
  it('removeTool stops serving a tool and says whether there was one', async () => {
    const { registry, store } = tools();
    store.add(tool('a', 'T.a'));
    store.add(tool('b', 'T.b'));
    expect(registry.remove('a')).toBe(true);
    expect(store.get('a')).toBeUndefined();
    expect(registry.has('a')).toBe(false);
    expect(registry.size).toBe(1);
    expect(await served(store)).toEqual(['b']);
    expect(registry.remove('a')).toBe(false);
    expect(registry.remove('never')).toBe(false);
    // The name is free again.
    expect(() => store.add(tool('a', 'U.a'))).not.toThrow();
  });

  it('disableTool hides a tool from get() and page() but keeps it registered; enableTool serves it again', async () => {
    const { registry, store } = tools();
    const a = tool('a', 'T.a');
    store.add(a);
    store.add(tool('b', 'T.b'));
    expect(registry.disable('a')).toBe(true);
    expect(store.get('a')).toBeUndefined();
    expect(registry.has('a')).toBe(true);
    expect(registry.isEnabled('a')).toBe(false);
    expect(registry.isEnabled('b')).toBe(true);
    expect(registry.size).toBe(2);
    expect(await served(store)).toEqual(['b']);
    // A disabled tool still holds its name.
    expect(() => store.add(tool('a', 'U.a'))).toThrow(McpDefinitionError);

    expect(registry.enable('a')).toBe(true);
    expect(store.get('a')).toBe(a);
    expect(registry.isEnabled('a')).toBe(true);
    expect(await served(store)).toEqual(['a', 'b']);
  });

  it('enable and disable say false for an unknown tool, and are idempotent for a known one', () => {
    const { registry, store } = tools();
    expect(registry.disable('x')).toBe(false);
    expect(registry.enable('x')).toBe(false);
    expect(registry.isEnabled('x')).toBe(false);
    store.add(tool('a', 'T.a'));
    expect(registry.enable('a')).toBe(true);
    expect(registry.disable('a')).toBe(true);
    expect(registry.disable('a')).toBe(true);
    expect(registry.isEnabled('a')).toBe(false);
  });

  it('serves the new set right after add, remove, disable and enable (the prepared list is dropped)', async () => {
    const { registry, store } = tools();
    store.add(tool('a', 'T.a'));
    expect(await served(store)).toEqual(['a']);
    const steps: Array<[() => unknown, string[]]> = [
      [() => registry.add({ name: 'b', description: 'B' }, () => 'b'), ['a', 'b']],
      [() => registry.disable('a'), ['b']],
      [() => registry.enable('a'), ['a', 'b']],
      [() => registry.remove('b'), ['a']],
    ];
    for (const [step, expected] of steps) {
      step();
      expect(await served(store)).toEqual(expected);
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
    const { registry } = tools();
    const changes = watch(registry);
    registry.add({ name: 'a', description: 'A' }, () => 'a');
    registry.add({ name: 'b', description: 'B' }, () => 'b');
    registry.disable('a');
    registry.remove('b');
    // Not synchronously: a burst is not over until the current task's code is.
    expect(changes.count()).toBe(0);
    await microtasks();
    expect(changes.count()).toBe(1);

    registry.enable('a');
    await microtasks();
    expect(changes.count()).toBe(2);
    await microtasks();
    expect(changes.count()).toBe(2);
  });

  it('emits for register() too (discovery), once per burst', async () => {
    const { registry, store } = tools();
    const changes = watch(registry);
    store.add(tool('a', 'T.a'));
    store.add(tool('b', 'T.b'));
    await microtasks();
    expect(changes.count()).toBe(1);
  });

  it('emits nothing for calls that change nothing', async () => {
    const { registry, store } = tools();
    store.add(tool('a', 'T.a'));
    await microtasks();
    const changes = watch(registry);
    registry.enable('a');
    registry.remove('missing');
    registry.disable('missing');
    registry.enable('missing');
    expect(() => store.add(tool('a', 'U.a'))).toThrow(McpDefinitionError);
    expect(() => registry.add({ name: 'bad name', description: 'X' }, () => 'x')).toThrow(McpDefinitionError);
    await microtasks();
    expect(changes.count()).toBe(0);
  });

  it('emits once when a tool is disabled, and nothing more when that disabled tool is removed', async () => {
    const { registry, store } = tools();
    store.add(tool('a', 'T.a'));
    store.add(tool('b', 'T.b'));
    await microtasks();
    const changes = watch(registry);
    registry.disable('a');
    await microtasks();
    expect(changes.count()).toBe(1);
    // The served set does not change: `a` was not served already.
    expect(registry.remove('a')).toBe(true);
    await microtasks();
    expect(changes.count()).toBe(1);
    expect(registry.has('a')).toBe(false);
    expect(await served(store)).toEqual(['b']);
  });

  it('keeps the registries of two applications apart', async () => {
    const one = tools();
    const two = tools();
    const changes = watch(two.registry);
    one.registry.add({ name: 'a', description: 'A' }, () => 'a');
    await microtasks();
    expect(changes.count()).toBe(0);
  });
});

describe('McpToolRegistry.get and list', () => {
  it('give the advertised definitions of registered tools, disabled ones included, in registration order', () => {
    const { registry, store } = tools();
    store.add(tool('b', 'B.b'));
    registry.add({ name: 'a', description: 'A' }, () => 'a');
    registry.disable('b');
    expect(registry.get('b')).toBe(store.find('b')!.definition);
    expect(registry.get('a')).toMatchObject({ name: 'a', description: 'A' });
    expect(registry.get('missing')).toBeUndefined();
    expect(registry.list().map((definition) => definition.name)).toEqual(['b', 'a']);
    registry.remove('b');
    expect(registry.get('b')).toBeUndefined();
    expect(registry.list().map((definition) => definition.name)).toEqual(['a']);
  });
});
