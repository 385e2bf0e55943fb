import 'reflect-metadata';
import { Controller, Delete, Get, Post } from '@nestjs/common';
import { ApiExcludeEndpoint, ApiOperation } from '@nestjs/swagger';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpRouteOptions } from '../interfaces/mcp-route-options.interface.js';
import { thrownBy } from '../../test/utils/thrown.js';
import { routeToolName, selectRoute } from './route-selection.js';

@Controller('things')
class Things {
  @Get()
  listThings(): void {}

  @ApiOperation({ summary: 'One', operationId: 'thing_by_id' })
  @Get(':id')
  getThing(): void {}

  @Post()
  addThing(): void {}

  @Delete(':id')
  removeThing(): void {}

  @ApiExcludeEndpoint()
  @Get('hidden')
  hidden(): void {}

  helper(): void {}
}

const handler = (name: keyof Things): object => Things.prototype[name];

describe('selectRoute', () => {
  it('selects the GET routes of a decorated controller unless told other methods', () => {
    const selected = (methods?: McpRouteOptions['methods']) =>
      (['listThings', 'getThing', 'addThing', 'removeThing', 'hidden', 'helper'] as const).filter(
        (name) => selectRoute({ methods }, undefined, handler(name), `Things.${name}`) !== undefined,
      );
    expect(selected()).toEqual(['listThings', 'getThing']);
    expect(selected(['GET', 'POST'])).toEqual(['listThings', 'getThing', 'addThing']);
  });

  it("lays a route's own options over the controller's shared ones, and leaves out an excluded route", () => {
    const shared = { timeoutMs: 5_000, annotations: { openWorldHint: false } };
    expect(selectRoute(shared, { name: 'remove', timeoutMs: 10 }, handler('removeThing'), 'o')).toEqual({
      annotations: { openWorldHint: false },
      name: 'remove',
      timeoutMs: 10,
    });
    expect(selectRoute(shared, { exclude: true }, handler('listThings'), 'o')).toBeUndefined();
    expect(selectRoute(undefined, { name: 'x' }, handler('addThing'), 'o')).toEqual({ name: 'x' });
  });

  it('refuses options on the wrong target', () => {
    const onClass = thrownBy(() =>
      selectRoute({ name: 'n', output: { type: 'object' } }, undefined, handler('listThings'), 'T.m'),
    );
    expect(onClass).toBeInstanceOf(McpDefinitionError);
    expect(onClass.message).toContain('name, output describe one route');
    const onMethod = thrownBy(() => selectRoute(undefined, { methods: ['GET'] }, handler('listThings'), 'T.m'));
    expect(onMethod.message).toContain('methods belongs on the controller class');
  });
});

describe('routeToolName', () => {
  it('takes the name given, else the swagger operationId, else the method name in snake_case', () => {
    expect(routeToolName({ name: 'given' }, handler('getThing'), 'getThing')).toBe('given');
    expect(routeToolName({}, handler('getThing'), 'getThing')).toBe('thing_by_id');
    expect(routeToolName({}, handler('listThings'), 'listThings')).toBe('list_things');
    expect(routeToolName({}, handler('helper'), 'listHTTPLogs2Days')).toBe('list_http_logs2_days');
  });
});
