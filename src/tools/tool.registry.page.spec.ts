import 'reflect-metadata';
import { jest } from '@jest/globals';
import { IsString } from 'class-validator';
import { McpToolDefinitionError } from '../errors/mcp-tool-definition.error.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { ErrorCode, JsonRpcError } from '../protocol/json-rpc.errors.js';
import { PagedList, type Page } from '../protocol/pagination.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import { McpToolRegistry } from './tool.registry.js';

class CityArgs {
  @IsString()
  city!: string;
}

const target: PipelineTarget = {
  canActivate: () => Promise.resolve(true),
  execute: () => Promise.resolve('done'),
  reportsErrors: true,
};
const targetOf = (): PipelineTarget => target;

const everyone = (): boolean => true;
const names = (page: Page<RegisteredTool>): string[] => page.page.map((tool) => tool.definition.name);

/** A registry holding tools `t0`…`t<count-1>`, defined as discovery does. */
function registryWith(count: number): McpToolRegistry {
  const registry = new McpToolRegistry();
  for (let index = 0; index < count; index++) {
    registry.define({ description: `Tool ${index}` }, `t${index}`, `Tools.t${index}`, targetOf);
  }
  return registry;
}

async function allPages(
  registry: McpToolRegistry,
  pageSize: number,
  visible: (tool: RegisteredTool) => boolean | Promise<boolean> = everyone,
): Promise<string[]> {
  const served: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await registry.page(cursor, pageSize, visible);
    served.push(...names(page));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return served;
}

/** The error `fn` throws, failing the test when it throws nothing. */
function thrown(fn: () => unknown): Error {
  try {
    fn();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

afterEach(() => {
  jest.restoreAllMocks();
});

describe('McpToolRegistry.define', () => {
  it('prepares a tool from its options and registers it under its name', async () => {
    const registry = new McpToolRegistry();
    const tool = registry.define(
      { name: 'weather.forecast', description: 'Forecast', input: CityArgs, timeoutMs: 500 },
      'forecast',
      'WeatherTools.forecast',
      targetOf,
    );
    expect(registry.get('weather.forecast')).toBe(tool);
    expect(registry.get('forecast')).toBeUndefined();
    expect(tool.owner).toBe('WeatherTools.forecast');
    expect(tool.timeoutMs).toBe(500);
    expect(tool.target).toBe(targetOf);
    expect(tool.definition).toEqual({
      name: 'weather.forecast',
      description: 'Forecast',
      inputSchema: {
        type: 'object',
        properties: { city: { type: 'string' } },
        required: ['city'],
        additionalProperties: false,
      },
    });
    expect(Object.isFrozen(tool.definition)).toBe(true);
    expect(tool.checkOutput).toBeUndefined();
    expect(await tool.checkArguments({ city: 'Bern' })).toMatchObject({ ok: true, value: { city: 'Bern' } });
    expect((await tool.checkArguments({ city: 1 })).ok).toBe(false);
  });

  it('names the tool after the default name when the options give none', () => {
    const registry = new McpToolRegistry();
    expect(registry.define({ description: 'Forecast' }, 'forecast', 'T.forecast', targetOf).definition.name).toBe(
      'forecast',
    );
    expect(registry.has('forecast')).toBe(true);
  });

  it('compiles the checks of raw input and output schemas', async () => {
    const registry = new McpToolRegistry();
    const tool = registry.define(
      {
        description: 'Forecast',
        input: { type: 'object', properties: { days: { type: 'integer', maximum: 7 } }, required: ['days'] },
        output: { type: 'object', properties: { celsius: { type: 'number' } }, required: ['celsius'] },
      },
      'forecast',
      'T.forecast',
      targetOf,
    );
    const raw = { days: 3 };
    expect(await tool.checkArguments(raw)).toEqual({ ok: true, value: raw });
    expect(await tool.checkArguments({ days: 8 })).toEqual({ ok: false, problems: ['/days: must be <= 7'] });
    expect(tool.checkOutput!({ celsius: 21 })).toEqual({ ok: true });
    expect(tool.checkOutput!({})).toEqual({ ok: false, problems: ["(root): must have required property 'celsius'"] });
  });

  it('checks the output of an output DTO against its converted schema', () => {
    const registry = new McpToolRegistry();
    const tool = registry.define({ description: 'Echo', output: CityArgs }, 'echo', 'T.echo', targetOf);
    expect(tool.definition.outputSchema).toMatchObject({ required: ['city'] });
    expect(tool.checkOutput!({ city: 'Bern' })).toEqual({ ok: true });
    expect(tool.checkOutput!({ city: 'Bern', extra: 1 }).ok).toBe(false);
  });

  it.each<[string, McpToolOptions]>([
    ['an invalid name', { name: 'no spaces', description: 'x' }],
    ['no description', { description: '' }],
    ['a raw input schema that does not compile', { description: 'x', input: { type: 'object', $ref: '#/nowhere' } }],
    ['a raw output schema that does not compile', { description: 'x', output: { type: 'object', $ref: '#/nowhere' } }],
    ['an input schema of another type', { description: 'x', input: { type: 'string' } as never }],
  ])('refuses %s with a McpToolDefinitionError and registers nothing', async (_label, options) => {
    const registry = new McpToolRegistry();
    const changes = jest.fn();
    const subscription = registry.changes.subscribe(changes);
    expect(() => registry.define(options, 'tool', 'T.tool', targetOf)).toThrow(McpToolDefinitionError);
    await Promise.resolve();
    expect(registry.size).toBe(0);
    expect(changes).not.toHaveBeenCalled();
    subscription.unsubscribe();
  });

  it('refuses a name already taken, naming both owners, and keeps the first tool', () => {
    const registry = new McpToolRegistry();
    const first = registry.define({ description: 'A' }, 'echo', 'A.echo', targetOf);
    const error = thrown(() => registry.define({ description: 'B' }, 'echo', 'B.echo', targetOf));
    expect(error).toBeInstanceOf(McpToolDefinitionError);
    expect(error.message).toContain('A.echo');
    expect(error.message).toContain('B.echo');
    expect(registry.get('echo')).toBe(first);
  });

  it('announces the new tool once the current burst of changes is over', async () => {
    const registry = new McpToolRegistry();
    const changes = jest.fn();
    const subscription = registry.changes.subscribe(changes);
    registry.define({ description: 'A' }, 'a', 'T.a', targetOf);
    registry.define({ description: 'B' }, 'b', 'T.b', targetOf);
    expect(changes).not.toHaveBeenCalled();
    await Promise.resolve();
    expect(changes).toHaveBeenCalledTimes(1);
    subscription.unsubscribe();
  });
});

describe('McpToolRegistry.page', () => {
  it('serves the tools in registration order, paged', async () => {
    const registry = registryWith(5);
    const first = await registry.page(undefined, 2, everyone);
    expect(names(first)).toEqual(['t0', 't1']);
    const second = await registry.page(first.nextCursor, 2, everyone);
    expect(names(second)).toEqual(['t2', 't3']);
    const last = await registry.page(second.nextCursor, 2, everyone);
    expect(names(last)).toEqual(['t4']);
    expect(last).not.toHaveProperty('nextCursor');
  });

  it('serves the registered tools themselves', async () => {
    const registry = registryWith(1);
    expect((await registry.page(undefined, 10, everyone)).page[0]).toBe(registry.get('t0'));
  });

  it('leaves out the tools the caller may not see, on every page', async () => {
    const registry = registryWith(10);
    const visible = jest.fn((tool: RegisteredTool) => Promise.resolve(Number(tool.definition.name.slice(1)) % 3 !== 0));
    expect(await allPages(registry, 2, visible)).toEqual(['t1', 't2', 't4', 't5', 't7', 't8']);
    expect(visible.mock.calls.every(([tool]) => registry.get(tool.definition.name) === tool)).toBe(true);
  });

  it('asks about the tools of the page only', async () => {
    const registry = registryWith(50);
    const visible = jest.fn(everyone);
    await registry.page(undefined, 3, visible);
    expect(visible).toHaveBeenCalledTimes(3);
  });

  it('rejects an invalid cursor with invalid params (-32602)', async () => {
    const registry = registryWith(3);
    const error = await registry.page('not-a-cursor!', 2, everyone).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(ErrorCode.InvalidParams);
  });

  it('leaves out disabled tools, and serves them again once enabled', async () => {
    const registry = registryWith(4);
    const visible = jest.fn((_tool: RegisteredTool) => true);
    registry.disableTool('t1');
    registry.disableTool('t3');
    expect(await allPages(registry, 10, visible)).toEqual(['t0', 't2']);
    // A disabled tool is not even put to the caller's guards.
    expect(visible.mock.calls.map(([tool]) => tool.definition.name)).toEqual(['t0', 't2']);
    registry.enableTool('t1');
    expect(await allPages(registry, 10)).toEqual(['t0', 't1', 't2']);
  });

  it('fills a page past disabled tools, and ends without a cursor when only disabled ones follow', async () => {
    const registry = registryWith(5);
    registry.disableTool('t1');
    registry.disableTool('t3');
    registry.disableTool('t4');
    const page = await registry.page(undefined, 2, everyone);
    expect(names(page)).toEqual(['t0', 't2']);
    expect(page).not.toHaveProperty('nextCursor');
  });

  it('prepares the list once and reuses it while nothing changes', async () => {
    const pageWhere = jest.spyOn(PagedList.prototype, 'pageWhere');
    const registry = registryWith(5);
    const first = await registry.page(undefined, 2, everyone);
    await registry.page(first.nextCursor, 2, everyone);
    await registry.page(undefined, 2, () => false);
    expect(pageWhere).toHaveBeenCalledTimes(3);
    const lists = new Set(pageWhere.mock.contexts);
    expect(lists.size).toBe(1);
  });

  it.each<[string, (registry: McpToolRegistry) => void, string[]]>([
    ['a tool is defined', (r) => r.define({ description: 'New' }, 'new', 'T.new', targetOf), ['t0', 't1', 't2', 'new']],
    [
      'a tool is added at run time',
      (r) => r.addTool({ name: 'rt', description: 'Run time' }, () => 'x'),
      ['t0', 't1', 't2', 'rt'],
    ],
    ['a tool is removed', (r) => r.removeTool('t1'), ['t0', 't2']],
    ['a tool is disabled', (r) => r.disableTool('t0'), ['t1', 't2']],
  ])('prepares the list again when %s', async (_label, change, expected) => {
    const pageWhere = jest.spyOn(PagedList.prototype, 'pageWhere');
    const registry = registryWith(3);
    expect(await allPages(registry, 10)).toEqual(['t0', 't1', 't2']);
    change(registry);
    expect(await allPages(registry, 10)).toEqual(expected);
    const [before, after] = pageWhere.mock.contexts;
    expect(after).not.toBe(before);
  });

  it('prepares the list again when a disabled tool is enabled', async () => {
    const pageWhere = jest.spyOn(PagedList.prototype, 'pageWhere');
    const registry = registryWith(3);
    registry.disableTool('t2');
    expect(await allPages(registry, 10)).toEqual(['t0', 't1']);
    registry.enableTool('t2');
    expect(await allPages(registry, 10)).toEqual(['t0', 't1', 't2']);
    expect(new Set(pageWhere.mock.contexts).size).toBe(2);
  });

  it('keeps the list when a change changes nothing', async () => {
    const pageWhere = jest.spyOn(PagedList.prototype, 'pageWhere');
    const registry = registryWith(3);
    await registry.page(undefined, 10, everyone);
    registry.enableTool('t0');
    registry.removeTool('missing');
    registry.disableTool('missing');
    await registry.page(undefined, 10, everyone);
    expect(new Set(pageWhere.mock.contexts).size).toBe(1);
  });

  it('continues a walk after the last tool served when tools change between pages', async () => {
    const registry = registryWith(6);
    const first = await registry.page(undefined, 2, everyone);
    expect(names(first)).toEqual(['t0', 't1']);
    registry.removeTool('t0');
    registry.define({ description: 'Late' }, 'late', 'T.late', targetOf);
    const rest: string[] = [];
    let cursor = first.nextCursor;
    while (cursor !== undefined) {
      const page = await registry.page(cursor, 2, everyone);
      rest.push(...names(page));
      cursor = page.nextCursor;
    }
    expect(rest).toEqual(['t2', 't3', 't4', 't5', 'late']);
  });
});
