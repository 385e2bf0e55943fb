import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import type { ItemCompleter } from '../items/completer.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpResourceTemplateOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { McpCompletionRequest } from '../interfaces/mcp-completion.interface.js';
import { Schemas } from '../schemas/schemas.js';
import { ResourceStore } from './resource.store.js';
import { thrownBy } from '../../test/utils/thrown.js';

class UserVariables {
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(1000)
  id!: number;
}

class ForecastVariables {
  @IsString()
  city!: string;

  @IsOptional()
  @IsIn(['metric', 'imperial'])
  units?: string;
}

const noopTarget: PipelineTarget = {
  guarded: false,
  canActivate: () => Promise.resolve(true),
  execute: () => Promise.resolve('content'),
  reportsErrors: false,
};
const target = (): PipelineTarget => noopTarget;

function expectDefinitionError(build: () => unknown, message: string): void {
  const error = thrownBy(build);
  expect(error).toBeInstanceOf(McpDefinitionError);
  expect(error.message).toBe(message);
}

const completion = (value: string): McpCompletionRequest => ({ argument: 'x', value, arguments: {} });

describe('ResourceStore.resolve precedence', () => {
  it('serves a URI by the resource with exactly that URI before any template', () => {
    const store = new ResourceStore(new Schemas());
    const template = store.defineTemplate({ uriTemplate: 'users://{id}' }, 'user', 'Users.user', target);
    const exact = store.define({ uri: 'users://me' }, 'me', 'Users.me', target);
    expect(store.resolve('users://me')).toEqual({ kind: 'resource', resource: exact });
    expect(store.resolve('users://42')).toEqual({ kind: 'template', template, variables: { id: '42' } });
  });

  it('serves a URI several templates match by the first registered', () => {
    const store = new ResourceStore(new Schemas());
    const byId = store.defineTemplate({ uriTemplate: 'users://{id}' }, 'byId', 'Users.byId', target);
    const byName = store.defineTemplate({ uriTemplate: 'users://{name}' }, 'byName', 'Users.byName', target);
    const path = store.defineTemplate({ uriTemplate: 'users://{+rest}' }, 'rest', 'Users.rest', target);
    expect(store.resolve('users://ada')).toEqual({ kind: 'template', template: byId, variables: { id: 'ada' } });
    expect(store.resolve('users://a/b')).toEqual({
      kind: 'template',
      template: path,
      variables: { rest: 'a/b' },
    });
    store.templates.remove('users://{id}');
    expect(store.resolve('users://ada')).toEqual({
      kind: 'template',
      template: byName,
      variables: { name: 'ada' },
    });
  });

  it('falls back to the templates once the exact resource is removed', () => {
    const store = new ResourceStore(new Schemas());
    const template = store.defineTemplate({ uriTemplate: 'users://{id}' }, 'user', 'Users.user', target);
    store.define({ uri: 'users://me' }, 'me', 'Users.me', target);
    store.resources.remove('users://me');
    expect(store.resolve('users://me')).toEqual({ kind: 'template', template, variables: { id: 'me' } });
  });

  it('puts a template added again after its removal last in the order', () => {
    const store = new ResourceStore(new Schemas());
    store.defineTemplate({ uriTemplate: 'users://{id}' }, 'byId', 'runtime resource template users://{id}', target);
    store.defineTemplate(
      { uriTemplate: 'users://{name}' },
      'byName',
      'runtime resource template users://{name}',
      target,
    );
    store.templates.remove('users://{id}');
    store.defineTemplate({ uriTemplate: 'users://{id}' }, 'byId', 'runtime resource template users://{id}', target);
    expect(store.resolve('users://x')).toMatchObject({ kind: 'template', variables: { name: 'x' } });
  });
});

describe('ResourceStore: the variables schema', () => {
  const label = '@McpResourceTemplate() on Users.user';

  it('accepts a DTO declaring exactly the template variables', () => {
    const store = new ResourceStore(new Schemas());
    expect(() =>
      store.defineTemplate({ uriTemplate: 'users://{id}', variables: UserVariables }, 'user', 'Users.user', target),
    ).not.toThrow();
    expect(() =>
      store.defineTemplate(
        { uriTemplate: 'weather://{city}{?units}', variables: ForecastVariables },
        'forecast',
        'Weather.forecast',
        target,
      ),
    ).not.toThrow();
  });

  it('refuses a DTO missing a variable, naming it', () => {
    const store = new ResourceStore(new Schemas());
    expectDefinitionError(
      () =>
        store.defineTemplate(
          { uriTemplate: 'users://{org}/{id}', variables: UserVariables },
          'user',
          'Users.user',
          target,
        ),
      `${label}: the variables schema must declare exactly the template's variables (org, id); missing: org`,
    );
  });

  it('refuses a DTO with a property the template lacks, naming it', () => {
    const store = new ResourceStore(new Schemas());
    expectDefinitionError(
      () =>
        store.defineTemplate(
          { uriTemplate: 'weather://{city}', variables: ForecastVariables },
          'user',
          'Users.user',
          target,
        ),
      `${label}: the variables schema must declare exactly the template's variables (city); not in the template: units`,
    );
  });

  it('names both the missing and the extra variables', () => {
    const store = new ResourceStore(new Schemas());
    expectDefinitionError(
      () =>
        store.defineTemplate({ uriTemplate: 'users://{name}', variables: UserVariables }, 'user', 'Users.user', target),
      `${label}: the variables schema must declare exactly the template's variables (name); missing: name; not in the template: id`,
    );
    expect(store.templates.size).toBe(0);
  });

  it('checks a raw JSON Schema the same way', () => {
    const store = new ResourceStore(new Schemas());
    expect(() =>
      store.defineTemplate(
        { uriTemplate: 'users://{id}', variables: { type: 'object', properties: { id: { type: 'string' } } } },
        'ok',
        'Users.ok',
        target,
      ),
    ).not.toThrow();
    expectDefinitionError(
      () =>
        store.defineTemplate(
          { uriTemplate: 'users://{a}{?b}', variables: { type: 'object', properties: { a: {}, c: {} } } },
          'user',
          'Users.user',
          target,
        ),
      `${label}: the variables schema must declare exactly the template's variables (a, b); missing: b; not in the template: c`,
    );
    expectDefinitionError(
      () =>
        store.defineTemplate({ uriTemplate: 'users://{a}', variables: { type: 'object' } }, 'u', 'Users.user', target),
      `${label}: the variables schema must declare exactly the template's variables (a); missing: a`,
    );
  });

  it.each([
    ['a schema that is not of an object', { type: 'string' }],
    ['a schema without a type', { properties: { id: {} } }],
    ['an array', [{ type: 'object' }]],
    ['a string', 'UserVariables'],
  ])('refuses %s as variables', (_case, variables) => {
    const store = new ResourceStore(new Schemas());
    expectDefinitionError(
      () =>
        store.defineTemplate(
          { uriTemplate: 'users://{id}', variables: variables as unknown as McpResourceTemplateOptions['variables'] },
          'user',
          'Users.user',
          target,
        ),
      `${label}: variables must be a DTO class or a JSON Schema object with type "object"`,
    );
  });

  it('uses the schemas it is given (one converter per application)', () => {
    const schemas = new Schemas();
    const toSchema = jest.spyOn(schemas.converter, 'toSchema');
    const store = new ResourceStore(schemas);
    store.defineTemplate({ uriTemplate: 'users://{id}', variables: UserVariables }, 'user', 'Users.user', target);
    expect(toSchema).toHaveBeenCalledWith(UserVariables, '@McpResourceTemplate() on Users.user (variables)');
  });
});

describe('ResourceStore: checking the variables', () => {
  it('without a schema, passes the matched variables through as they are', async () => {
    const store = new ResourceStore(new Schemas());
    const defined = store.defineTemplate({ uriTemplate: 'files://x{/segs*}' }, 'f', 'Files.f', target);
    const variables = { segs: ['a', 'b'] };
    const check = await defined.checkVariables(variables);
    expect(check).toEqual({ ok: true, value: variables });
    expect((check as { value: unknown }).value).toBe(variables);
  });

  it('with a DTO, converts the strings (@Type(() => Number)) into an instance', async () => {
    const store = new ResourceStore(new Schemas());
    const defined = store.defineTemplate(
      { uriTemplate: 'users://{id}', variables: UserVariables },
      'u',
      'Users.u',
      target,
    );
    const check = await defined.checkVariables({ id: '42' });
    expect(check.ok).toBe(true);
    const value = (check as { value: object }).value;
    expect(value).toBeInstanceOf(UserVariables);
    expect(value).toEqual(Object.assign(new UserVariables(), { id: 42 }));
  });

  it('with a DTO, lists the problems of invalid variables', async () => {
    const store = new ResourceStore(new Schemas());
    const defined = store.defineTemplate(
      { uriTemplate: 'users://{id}', variables: UserVariables },
      'u',
      'Users.u',
      target,
    );
    expect(await defined.checkVariables({ id: 'abc' })).toEqual({
      ok: false,
      problems: [
        'id: id must not be greater than 1000',
        'id: id must not be less than 1',
        'id: id must be an integer number',
      ],
    });
    expect(await defined.checkVariables({ id: '5000' })).toEqual({
      ok: false,
      problems: ['id: id must not be greater than 1000'],
    });
    expect(await defined.checkVariables({})).toEqual({
      ok: false,
      problems: [
        'id: id must not be greater than 1000',
        'id: id must not be less than 1',
        'id: id must be an integer number',
      ],
    });
  });

  it('with a DTO, leaves an optional variable out and checks an allowed value', async () => {
    const store = new ResourceStore(new Schemas());
    const defined = store.defineTemplate(
      { uriTemplate: 'weather://{city}{?units}', variables: ForecastVariables },
      'f',
      'Weather.f',
      target,
    );
    const matched = defined.template.match('weather://Paris')!;
    expect(await defined.checkVariables(matched)).toEqual({
      ok: true,
      value: Object.assign(new ForecastVariables(), { city: 'Paris' }),
    });
    expect(await defined.checkVariables({ city: 'Paris', units: 'kelvin' })).toEqual({
      ok: false,
      problems: ['units: units must be one of the following values: metric, imperial'],
    });
  });

  it('with a raw JSON Schema, validates the strings with Ajv', async () => {
    const store = new ResourceStore(new Schemas());
    const defined = store.defineTemplate(
      {
        uriTemplate: 'users://{id}',
        variables: { type: 'object', properties: { id: { type: 'string', pattern: '^[0-9]+$' } }, required: ['id'] },
      },
      'u',
      'Users.u',
      target,
    );
    expect(await defined.checkVariables({ id: '42' })).toEqual({ ok: true, value: { id: '42' } });
    expect(await defined.checkVariables({ id: 'x1' })).toEqual({
      ok: false,
      problems: ['/id: must match pattern "^[0-9]+$"'],
    });
    expect(await defined.checkVariables({})).toEqual({
      ok: false,
      problems: ["(root): must have required property 'id'"],
    });
  });
});

describe('ResourceStore: completers', () => {
  const handlerCompleter: ItemCompleter = {
    kind: 'handler',
    handler: { owner: 'Completions.city', target },
  };

  it('builds the completers of the complete option, filtered by prefix', async () => {
    const store = new ResourceStore(new Schemas());
    const defined = store.defineTemplate(
      { uriTemplate: 'weather://{city}', complete: { city: ['Paris', 'Prague', 'Oslo'] } },
      'f',
      'Weather.f',
      target,
    );
    const completer = defined.completers.get('city');
    expect(completer?.kind).toBe('function');
    const complete = (completer as Extract<ItemCompleter, { kind: 'function' }>).complete;
    expect(await complete(completion('pr'), {} as McpContext)).toEqual(['Prague']);
    expect(await complete(completion(''), {} as McpContext)).toEqual(['Paris', 'Prague', 'Oslo']);
  });

  it('refuses a complete entry for a variable the template does not have', () => {
    const store = new ResourceStore(new Schemas());
    expectDefinitionError(
      () =>
        store.defineTemplate({ uriTemplate: 'weather://{city}', complete: { town: ['x'] } }, 'f', 'Weather.f', target),
      '@McpResourceTemplate() on Weather.f: complete.town names no argument (it has: city)',
    );
  });

  it('derives a completer from an enum of the DTO, replaceable by addCompleter', async () => {
    const store = new ResourceStore(new Schemas());
    const defined = store.defineTemplate(
      { uriTemplate: 'weather://{city}{?units}', variables: ForecastVariables },
      'f',
      'Weather.f',
      target,
    );
    const auto = defined.completers.get('units') as Extract<ItemCompleter, { kind: 'function' }>;
    expect(auto.auto).toBe(true);
    expect(await auto.complete(completion('IM'), {} as McpContext)).toEqual(['imperial']);
    expect(defined.completers.has('city')).toBe(false);
    store.addCompleter('weather://{city}{?units}', 'units', handlerCompleter, '@McpCompletion() on C.units');
    expect(defined.completers.get('units')).toBe(handlerCompleter);
    expectDefinitionError(
      () => store.addCompleter('weather://{city}{?units}', 'units', handlerCompleter, '@McpCompletion() on D.units'),
      '@McpCompletion() on D.units: variable units of weather://{city}{?units} has a completer already',
    );
  });

  it('adds a completer for a variable that has none', () => {
    const store = new ResourceStore(new Schemas());
    const defined = store.defineTemplate({ uriTemplate: 'weather://{city}' }, 'f', 'Weather.f', target);
    store.addCompleter('weather://{city}', 'city', handlerCompleter, '@McpCompletion() on C.city');
    expect(defined.completers.get('city')).toBe(handlerCompleter);
  });

  it('refuses a completer for an unknown template, an unknown variable, or one with an explicit completer', () => {
    const store = new ResourceStore(new Schemas());
    store.defineTemplate(
      { uriTemplate: 'weather://{city}{?units}', complete: { city: () => ['Paris'] } },
      'f',
      'Weather.f',
      target,
    );
    const label = '@McpCompletion() on C.x';
    expectDefinitionError(
      () => store.addCompleter('weather://{town}', 'town', handlerCompleter, label),
      `${label}: there is no resource template weather://{town}`,
    );
    expectDefinitionError(
      () => store.addCompleter('weather://{city}{?units}', 'country', handlerCompleter, label),
      `${label}: resource template weather://{city}{?units} has no variable country`,
    );
    expectDefinitionError(
      () => store.addCompleter('weather://{city}{?units}', 'city', handlerCompleter, label),
      `${label}: variable city of weather://{city}{?units} has a completer already`,
    );
  });
});
