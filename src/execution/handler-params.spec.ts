import 'reflect-metadata';
import {
  Body,
  createParamDecorator,
  Headers,
  Param,
  ParseIntPipe,
  Query,
  Req,
  Res,
  type ExecutionContext,
  type PipeTransform,
} from '@nestjs/common';
import { CUSTOM_ROUTE_ARGS_METADATA, ROUTE_ARGS_METADATA } from '@nestjs/common/constants.js';
import { McpArgs } from '../decorators/mcp-args.decorator.js';
import { McpCtx } from '../decorators/mcp-ctx.decorator.js';
import { McpSession } from '../decorators/mcp-session.decorator.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import { MCP_HANDLER_PARAMS_METADATA } from '../mcp.constants.js';
import { paramsHostOf, prepareHandlerParams } from './handler-params.js';
import { ParamType } from './param-type.js';
import type { ParamsMetadata } from './param.metadata.js';
import { thrownBy } from '../../test/utils/thrown.js';

/** Any class whose methods are tools. */
type Class = abstract new (...args: never[]) => object;

const ARGS = ParamType.Args;
const CTX = ParamType.Context;
const SESSION = ParamType.Session;

const CurrentUser = createParamDecorator(
  (_data: unknown, context: ExecutionContext) => context.switchToHttp().getRequest<{ user?: unknown }>().user,
);

const upper: PipeTransform = { transform: (value: unknown) => String(value).toUpperCase() };

/** Prepares the method's parameters and returns them as the pipeline reads them. */
function prepared(classRef: Class, methodName: string): ParamsMetadata {
  const key = prepareHandlerParams(classRef, methodName, `${classRef.name}.${methodName}`);
  expect(key).toBe(MCP_HANDLER_PARAMS_METADATA);
  return Reflect.getMetadata(key, classRef, methodName) as ParamsMetadata;
}

/** The parameters by index, as `<type>:<index>` keys say it (custom decorators: `custom`). */
function layout(params: ParamsMetadata): Record<number, string> {
  const byIndex: Record<number, string> = {};
  for (const [key, param] of Object.entries(params)) {
    byIndex[param.index] = key.includes(CUSTOM_ROUTE_ARGS_METADATA) ? 'custom' : key.split(':')[0]!;
  }
  return byIndex;
}

describe('prepareHandlerParams', () => {
  describe('undecorated parameters', () => {
    class Plain {
      none(): void {}
      one(_args: object): void {}
      two(_args: object, _ctx: unknown): void {}
      three(_args: object, _ctx: unknown, _extra: unknown): void {}
    }

    it.each(['none', 'one', 'two', 'three'])('gives %s the arguments at 0 and the context at 1', (method) => {
      expect(prepared(Plain, method)).toEqual({
        [`${ARGS}:0`]: { index: 0, data: undefined, pipes: [] },
        [`${CTX}:1`]: { index: 1, data: undefined, pipes: [] },
      });
    });
  });

  describe('MCP decorators', () => {
    class Decorated {
      argsThenSession(@McpArgs() _args: object, @McpSession() _session: unknown): void {}
      sessionFirst(@McpSession() _session: unknown): void {}
      ctxFirst(@McpCtx() _ctx: unknown, @McpArgs() _args: object): void {}
      all(_args: object, _ctx: unknown, @McpSession() _session: unknown): void {}
      property(@McpArgs('days', ParseIntPipe, upper) _days: number, @McpArgs('city') _city: string): void {}
    }

    it('keeps @McpArgs() at 0, puts the session at 1, and adds no context', () => {
      expect(layout(prepared(Decorated, 'argsThenSession'))).toEqual({ 0: `${ARGS}`, 1: `${SESSION}` });
    });

    it('puts the session at 0 and still gives the undecorated 1 the context', () => {
      expect(layout(prepared(Decorated, 'sessionFirst'))).toEqual({ 0: `${SESSION}`, 1: `${CTX}` });
    });

    it('honours @McpCtx() and @McpArgs() in swapped places', () => {
      expect(layout(prepared(Decorated, 'ctxFirst'))).toEqual({ 0: `${CTX}`, 1: `${ARGS}` });
    });

    it('fills the undecorated 0 and 1 around a decorated third parameter', () => {
      expect(layout(prepared(Decorated, 'all'))).toEqual({ 0: `${ARGS}`, 1: `${CTX}`, 2: `${SESSION}` });
    });

    it('keeps the property name and pipes of @McpArgs(property, ...pipes)', () => {
      expect(prepared(Decorated, 'property')).toEqual({
        [`${ARGS}:0`]: { index: 0, data: 'days', pipes: [ParseIntPipe, upper] },
        [`${ARGS}:1`]: { index: 1, data: 'city', pipes: [] },
      });
    });
  });

  describe('custom parameter decorators', () => {
    class WithUser {
      whoAmI(@CurrentUser() _user: unknown): void {}
      both(@McpArgs() _args: object, @CurrentUser('id', upper) _id: unknown): void {}
    }

    it('keeps a createParamDecorator() parameter as Nest stored it, and defaults the other slot', () => {
      const params = prepared(WithUser, 'whoAmI');
      const stored = Reflect.getMetadata(ROUTE_ARGS_METADATA, WithUser, 'whoAmI') as ParamsMetadata;
      const [customKey] = Object.keys(stored);
      expect(params[customKey!]).toBe(stored[customKey!]);
      expect(layout(params)).toEqual({ 0: 'custom', 1: `${CTX}` });
    });

    it('keeps the data and pipes of a custom decorator', () => {
      const params = prepared(WithUser, 'both');
      const custom = Object.entries(params).find(([key]) => key.includes(CUSTOM_ROUTE_ARGS_METADATA))![1];
      expect(custom).toMatchObject({ index: 1, data: 'id', pipes: [upper] });
      expect(typeof (custom as unknown as { factory: unknown }).factory).toBe('function');
      expect(layout(params)).toEqual({ 0: `${ARGS}`, 1: 'custom' });
    });
  });

  describe('HTTP parameter decorators', () => {
    it.each<[string, ParameterDecorator]>([
      ['@Body()', Body()],
      ['@Body(property)', Body('city')],
      ['@Req()', Req()],
      ['@Res()', Res()],
      ['@Query()', Query('q')],
      ['@Param()', Param('id')],
      ['@Headers()', Headers('authorization')],
    ])('refuses %s with a McpDefinitionError naming the owner and the parameter', (_label, decorator) => {
      class HttpTools {
        run(_args: object, _second: unknown): void {}
      }
      decorator(HttpTools.prototype, 'run', 1);
      const error = thrownBy(() => prepareHandlerParams(HttpTools, 'run', 'HttpTools.run'));
      expect(error).toBeInstanceOf(McpDefinitionError);
      expect(error.message).toMatch(/^@McpTool\(\) on HttpTools\.run: parameter 1 has an HTTP parameter decorator/);
      expect(error.message).toContain('@McpArgs(), @McpCtx(), @McpSession(), @McpUri() or custom decorators');
      expect(Reflect.getMetadata(MCP_HANDLER_PARAMS_METADATA, HttpTools, 'run')).toBeUndefined();
    });

    it('refuses @Body() declared with the decorator syntax', () => {
      class Mixed {
        run(@McpArgs() _args: object, @Body() _body: unknown): void {}
      }
      expect(() => prepareHandlerParams(Mixed, 'run', 'Mixed.run')).toThrow(McpDefinitionError);
    });
  });

  describe('where metadata lives', () => {
    class Base {
      run(@McpSession() _session: unknown, @McpArgs('city') _city: string): void {}
      plain(_args: object): void {}
    }
    class Child extends Base {}
    class Override extends Base {
      override run(@McpCtx() _ctx: unknown): void {}
    }

    it('stores decorator metadata on the class that declares the method', () => {
      expect(Reflect.getOwnMetadata(ROUTE_ARGS_METADATA, Base, 'run')).toEqual({
        [`${SESSION}:0`]: { index: 0, data: undefined, pipes: [] },
        [`${ARGS}:1`]: { index: 1, data: 'city', pipes: [] },
      });
      expect(Reflect.getOwnMetadata(ROUTE_ARGS_METADATA, Child, 'run')).toBeUndefined();
    });

    it('prepares an inherited method from the decorators of its declaring class', () => {
      expect(layout(prepared(Child, 'run'))).toEqual({ 0: `${SESSION}`, 1: `${ARGS}` });
    });

    it('stores the parameter list where Nest reads it: on the class of the instance', () => {
      class Sub extends Base {}
      prepareHandlerParams(Sub, 'plain', 'Sub.plain');
      const instance = new Sub();
      expect(Reflect.getMetadata(MCP_HANDLER_PARAMS_METADATA, instance.constructor, 'plain') as ParamsMetadata).toEqual(
        {
          [`${ARGS}:0`]: { index: 0, data: undefined, pipes: [] },
          [`${CTX}:1`]: { index: 1, data: undefined, pipes: [] },
        },
      );
      expect(Reflect.getOwnMetadata(MCP_HANDLER_PARAMS_METADATA, Sub, 'plain')).toBeDefined();
    });

    it('does not write the parameter list of a subclass onto the base class', () => {
      class Leaf extends Base {}
      class Other extends Base {}
      prepareHandlerParams(Leaf, 'run', 'Leaf.run');
      expect(Reflect.getOwnMetadata(MCP_HANDLER_PARAMS_METADATA, Base, 'run')).toBeUndefined();
      expect(Reflect.getMetadata(MCP_HANDLER_PARAMS_METADATA, Other, 'run')).toBeUndefined();
    });

    it('lets the decorator of an overriding method replace the one it inherits at that index, as Nest does', () => {
      // Nest's own parameter decorators start an override from its parent's list and drop the
      // inherited entry at the decorated index (getParamArgsMetadata): two entries for one index
      // would both be resolved, pipes included, and the one settling last would win.
      const params = prepared(Override, 'run');
      const atZero = Object.entries(params)
        .filter(([, param]) => param.index === 0)
        .map(([key]) => key);
      expect(atZero).toEqual([`${CTX}:0`]);
      expect(params[`${ARGS}:1`]).toEqual({ index: 1, data: 'city', pipes: [] });
    });

    it('gives the same parameter list when prepared twice', () => {
      class Twice extends Base {}
      const first = prepared(Twice, 'run');
      expect(prepared(Twice, 'run')).toEqual(first);
    });
  });
});

describe('paramsHostOf', () => {
  it('is the class itself for its own and inherited methods', () => {
    class Base {
      run(): void {}
    }
    class Child extends Base {}
    expect(paramsHostOf(Base, 'run')).toBe(Base);
    expect(paramsHostOf(Child, 'run')).toBe(Child);
  });
});

describe('MCP parameter decorators', () => {
  it('refuse constructor parameters', () => {
    class Tools {}
    expect(() => McpArgs()(Tools, undefined, 0)).toThrow(TypeError);
    expect(() => McpCtx()(Tools, undefined, 0)).toThrow('MCP parameter decorators apply to method parameters only');
  });

  it('add up on one method rather than replacing each other', () => {
    class Tools {
      run(@McpArgs() _args: object, @McpCtx() _ctx: unknown, @McpSession() _session: unknown): void {}
    }
    expect(Object.keys(Reflect.getMetadata(ROUTE_ARGS_METADATA, Tools, 'run') as object).sort()).toEqual([
      `${ARGS}:0`,
      `${CTX}:1`,
      `${SESSION}:2`,
    ]);
  });
});
