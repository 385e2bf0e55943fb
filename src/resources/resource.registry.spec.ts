import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import type { Subscription } from 'rxjs';
import type { ItemCompleter } from '../catalogue/completer.js';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpInvocation } from '../execution/mcp-invocation.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import type { McpResourceTemplateOptions } from '../interfaces/mcp-resource-options.interface.js';
import type { McpCompletionRequest } from '../interfaces/mcp-completion.interface.js';
import { resolveMcpOptions } from '../mcp-options.defaults.js';
import type { Handshake } from '../protocol/initialize.js';
import { McpSchemas } from '../schemas/mcp-schemas.js';
import type { McpSession } from '../session/mcp-session.js';
import { McpSessionRegistry } from '../session/session.registry.js';
import type { RegisteredResource, RegisteredResourceTemplate } from './registered-resource.interface.js';
import { McpResourceRegistry } from './resource.registry.js';

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

const handshake: Handshake = {
  protocolVersion: '2025-06-18',
  clientInfo: { name: 'client', version: '1.0.0' },
  clientCapabilities: {},
  result: {
    protocolVersion: '2025-06-18',
    capabilities: { resources: { subscribe: true, listChanged: true } },
    serverInfo: { name: 'server', version: '1.0.0' },
  },
};

const noopTarget: PipelineTarget = {
  canActivate: () => Promise.resolve(true),
  execute: () => Promise.resolve('content'),
  reportsErrors: false,
};
const target = (): PipelineTarget => noopTarget;

/** A registry whose sessions are never used: the methods under test do not reach them. */
function registryWithoutSessions(): McpResourceRegistry {
  return new McpResourceRegistry({ all: () => [] } as unknown as McpSessionRegistry);
}

/** Runs a registered handler past its (runtime, empty) pipeline, as the reader does. */
async function read(
  registered: RegisteredResource | RegisteredResourceTemplate,
  args: object,
  uri: string,
  context: McpContext,
): Promise<unknown> {
  const pipeline = await registered.target({ url: '/mcp' });
  const invocation = {
    phase: 'call',
    kind: 'resource',
    name: registered.definition.name,
    uri,
    arguments: args,
    context,
  };
  return pipeline.execute([{ url: '/mcp' }, undefined, undefined, invocation as unknown as McpInvocation]);
}

function thrown(build: () => unknown): Error {
  try {
    build();
  } catch (error) {
    return error as Error;
  }
  throw new Error('expected an error');
}

function expectDefinitionError(build: () => unknown, message: string): void {
  const error = thrown(build);
  expect(error).toBeInstanceOf(McpDefinitionError);
  expect(error.message).toBe(message);
}

const completion = (value: string): McpCompletionRequest => ({ argument: 'x', value, arguments: {} });

describe('McpResourceRegistry: resources', () => {
  it('defines a resource from decorator options and finds it by URI', () => {
    const registry = registryWithoutSessions();
    const defined = registry.define(
      { uri: 'docs://readme', mimeType: 'text/markdown' },
      'readme',
      'Docs.readme',
      target,
    );
    expect(defined.definition).toEqual({ uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown' });
    expect(defined.owner).toBe('Docs.readme');
    expect(defined.target).toBe(target);
    expect(registry.size).toBe(1);
    expect(registry.templateCount).toBe(0);
    expect(registry.hasResource('docs://readme')).toBe(true);
    expect(registry.hasResource('docs://other')).toBe(false);
    expect(registry.resolve('docs://readme')).toEqual({ kind: 'resource', resource: defined });
  });

  it('labels definition errors with the decorator and owner', () => {
    const registry = registryWithoutSessions();
    expectDefinitionError(
      () => registry.define({ uri: 'readme' }, 'readme', 'Docs.readme', target),
      '@McpResource() on Docs.readme: uri "readme" is not an absolute URI (scheme:..., at most 8192 characters)',
    );
    expect(registry.size).toBe(0);
  });

  it('refuses a URI served twice, naming both owners, and keeps the first', () => {
    const registry = registryWithoutSessions();
    const first = registry.define({ uri: 'docs://readme' }, 'readme', 'Docs.readme', target);
    expectDefinitionError(
      () => registry.define({ uri: 'docs://readme', name: 'other' }, 'other', 'Other.readme', target),
      'Resource URI docs://readme is served twice: by Docs.readme and by Other.readme',
    );
    expectDefinitionError(
      () => registry.addResource({ uri: 'docs://readme', name: 'again' }, () => 'x'),
      'Resource URI docs://readme is served twice: by Docs.readme and by runtime resource docs://readme',
    );
    expect(registry.size).toBe(1);
    expect(registry.resolve('docs://readme')).toEqual({ kind: 'resource', resource: first });
  });

  it('addResource serves a handler called with {}, the context and the URI read', async () => {
    const registry = registryWithoutSessions();
    const calls: unknown[][] = [];
    registry.addResource({ uri: 'docs://changelog', name: 'changelog', title: 'Changelog' }, (args, context, uri) => {
      calls.push([args, context, uri]);
      return 'v1';
    });
    const resolved = registry.resolve('docs://changelog');
    expect(resolved?.kind).toBe('resource');
    const resource = (resolved as { resource: RegisteredResource }).resource;
    expect(resource.definition).toEqual({ uri: 'docs://changelog', name: 'changelog', title: 'Changelog' });
    expect(resource.owner).toBe('runtime resource docs://changelog');
    const context = { sessionId: 's1' } as McpContext;
    expect(await read(resource, {}, 'docs://changelog', context)).toBe('v1');
    expect(calls).toEqual([[{}, context, 'docs://changelog']]);
    expect(calls[0]![1]).toBe(context);
  });

  it('addResource keeps the timeout and labels errors as a runtime resource', () => {
    const registry = registryWithoutSessions();
    registry.addResource({ uri: 'docs://slow', name: 'slow', timeoutMs: 250 }, () => 'x');
    const resolved = registry.resolve('docs://slow') as { resource: RegisteredResource };
    expect(resolved.resource.timeoutMs).toBe(250);
    expectDefinitionError(
      () => registry.addResource({ uri: 'docs://bad', name: '' }, () => 'x'),
      'runtime resource docs://bad: name must be 1 to 1024 characters',
    );
  });

  it('addResource refuses a handler that is not a function', () => {
    const registry = registryWithoutSessions();
    expectDefinitionError(
      () => registry.addResource({ uri: 'docs://x', name: 'x' }, 'text' as unknown as () => string),
      'addResource(docs://x): handler must be a function',
    );
    expect(registry.hasResource('docs://x')).toBe(false);
  });

  it('removeResource stops serving a URI, says whether there was one, and frees it', () => {
    const registry = registryWithoutSessions();
    registry.addResource({ uri: 'docs://a', name: 'a' }, () => 'a');
    expect(registry.removeResource('docs://a')).toBe(true);
    expect(registry.hasResource('docs://a')).toBe(false);
    expect(registry.resolve('docs://a')).toBeUndefined();
    expect(registry.size).toBe(0);
    expect(registry.removeResource('docs://a')).toBe(false);
    expect(registry.removeResource('docs://never')).toBe(false);
    expect(() => registry.addResource({ uri: 'docs://a', name: 'a' }, () => 'again')).not.toThrow();
  });

  it('pages the served resources in registration order, hiding those the caller may not see', async () => {
    const registry = registryWithoutSessions();
    for (const name of ['a', 'b', 'c']) registry.addResource({ uri: `docs://${name}`, name }, () => name);
    const first = await registry.page(undefined, 2, (resource) => resource.definition.name !== 'b');
    expect(first.page.map((resource) => resource.definition.uri)).toEqual(['docs://a', 'docs://c']);
    expect(first.nextCursor).toBeUndefined();
    const small = await registry.page(undefined, 1, () => true);
    expect(small.page.map((resource) => resource.definition.uri)).toEqual(['docs://a']);
    expect(small.nextCursor).toEqual(expect.any(String));
    const next = await registry.page(small.nextCursor, 1, () => true);
    expect(next.page.map((resource) => resource.definition.uri)).toEqual(['docs://b']);
  });
});

describe('McpResourceRegistry: templates', () => {
  it('defines a template from decorator options, its compiled template included', () => {
    const registry = registryWithoutSessions();
    const defined = registry.defineTemplate(
      { uriTemplate: 'users://{id}', description: 'A user' },
      'user',
      'Users.user',
      target,
    );
    expect(defined.definition).toEqual({ uriTemplate: 'users://{id}', name: 'user', description: 'A user' });
    expect(defined.template.variables).toEqual(['id']);
    expect(defined.owner).toBe('Users.user');
    expect(defined.completers.size).toBe(0);
    expect(registry.templateCount).toBe(1);
    expect(registry.size).toBe(0);
    expect(registry.hasResourceTemplate('users://{id}')).toBe(true);
    expect(registry.getTemplate('users://{id}')).toBe(defined);
    expect(registry.getTemplate('users://{name}')).toBeUndefined();
  });

  it('resolves a matching URI to the template and its variables', () => {
    const registry = registryWithoutSessions();
    const defined = registry.defineTemplate({ uriTemplate: 'users://{id}' }, 'user', 'Users.user', target);
    expect(registry.resolve('users://42')).toEqual({ kind: 'template', template: defined, variables: { id: '42' } });
    expect(registry.resolve('users://a%2Fb')).toEqual({
      kind: 'template',
      template: defined,
      variables: { id: 'a/b' },
    });
    expect(registry.resolve('users://4/2')).toBeUndefined();
    expect(registry.resolve('users://%C3')).toBeUndefined();
    expect(registry.resolve('posts://42')).toBeUndefined();
  });

  it('refuses a URI template served twice, naming both owners', () => {
    const registry = registryWithoutSessions();
    registry.defineTemplate({ uriTemplate: 'users://{id}' }, 'user', 'Users.user', target);
    expectDefinitionError(
      () => registry.defineTemplate({ uriTemplate: 'users://{id}' }, 'again', 'Other.user', target),
      'Resource template users://{id} is served twice: by Users.user and by Other.user',
    );
    expectDefinitionError(
      () => registry.addResourceTemplate({ uriTemplate: 'users://{id}', name: 'x' }, () => 'x'),
      'Resource template users://{id} is served twice: by Users.user and by runtime resource template users://{id}',
    );
    expect(registry.templateCount).toBe(1);
  });

  it('labels template definition errors with the decorator and owner', () => {
    const registry = registryWithoutSessions();
    expectDefinitionError(
      () => registry.defineTemplate({ uriTemplate: 'users://{id' }, 'user', 'Users.user', target),
      '@McpResourceTemplate() on Users.user: uriTemplate "users://{id" is not a valid RFC 6570 URI template: Unclosed expression: Expected "}" but found end of template',
    );
    expect(registry.templateCount).toBe(0);
  });

  it('addResourceTemplate serves a handler called with the variables, the context and the URI', async () => {
    const registry = registryWithoutSessions();
    const calls: unknown[][] = [];
    registry.addResourceTemplate({ uriTemplate: 'files:///{+path}', name: 'files' }, (variables, context, uri) => {
      calls.push([variables, context, uri]);
      return 'file';
    });
    const resolved = registry.resolve('files:///a/b.txt');
    expect(resolved).toMatchObject({ kind: 'template', variables: { path: 'a/b.txt' } });
    const template = (resolved as { template: RegisteredResourceTemplate }).template;
    expect(template.owner).toBe('runtime resource template files:///{+path}');
    const context = { sessionId: 's1' } as McpContext;
    expect(await read(template, { path: 'a/b.txt' }, 'files:///a/b.txt', context)).toBe('file');
    expect(calls).toEqual([[{ path: 'a/b.txt' }, context, 'files:///a/b.txt']]);
  });

  it('addResourceTemplate refuses a handler that is not a function', () => {
    const registry = registryWithoutSessions();
    expectDefinitionError(
      () => registry.addResourceTemplate({ uriTemplate: 'users://{id}', name: 'u' }, null as unknown as () => string),
      'addResourceTemplate(users://{id}): handler must be a function',
    );
    expect(registry.hasResourceTemplate('users://{id}')).toBe(false);
  });

  it('removeResourceTemplate stops serving a template and says whether there was one', () => {
    const registry = registryWithoutSessions();
    registry.addResourceTemplate({ uriTemplate: 'users://{id}', name: 'u' }, () => 'u');
    expect(registry.removeResourceTemplate('users://{id}')).toBe(true);
    expect(registry.hasResourceTemplate('users://{id}')).toBe(false);
    expect(registry.getTemplate('users://{id}')).toBeUndefined();
    expect(registry.resolve('users://1')).toBeUndefined();
    expect(registry.templateCount).toBe(0);
    expect(registry.removeResourceTemplate('users://{id}')).toBe(false);
  });

  it('pages the served templates', async () => {
    const registry = registryWithoutSessions();
    registry.addResourceTemplate({ uriTemplate: 'a://{x}', name: 'a' }, () => 'a');
    registry.addResourceTemplate({ uriTemplate: 'b://{x}', name: 'b' }, () => 'b');
    const { page, nextCursor } = await registry.pageTemplates(undefined, 10, (t) => t.definition.name === 'b');
    expect(page.map((t) => t.definition.uriTemplate)).toEqual(['b://{x}']);
    expect(nextCursor).toBeUndefined();
  });
});

describe('McpResourceRegistry.resolve precedence', () => {
  it('serves a URI by the resource with exactly that URI before any template', () => {
    const registry = registryWithoutSessions();
    const template = registry.defineTemplate({ uriTemplate: 'users://{id}' }, 'user', 'Users.user', target);
    const exact = registry.define({ uri: 'users://me' }, 'me', 'Users.me', target);
    expect(registry.resolve('users://me')).toEqual({ kind: 'resource', resource: exact });
    expect(registry.resolve('users://42')).toEqual({ kind: 'template', template, variables: { id: '42' } });
  });

  it('serves a URI several templates match by the first registered', () => {
    const registry = registryWithoutSessions();
    const byId = registry.defineTemplate({ uriTemplate: 'users://{id}' }, 'byId', 'Users.byId', target);
    const byName = registry.defineTemplate({ uriTemplate: 'users://{name}' }, 'byName', 'Users.byName', target);
    const path = registry.defineTemplate({ uriTemplate: 'users://{+rest}' }, 'rest', 'Users.rest', target);
    expect(registry.resolve('users://ada')).toEqual({ kind: 'template', template: byId, variables: { id: 'ada' } });
    expect(registry.resolve('users://a/b')).toEqual({
      kind: 'template',
      template: path,
      variables: { rest: 'a/b' },
    });
    registry.removeResourceTemplate('users://{id}');
    expect(registry.resolve('users://ada')).toEqual({
      kind: 'template',
      template: byName,
      variables: { name: 'ada' },
    });
  });

  it('falls back to the templates once the exact resource is removed', () => {
    const registry = registryWithoutSessions();
    const template = registry.defineTemplate({ uriTemplate: 'users://{id}' }, 'user', 'Users.user', target);
    registry.define({ uri: 'users://me' }, 'me', 'Users.me', target);
    registry.removeResource('users://me');
    expect(registry.resolve('users://me')).toEqual({ kind: 'template', template, variables: { id: 'me' } });
  });

  it('puts a template added again after its removal last in the order', () => {
    const registry = registryWithoutSessions();
    registry.addResourceTemplate({ uriTemplate: 'users://{id}', name: 'byId' }, () => 'id');
    registry.addResourceTemplate({ uriTemplate: 'users://{name}', name: 'byName' }, () => 'name');
    registry.removeResourceTemplate('users://{id}');
    registry.addResourceTemplate({ uriTemplate: 'users://{id}', name: 'byId' }, () => 'id');
    expect(registry.resolve('users://x')).toMatchObject({ kind: 'template', variables: { name: 'x' } });
  });
});

describe('McpResourceRegistry: the variables schema', () => {
  const label = '@McpResourceTemplate() on Users.user';

  it('accepts a DTO declaring exactly the template variables', () => {
    const registry = registryWithoutSessions();
    expect(() =>
      registry.defineTemplate({ uriTemplate: 'users://{id}', variables: UserVariables }, 'user', 'Users.user', target),
    ).not.toThrow();
    expect(() =>
      registry.defineTemplate(
        { uriTemplate: 'weather://{city}{?units}', variables: ForecastVariables },
        'forecast',
        'Weather.forecast',
        target,
      ),
    ).not.toThrow();
  });

  it('refuses a DTO missing a variable, naming it', () => {
    const registry = registryWithoutSessions();
    expectDefinitionError(
      () =>
        registry.defineTemplate(
          { uriTemplate: 'users://{org}/{id}', variables: UserVariables },
          'user',
          'Users.user',
          target,
        ),
      `${label}: the variables schema must declare exactly the template's variables (org, id); missing: org`,
    );
  });

  it('refuses a DTO with a property the template lacks, naming it', () => {
    const registry = registryWithoutSessions();
    expectDefinitionError(
      () =>
        registry.defineTemplate(
          { uriTemplate: 'weather://{city}', variables: ForecastVariables },
          'user',
          'Users.user',
          target,
        ),
      `${label}: the variables schema must declare exactly the template's variables (city); not in the template: units`,
    );
  });

  it('names both the missing and the extra variables', () => {
    const registry = registryWithoutSessions();
    expectDefinitionError(
      () =>
        registry.defineTemplate(
          { uriTemplate: 'users://{name}', variables: UserVariables },
          'user',
          'Users.user',
          target,
        ),
      `${label}: the variables schema must declare exactly the template's variables (name); missing: name; not in the template: id`,
    );
    expect(registry.templateCount).toBe(0);
  });

  it('checks a raw JSON Schema the same way', () => {
    const registry = registryWithoutSessions();
    expect(() =>
      registry.defineTemplate(
        { uriTemplate: 'users://{id}', variables: { type: 'object', properties: { id: { type: 'string' } } } },
        'ok',
        'Users.ok',
        target,
      ),
    ).not.toThrow();
    expectDefinitionError(
      () =>
        registry.defineTemplate(
          { uriTemplate: 'users://{a}{?b}', variables: { type: 'object', properties: { a: {}, c: {} } } },
          'user',
          'Users.user',
          target,
        ),
      `${label}: the variables schema must declare exactly the template's variables (a, b); missing: b; not in the template: c`,
    );
    expectDefinitionError(
      () =>
        registry.defineTemplate(
          { uriTemplate: 'users://{a}', variables: { type: 'object' } },
          'u',
          'Users.user',
          target,
        ),
      `${label}: the variables schema must declare exactly the template's variables (a); missing: a`,
    );
  });

  it.each([
    ['a schema that is not of an object', { type: 'string' }],
    ['a schema without a type', { properties: { id: {} } }],
    ['an array', [{ type: 'object' }]],
    ['a string', 'UserVariables'],
  ])('refuses %s as variables', (_case, variables) => {
    const registry = registryWithoutSessions();
    expectDefinitionError(
      () =>
        registry.defineTemplate(
          { uriTemplate: 'users://{id}', variables: variables as unknown as McpResourceTemplateOptions['variables'] },
          'user',
          'Users.user',
          target,
        ),
      `${label}: variables must be a DTO class or a JSON Schema object with type "object"`,
    );
  });

  it('uses the schemas it is given (one converter per application)', () => {
    const schemas = new McpSchemas();
    const toSchema = jest.spyOn(schemas.converter, 'toSchema');
    const registry = new McpResourceRegistry({ all: () => [] } as unknown as McpSessionRegistry, schemas);
    registry.defineTemplate({ uriTemplate: 'users://{id}', variables: UserVariables }, 'user', 'Users.user', target);
    expect(toSchema).toHaveBeenCalledWith(UserVariables);
  });
});

describe('McpResourceRegistry: checking the variables', () => {
  it('without a schema, passes the matched variables through as they are', async () => {
    const registry = registryWithoutSessions();
    const defined = registry.defineTemplate({ uriTemplate: 'files://x{/segs*}' }, 'f', 'Files.f', target);
    const variables = { segs: ['a', 'b'] };
    const check = await defined.checkVariables(variables);
    expect(check).toEqual({ ok: true, value: variables });
    expect((check as { value: unknown }).value).toBe(variables);
  });

  it('with a DTO, converts the strings (@Type(() => Number)) into an instance', async () => {
    const registry = registryWithoutSessions();
    const defined = registry.defineTemplate(
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
    const registry = registryWithoutSessions();
    const defined = registry.defineTemplate(
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
    const registry = registryWithoutSessions();
    const defined = registry.defineTemplate(
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
    const registry = registryWithoutSessions();
    const defined = registry.defineTemplate(
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

describe('McpResourceRegistry: completers', () => {
  const handlerCompleter: ItemCompleter = {
    kind: 'handler',
    handler: { owner: 'Completions.city', target },
  };

  it('builds the completers of the complete option, filtered by prefix', async () => {
    const registry = registryWithoutSessions();
    const defined = registry.defineTemplate(
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
    const registry = registryWithoutSessions();
    expectDefinitionError(
      () =>
        registry.defineTemplate(
          { uriTemplate: 'weather://{city}', complete: { town: ['x'] } },
          'f',
          'Weather.f',
          target,
        ),
      '@McpResourceTemplate() on Weather.f: complete.town names no argument (it has: city)',
    );
  });

  it('derives a completer from an enum of the DTO, replaceable by addCompleter', async () => {
    const registry = registryWithoutSessions();
    const defined = registry.defineTemplate(
      { uriTemplate: 'weather://{city}{?units}', variables: ForecastVariables },
      'f',
      'Weather.f',
      target,
    );
    const auto = defined.completers.get('units') as Extract<ItemCompleter, { kind: 'function' }>;
    expect(auto.auto).toBe(true);
    expect(await auto.complete(completion('IM'), {} as McpContext)).toEqual(['imperial']);
    expect(defined.completers.has('city')).toBe(false);
    registry.addCompleter('weather://{city}{?units}', 'units', handlerCompleter, '@McpCompletion() on C.units');
    expect(defined.completers.get('units')).toBe(handlerCompleter);
    expectDefinitionError(
      () => registry.addCompleter('weather://{city}{?units}', 'units', handlerCompleter, '@McpCompletion() on D.units'),
      '@McpCompletion() on D.units: variable units of weather://{city}{?units} has a completer already',
    );
  });

  it('adds a completer for a variable that has none', () => {
    const registry = registryWithoutSessions();
    const defined = registry.defineTemplate({ uriTemplate: 'weather://{city}' }, 'f', 'Weather.f', target);
    registry.addCompleter('weather://{city}', 'city', handlerCompleter, '@McpCompletion() on C.city');
    expect(defined.completers.get('city')).toBe(handlerCompleter);
  });

  it('refuses a completer for an unknown template, an unknown variable, or one with an explicit completer', () => {
    const registry = registryWithoutSessions();
    registry.defineTemplate(
      { uriTemplate: 'weather://{city}{?units}', complete: { city: () => ['Paris'] } },
      'f',
      'Weather.f',
      target,
    );
    const label = '@McpCompletion() on C.x';
    expectDefinitionError(
      () => registry.addCompleter('weather://{town}', 'town', handlerCompleter, label),
      `${label}: there is no resource template weather://{town}`,
    );
    expectDefinitionError(
      () => registry.addCompleter('weather://{city}{?units}', 'country', handlerCompleter, label),
      `${label}: resource template weather://{city}{?units} has no variable country`,
    );
    expectDefinitionError(
      () => registry.addCompleter('weather://{city}{?units}', 'city', handlerCompleter, label),
      `${label}: variable city of weather://{city}{?units} has a completer already`,
    );
  });
});

describe('McpResourceRegistry.changes', () => {
  let subscription: Subscription | undefined;

  afterEach(() => {
    subscription?.unsubscribe();
    subscription = undefined;
  });

  function watch(registry: McpResourceRegistry): () => number {
    let emitted = 0;
    subscription = registry.changes.subscribe(() => emitted++);
    return () => emitted;
  }

  it('emits once for a burst of resource changes, after the burst', async () => {
    const registry = registryWithoutSessions();
    const count = watch(registry);
    registry.addResource({ uri: 'docs://a', name: 'a' }, () => 'a');
    registry.addResource({ uri: 'docs://b', name: 'b' }, () => 'b');
    registry.removeResource('docs://a');
    expect(count()).toBe(0);
    await Promise.resolve();
    expect(count()).toBe(1);
    registry.removeResource('docs://b');
    await Promise.resolve();
    expect(count()).toBe(2);
  });

  it('emits once for a burst of template changes', async () => {
    const registry = registryWithoutSessions();
    const count = watch(registry);
    registry.addResourceTemplate({ uriTemplate: 'a://{x}', name: 'a' }, () => 'a');
    registry.addResourceTemplate({ uriTemplate: 'b://{x}', name: 'b' }, () => 'b');
    await Promise.resolve();
    expect(count()).toBe(1);
  });

  it('does not emit for what changes nothing: a failed add, removing what is not there', async () => {
    const registry = registryWithoutSessions();
    registry.addResource({ uri: 'docs://a', name: 'a' }, () => 'a');
    await Promise.resolve();
    const count = watch(registry);
    expect(() => registry.addResource({ uri: 'docs://a', name: 'a' }, () => 'a')).toThrow(McpDefinitionError);
    expect(() => registry.addResource({ uri: 'bad', name: 'b' }, () => 'b')).toThrow(McpDefinitionError);
    registry.removeResource('docs://none');
    registry.removeResourceTemplate('none://{x}');
    await Promise.resolve();
    expect(count()).toBe(0);
  });

  // One burst should be one notifications/resources/list_changed. The resources and the templates
  // each debounce on their own, and `changes` merges the two streams: a burst touching both emits
  // twice, so every session with a GET stream is told twice.
  it('emits once for a burst that changes both resources and templates', async () => {
    const registry = registryWithoutSessions();
    const count = watch(registry);
    registry.addResource({ uri: 'docs://a', name: 'a' }, () => 'a');
    registry.addResourceTemplate({ uriTemplate: 'docs://{x}', name: 'x' }, () => 'x');
    await new Promise((resolve) => setImmediate(resolve));
    expect(count()).toBe(1);
  });
});

describe('McpResourceRegistry.notifyUpdated', () => {
  let sessions: McpSessionRegistry;

  beforeEach(() => {
    sessions = new McpSessionRegistry(resolveMcpOptions({ name: 'server', version: '1.0.0' }));
  });

  afterEach(() => {
    sessions.onModuleDestroy();
    jest.restoreAllMocks();
  });

  function notifications(session: McpSession): jest.Mock<McpSession['notify']> {
    return jest.spyOn(session, 'notify') as unknown as jest.Mock<McpSession['notify']>;
  }

  it('notifies only the sessions subscribed to the URI, and returns how many', () => {
    const registry = new McpResourceRegistry(sessions);
    const subscribed = sessions.create(handshake);
    const alsoSubscribed = sessions.create(handshake);
    const other = sessions.create(handshake);
    const idle = sessions.create(handshake);
    expect(subscribed.subscribe('docs://readme')).toBe(true);
    expect(alsoSubscribed.subscribe('docs://readme')).toBe(true);
    expect(other.subscribe('docs://other')).toBe(true);
    const spies = [subscribed, alsoSubscribed, other, idle].map(notifications);

    expect(registry.notifyUpdated('docs://readme')).toBe(2);

    expect(spies[0]!.mock.calls).toEqual([['notifications/resources/updated', { uri: 'docs://readme' }]]);
    expect(spies[1]!.mock.calls).toEqual([['notifications/resources/updated', { uri: 'docs://readme' }]]);
    expect(spies[2]).not.toHaveBeenCalled();
    expect(spies[3]).not.toHaveBeenCalled();
    // Without a GET stream the notification waits in the session's backlog.
    expect(subscribed.undeliveredMessages).toBe(1);
    expect(other.undeliveredMessages).toBe(0);
  });

  it('matches the URI exactly', () => {
    const registry = new McpResourceRegistry(sessions);
    const session = sessions.create(handshake);
    session.subscribe('users://42');
    const spy = notifications(session);
    expect(registry.notifyUpdated('users://4')).toBe(0);
    expect(registry.notifyUpdated('users://420')).toBe(0);
    expect(registry.notifyUpdated('USERS://42')).toBe(0);
    expect(spy).not.toHaveBeenCalled();
    expect(registry.notifyUpdated('users://42')).toBe(1);
  });

  it('notifies whether or not the URI is still served (the registry does not check it)', () => {
    const registry = new McpResourceRegistry(sessions);
    const session = sessions.create(handshake);
    session.subscribe('docs://gone');
    expect(registry.hasResource('docs://gone')).toBe(false);
    expect(registry.notifyUpdated('docs://gone')).toBe(1);
  });

  it('stops notifying after unsubscribe', () => {
    const registry = new McpResourceRegistry(sessions);
    const session = sessions.create(handshake);
    session.subscribe('docs://readme');
    session.unsubscribe('docs://readme');
    expect(registry.notifyUpdated('docs://readme')).toBe(0);
    expect(session.undeliveredMessages).toBe(0);
  });

  it('does not notify or count a session that ended', () => {
    const registry = new McpResourceRegistry(sessions);
    const ending = sessions.create(handshake);
    const live = sessions.create(handshake);
    ending.subscribe('docs://readme');
    live.subscribe('docs://readme');
    ending.end('deleted');
    expect(registry.notifyUpdated('docs://readme')).toBe(1);
    expect(live.undeliveredMessages).toBe(1);
    expect(ending.undeliveredMessages).toBe(0);
  });

  it('does not count an ended session even when something still lists it', () => {
    const ended = sessions.create(handshake);
    const live = sessions.create(handshake);
    ended.subscribe('docs://readme');
    live.subscribe('docs://readme');
    ended.end('deleted');
    const registry = new McpResourceRegistry({ all: () => [ended, live] } as unknown as McpSessionRegistry);
    expect(registry.notifyUpdated('docs://readme')).toBe(1);
  });

  it('returns 0 when there are no sessions', () => {
    expect(new McpResourceRegistry(sessions).notifyUpdated('docs://readme')).toBe(0);
  });
});

describe('McpResourceRegistry: disable / enable', () => {
  it('hides a resource or a template from resolution until enabled again', async () => {
    const registry = registryWithoutSessions();
    registry.addResource({ uri: 'docs://a', name: 'a' }, () => 'a');
    registry.addResourceTemplate({ uriTemplate: 'docs://t/{id}', name: 't' }, () => 't');
    await Promise.resolve();
    let changes = 0;
    const subscription = registry.changes.subscribe(() => changes++);
    expect(registry.disable('docs://a')).toBe(true);
    expect(registry.disable('docs://t/{id}')).toBe(true);
    await Promise.resolve();
    expect(changes).toBe(1);
    expect(registry.resolve('docs://a')).toBeUndefined();
    expect(registry.resolve('docs://t/1')).toBeUndefined();
    expect(registry.hasResource('docs://a')).toBe(false);
    expect(registry.hasResourceTemplate('docs://t/{id}')).toBe(false);
    expect(registry.enable('docs://a')).toBe(true);
    expect(registry.enable('docs://t/{id}')).toBe(true);
    expect(registry.resolve('docs://a')?.kind).toBe('resource');
    expect(registry.resolve('docs://t/1')).toMatchObject({ kind: 'template', variables: { id: '1' } });
    expect(registry.disable('docs://none')).toBe(false);
    expect(registry.enable('docs://none')).toBe(false);
    subscription.unsubscribe();
  });
});
