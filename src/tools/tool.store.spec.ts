import 'reflect-metadata';
import { jest } from '@jest/globals';
import { IsString } from 'class-validator';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { McpToolOptions } from '../interfaces/mcp-tool-options.interface.js';
import { ErrorCode, JsonRpcError } from '../protocol/json-rpc.errors.js';
import { PagedList, type Page } from '../protocol/pagination.js';
import type { RegisteredTool } from './registered-tool.interface.js';
import { Schemas } from '../schemas/schemas.js';
import { ToolStore } from './tool.store.js';
import { thrownBy } from '../../test/utils/thrown.js';

class CityArgs {
  @IsString()
  city!: string;
}

const target: PipelineTarget = {
  guarded: false,
  canActivate: () => Promise.resolve(true),
  execute: () => Promise.resolve('done'),
  reportsErrors: true,
};
const targetOf = (): PipelineTarget => target;

const everyone = (): boolean => true;
const names = (page: Page<RegisteredTool>): string[] => page.page.map((tool) => tool.definition.name);

/** A store holding tools `t0`…`t<count-1>`, defined as discovery does. */
function registryWith(count: number): ToolStore {
  const store = new ToolStore(new Schemas());
  for (let index = 0; index < count; index++) {
    store.define({ description: `Tool ${index}` }, `t${index}`, `Tools.t${index}`, targetOf);
  }
  return store;
}

async function allPages(
  store: ToolStore,
  pageSize: number,
  visible: (tool: RegisteredTool) => boolean | Promise<boolean> = everyone,
): Promise<string[]> {
  const served: string[] = [];
  let cursor: string | undefined;
  do {
    const page = await store.page(cursor, pageSize, visible);
    served.push(...names(page));
    cursor = page.nextCursor;
  } while (cursor !== undefined);
  return served;
}

afterEach(() => {
  jest.restoreAllMocks();
});

describe('ToolStore.define', () => {
  it('prepares a tool from its options and registers it under its name', async () => {
    const store = new ToolStore(new Schemas());
    const tool = store.define(
      { name: 'weather.forecast', description: 'Forecast', input: CityArgs, timeoutMs: 500 },
      'forecast',
      'WeatherTools.forecast',
      targetOf,
    );
    expect(store.get('weather.forecast')).toBe(tool);
    expect(store.get('forecast')).toBeUndefined();
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
    const store = new ToolStore(new Schemas());
    expect(store.define({ description: 'Forecast' }, 'forecast', 'T.forecast', targetOf).definition.name).toBe(
      'forecast',
    );
    expect(store.has('forecast')).toBe(true);
  });

  it('compiles the checks of raw input and output schemas', async () => {
    const store = new ToolStore(new Schemas());
    const tool = store.define(
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
    const store = new ToolStore(new Schemas());
    const tool = store.define({ description: 'Echo', output: CityArgs }, 'echo', 'T.echo', targetOf);
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
  ])('refuses %s with a McpDefinitionError and registers nothing', async (_label, options) => {
    const store = new ToolStore(new Schemas());
    const changes = jest.fn();
    const subscription = store.changes.subscribe(changes);
    expect(() => store.define(options, 'tool', 'T.tool', targetOf)).toThrow(McpDefinitionError);
    await Promise.resolve();
    expect(store.size).toBe(0);
    expect(changes).not.toHaveBeenCalled();
    subscription.unsubscribe();
  });

  it('refuses a name already taken, naming both owners, and keeps the first tool', () => {
    const store = new ToolStore(new Schemas());
    const first = store.define({ description: 'A' }, 'echo', 'A.echo', targetOf);
    const error = thrownBy(() => store.define({ description: 'B' }, 'echo', 'B.echo', targetOf));
    expect(error).toBeInstanceOf(McpDefinitionError);
    expect(error.message).toContain('A.echo');
    expect(error.message).toContain('B.echo');
    expect(store.get('echo')).toBe(first);
  });

  it('announces the new tool once the current burst of changes is over', async () => {
    const store = new ToolStore(new Schemas());
    const changes = jest.fn();
    const subscription = store.changes.subscribe(changes);
    store.define({ description: 'A' }, 'a', 'T.a', targetOf);
    store.define({ description: 'B' }, 'b', 'T.b', targetOf);
    expect(changes).not.toHaveBeenCalled();
    await Promise.resolve();
    expect(changes).toHaveBeenCalledTimes(1);
    subscription.unsubscribe();
  });
});

describe('ToolStore.page', () => {
  it('serves the tools in registration order, paged', async () => {
    const store = registryWith(5);
    const first = await store.page(undefined, 2, everyone);
    expect(names(first)).toEqual(['t0', 't1']);
    const second = await store.page(first.nextCursor, 2, everyone);
    expect(names(second)).toEqual(['t2', 't3']);
    const last = await store.page(second.nextCursor, 2, everyone);
    expect(names(last)).toEqual(['t4']);
    expect(last).not.toHaveProperty('nextCursor');
  });

  it('serves the registered tools themselves', async () => {
    const store = registryWith(1);
    expect((await store.page(undefined, 10, everyone)).page[0]).toBe(store.get('t0'));
  });

  it('leaves out the tools the caller may not see, on every page', async () => {
    const store = registryWith(10);
    const visible = jest.fn((tool: RegisteredTool) => Promise.resolve(Number(tool.definition.name.slice(1)) % 3 !== 0));
    expect(await allPages(store, 2, visible)).toEqual(['t1', 't2', 't4', 't5', 't7', 't8']);
    expect(visible.mock.calls.every(([tool]) => store.get(tool.definition.name) === tool)).toBe(true);
  });

  it('asks about the tools of the page only', async () => {
    const store = registryWith(50);
    const visible = jest.fn(everyone);
    await store.page(undefined, 3, visible);
    expect(visible).toHaveBeenCalledTimes(3);
  });

  it('rejects an invalid cursor with invalid params (-32602)', async () => {
    const store = registryWith(3);
    const error = await store.page('not-a-cursor!', 2, everyone).then(
      () => undefined,
      (caught: unknown) => caught,
    );
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(ErrorCode.InvalidParams);
  });

  it('leaves out disabled tools, and serves them again once enabled', async () => {
    const store = registryWith(4);
    const visible = jest.fn((_tool: RegisteredTool) => true);
    store.disable('t1');
    store.disable('t3');
    expect(await allPages(store, 10, visible)).toEqual(['t0', 't2']);
    // A disabled tool is not even put to the caller's guards.
    expect(visible.mock.calls.map(([tool]) => tool.definition.name)).toEqual(['t0', 't2']);
    store.enable('t1');
    expect(await allPages(store, 10)).toEqual(['t0', 't1', 't2']);
  });

  it('fills a page past disabled tools, and ends without a cursor when only disabled ones follow', async () => {
    const store = registryWith(5);
    store.disable('t1');
    store.disable('t3');
    store.disable('t4');
    const page = await store.page(undefined, 2, everyone);
    expect(names(page)).toEqual(['t0', 't2']);
    expect(page).not.toHaveProperty('nextCursor');
  });

  it('prepares the list once and reuses it while nothing changes', async () => {
    const pageWhere = jest.spyOn(PagedList.prototype, 'pageWhere');
    const store = registryWith(5);
    const first = await store.page(undefined, 2, everyone);
    await store.page(first.nextCursor, 2, everyone);
    await store.page(undefined, 2, () => false);
    expect(pageWhere).toHaveBeenCalledTimes(3);
    const lists = new Set(pageWhere.mock.contexts);
    expect(lists.size).toBe(1);
  });

  it.each<[string, (store: ToolStore) => void, string[]]>([
    ['a tool is defined', (r) => r.define({ description: 'New' }, 'new', 'T.new', targetOf), ['t0', 't1', 't2', 'new']],
    [
      'a tool is added at run time',
      (r) => r.define({ name: 'rt', description: 'Run time' }, 'rt', 'runtime tool rt', targetOf),
      ['t0', 't1', 't2', 'rt'],
    ],
    ['a tool is removed', (r) => r.remove('t1'), ['t0', 't2']],
    ['a tool is disabled', (r) => r.disable('t0'), ['t1', 't2']],
  ])('prepares the list again when %s', async (_label, change, expected) => {
    const pageWhere = jest.spyOn(PagedList.prototype, 'pageWhere');
    const store = registryWith(3);
    expect(await allPages(store, 10)).toEqual(['t0', 't1', 't2']);
    change(store);
    expect(await allPages(store, 10)).toEqual(expected);
    const [before, after] = pageWhere.mock.contexts;
    expect(after).not.toBe(before);
  });

  it('prepares the list again when a disabled tool is enabled', async () => {
    const pageWhere = jest.spyOn(PagedList.prototype, 'pageWhere');
    const store = registryWith(3);
    store.disable('t2');
    expect(await allPages(store, 10)).toEqual(['t0', 't1']);
    store.enable('t2');
    expect(await allPages(store, 10)).toEqual(['t0', 't1', 't2']);
    expect(new Set(pageWhere.mock.contexts).size).toBe(2);
  });

  it('keeps the list when a change changes nothing', async () => {
    const pageWhere = jest.spyOn(PagedList.prototype, 'pageWhere');
    const store = registryWith(3);
    await store.page(undefined, 10, everyone);
    store.enable('t0');
    store.remove('missing');
    store.disable('missing');
    await store.page(undefined, 10, everyone);
    expect(new Set(pageWhere.mock.contexts).size).toBe(1);
  });

  it('continues a walk after the last tool served when tools change between pages', async () => {
    const store = registryWith(6);
    const first = await store.page(undefined, 2, everyone);
    expect(names(first)).toEqual(['t0', 't1']);
    store.remove('t0');
    store.define({ description: 'Late' }, 'late', 'T.late', targetOf);
    const rest: string[] = [];
    let cursor = first.nextCursor;
    while (cursor !== undefined) {
      const page = await store.page(cursor, 2, everyone);
      rest.push(...names(page));
      cursor = page.nextCursor;
    }
    expect(rest).toEqual(['t2', 't3', 't4', 't5', 'late']);
  });
});
