import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { McpResourceOptions, McpResourceTemplateOptions } from '../interfaces/mcp-resource-options.interface.js';
import { MAX_URI_LENGTH } from '../protocol/uri.js';
import { buildResourceDefinition, buildTemplateDefinition } from './resource-definition.factory.js';
import { UriTemplate } from './uri-template.js';
import { thrownBy } from '../../test/utils/thrown.js';
import { ListResourcesResultSchema } from '@modelcontextprotocol/sdk/types.js';

const LABEL = '@McpResource() on Docs.readme';
const TEMPLATE_LABEL = '@McpResourceTemplate() on Users.byId';

function resource(options: Partial<McpResourceOptions> & Record<string, unknown>, defaultName = 'readme') {
  return buildResourceDefinition({ uri: 'docs://readme', ...options } as McpResourceOptions, defaultName, LABEL);
}

function template(options: Partial<McpResourceTemplateOptions> & Record<string, unknown>, defaultName = 'byId') {
  return buildTemplateDefinition(
    { uriTemplate: 'users://{id}', ...options } as McpResourceTemplateOptions,
    defaultName,
    TEMPLATE_LABEL,
  );
}

function expectDefinitionError(build: () => unknown, message: string): void {
  const error = thrownBy(build);
  expect(error).toBeInstanceOf(McpDefinitionError);
  expect(error.name).toBe('McpDefinitionError');
  expect(error.message).toBe(message);
}

function isDeepFrozen(value: unknown): boolean {
  if (value === null || typeof value !== 'object') return true;
  return Object.isFrozen(value) && Object.values(value).every(isDeepFrozen);
}

describe('buildResourceDefinition', () => {
  it('keeps only the uri and the name when nothing else is given: optional fields absent, not undefined', () => {
    const definition = resource({});
    expect(definition).toEqual({ uri: 'docs://readme', name: 'readme' });
    expect(Object.keys(definition)).toEqual(['uri', 'name']);
  });

  it('defaults the name to the method name, and prefers an explicit one', () => {
    expect(resource({}, 'readMe').name).toBe('readMe');
    expect(resource({ name: 'project-readme' }, 'readMe').name).toBe('project-readme');
  });

  it('copies every advertised field, and leaves timeoutMs out of the definition', () => {
    const definition = resource({
      name: 'readme',
      title: 'README',
      description: 'The project README',
      mimeType: 'text/markdown; charset=utf-8',
      size: 0,
      annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-01-12T15:00:58Z' },
      icons: [{ src: 'https://example.com/icon.png', sizes: ['48x48'] }],
      _meta: { 'example.com/owner': { team: 'docs' } },
      timeoutMs: 5_000,
    });
    expect(definition).toEqual({
      uri: 'docs://readme',
      name: 'readme',
      title: 'README',
      description: 'The project README',
      mimeType: 'text/markdown; charset=utf-8',
      size: 0,
      annotations: { audience: ['user'], priority: 0.5, lastModified: '2025-01-12T15:00:58Z' },
      icons: [{ src: 'https://example.com/icon.png', sizes: ['48x48'] }],
      _meta: { 'example.com/owner': { team: 'docs' } },
    });
    expect('timeoutMs' in definition).toBe(false);
  });

  it('keeps only the annotations clients understand', () => {
    const definition = resource({ annotations: { priority: 1, colour: 'red' } as McpResourceOptions['annotations'] });
    expect(definition.annotations).toEqual({ priority: 1 });
  });

  it('freezes the definition all the way down, detached from the options', () => {
    const options = {
      uri: 'docs://readme',
      annotations: { audience: ['user' as const] },
      icons: [{ src: 'https://example.com/icon.png', sizes: ['48x48'] }],
      _meta: { nested: { list: [1, 2] } },
    };
    const definition = buildResourceDefinition(options, 'readme', LABEL);
    expect(isDeepFrozen(definition)).toBe(true);
    expect(Object.isFrozen(options)).toBe(false);
    expect(Object.isFrozen(options._meta.nested.list)).toBe(false);
    options._meta.nested.list.push(3);
    options.icons[0]!.sizes.push('any');
    expect(definition._meta).toEqual({ nested: { list: [1, 2] } });
    expect(definition.icons).toEqual([{ src: 'https://example.com/icon.png', sizes: ['48x48'] }]);
  });

  it.each(['weather://cities', 'file:///README.md', 'urn:isbn:0451450523', 'a:', 'docs://caf\u00e9'])(
    'accepts the absolute URI %s',
    (uri) => {
      expect(resource({ uri }).uri).toBe(uri);
    },
  );

  it.each([
    ['a relative path', 'readme.md'],
    ['an empty string', ''],
    ['a scheme starting with a digit', '1docs://readme'],
    ['whitespace', 'docs://read me'],
    ['a control character', 'docs://read\u0000me'],
    ['one character too many', `docs://${'a'.repeat(MAX_URI_LENGTH - 'docs://'.length + 1)}`],
  ])('refuses a URI with %s', (_case, uri) => {
    expectDefinitionError(
      () => resource({ uri }),
      `${LABEL}: uri ${JSON.stringify(uri)} is not an absolute URI (scheme:..., at most ${MAX_URI_LENGTH} characters)`,
    );
  });

  it('accepts a URI of exactly the maximum length', () => {
    const uri = `docs://${'a'.repeat(MAX_URI_LENGTH - 'docs://'.length)}`;
    expect(resource({ uri }).uri).toBe(uri);
  });

  it('refuses a URI that is not a string', () => {
    expectDefinitionError(
      () => resource({ uri: 42 as unknown as string }),
      `${LABEL}: uri 42 is not an absolute URI (scheme:..., at most ${MAX_URI_LENGTH} characters)`,
    );
  });

  it.each([-1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, '3'])('refuses the size %p', (size) => {
    expectDefinitionError(() => resource({ size: size as number }), `${LABEL}: size must be a whole number of bytes`);
  });

  it.each([
    ['empty', ''],
    ['blank', '   '],
    ['1025 characters long', 'n'.repeat(1025)],
    ['not a string', 7],
  ])('refuses a name that is %s', (_case, name) => {
    expectDefinitionError(() => resource({ name: name as string }), `${LABEL}: name must be 1 to 1024 characters`);
  });

  it('refuses an empty default name when no name is given', () => {
    expectDefinitionError(() => resource({}, ''), `${LABEL}: name must be 1 to 1024 characters`);
  });

  it('accepts a name of 1024 characters with any characters in it', () => {
    expect(resource({ name: 'n'.repeat(1024) }).name).toBe('n'.repeat(1024));
    expect(resource({ name: 'Project README (latest)' }).name).toBe('Project README (latest)');
  });

  it.each(['text', 'text/', '/plain', 'text plain', 'text/plain/extra'])('refuses the MIME type %p', (mimeType) => {
    expectDefinitionError(
      () => resource({ mimeType }),
      `${LABEL}: mimeType ${JSON.stringify(mimeType)} is not a MIME type`,
    );
  });

  it.each(['text/plain', 'application/vnd.api+json', 'image/svg+xml', 'text/plain;charset=utf-8'])(
    'accepts the MIME type %p',
    (mimeType) => {
      expect(resource({ mimeType }).mimeType).toBe(mimeType);
    },
  );

  it.each([0, -5, 1.5, 2 ** 31, '100'])('refuses the timeout %p', (timeoutMs) => {
    expectDefinitionError(
      () => resource({ timeoutMs: timeoutMs as number }),
      `${LABEL}: timeoutMs must be a whole number of milliseconds from 1 to ${2 ** 31 - 1}, got ${String(timeoutMs)}`,
    );
  });

  it('accepts the largest timeout Node honours', () => {
    expect(resource({ timeoutMs: 2 ** 31 - 1 })).toEqual({ uri: 'docs://readme', name: 'readme' });
  });

  it.each([
    [{ priority: 2 }, 'annotations.priority must be between 0 and 1, got 2'],
    [{ priority: 'high' }, 'annotations.priority must be a number, got string'],
    [{ audience: 'user' }, 'annotations.audience must be an array of roles'],
    [{ audience: ['system'] }, `annotations.audience holds "system": roles are 'user' and 'assistant'`],
    [
      { lastModified: 'yesterday' },
      'annotations.lastModified must be an ISO 8601 date-time with a time zone, such as 2025-01-12T15:00:58Z; got "yesterday"',
    ],
  ])('refuses the annotations %p', (annotations, reason) => {
    expectDefinitionError(
      () => resource({ annotations: annotations as McpResourceOptions['annotations'] }),
      `${LABEL}: ${reason}`,
    );
  });

  it('refuses annotations that are not an object', () => {
    expectDefinitionError(
      () => resource({ annotations: [] as unknown as McpResourceOptions['annotations'] }),
      `${LABEL}: annotations must be an object, got array`,
    );
  });

  it.each([
    [[{ src: 'https://example.com/a.png' }, { src: '' }], 'icons[1] needs a src URI'],
    [[{ mimeType: 'image/png' }], 'icons[0] needs a src URI'],
    [[null], 'icons[0] needs a src URI'],
    ['https://example.com/a.png', 'icons[0] needs a src URI'],
  ])('refuses the icons %p', (icons, reason) => {
    expectDefinitionError(() => resource({ icons: icons as McpResourceOptions['icons'] }), `${LABEL}: ${reason}`);
  });
});

describe('buildTemplateDefinition', () => {
  it('returns the frozen definition and the compiled template', () => {
    const { definition, template: compiled } = template({});
    expect(definition).toEqual({ uriTemplate: 'users://{id}', name: 'byId' });
    expect(Object.keys(definition)).toEqual(['uriTemplate', 'name']);
    expect(isDeepFrozen(definition)).toBe(true);
    expect(compiled).toBeInstanceOf(UriTemplate);
    expect(compiled.template).toBe('users://{id}');
    expect(compiled.variables).toEqual(['id']);
    expect(compiled.match('users://42')).toEqual({ id: '42' });
  });

  it('defaults the name to the method name, and copies every advertised field but timeoutMs', () => {
    const { definition } = template({
      uriTemplate: 'file:///{+path}',
      name: 'files',
      title: 'Files',
      description: 'Any file',
      mimeType: 'application/octet-stream',
      annotations: { audience: ['assistant'] },
      icons: [{ src: 'data:image/png;base64,AAAA', theme: 'dark' }],
      _meta: { a: 1 },
      timeoutMs: 10,
    });
    expect(definition).toEqual({
      uriTemplate: 'file:///{+path}',
      name: 'files',
      title: 'Files',
      description: 'Any file',
      mimeType: 'application/octet-stream',
      annotations: { audience: ['assistant'] },
      icons: [{ src: 'data:image/png;base64,AAAA', theme: 'dark' }],
      _meta: { a: 1 },
    });
    expect(isDeepFrozen(definition)).toBe(true);
    expect(template({}, 'userById').definition.name).toBe('userById');
  });

  it('advertises no size even when one is passed', () => {
    const { definition } = template({ size: 10 });
    expect('size' in definition).toBe(false);
  });

  it.each([
    ['empty', ''],
    ['not a string', 42],
    ['missing', undefined],
    ['longer than a URI may be', `users://${'a'.repeat(MAX_URI_LENGTH)}{id}`],
  ])('refuses a uriTemplate that is %s', (_case, uriTemplate) => {
    expectDefinitionError(
      () => template({ uriTemplate: uriTemplate as string }),
      `${TEMPLATE_LABEL}: uriTemplate must be an RFC 6570 URI template`,
    );
  });

  it.each([
    ['users://{id', 'Unclosed expression: Expected "}" but found end of template'],
    ['users://{!id}', 'Unknown expression operator: "!"'],
    ['users://{id}/{id}', 'variable id appears twice'],
    ['users://{__proto__}', 'variable name __proto__ is reserved'],
    ['users://{constructor}', 'variable name constructor is reserved'],
    ['users://{prototype}', 'variable name prototype is reserved'],
  ])('refuses the invalid template %s, with the reason', (uriTemplate, reason) => {
    expectDefinitionError(
      () => template({ uriTemplate }),
      `${TEMPLATE_LABEL}: uriTemplate ${JSON.stringify(uriTemplate)} is not a valid RFC 6570 URI template: ${reason}`,
    );
  });

  it.each(['{scheme}://x', '/users/{id}', '1users://{id}', 'users/{id}', '{+base}/users'])(
    'refuses %s: its expansions would not start with a scheme',
    (uriTemplate) => {
      expectDefinitionError(
        () => template({ uriTemplate }),
        `${TEMPLATE_LABEL}: uriTemplate must start with a scheme ("weather://{city}")`,
      );
    },
  );

  it.each(['weather:{city}', 'users://{id}{?fields}', 'file:///{+path}', 'config://app'])(
    'accepts %s',
    (uriTemplate) => {
      expect(template({ uriTemplate }).definition.uriTemplate).toBe(uriTemplate);
    },
  );

  it('checks the fields it shares with resources: name, MIME type, timeout, annotations, icons', () => {
    expectDefinitionError(() => template({ name: '' }), `${TEMPLATE_LABEL}: name must be 1 to 1024 characters`);
    expectDefinitionError(
      () => template({ mimeType: 'json' }),
      `${TEMPLATE_LABEL}: mimeType "json" is not a MIME type`,
    );
    expectDefinitionError(
      () => template({ timeoutMs: 0 }),
      `${TEMPLATE_LABEL}: timeoutMs must be a whole number of milliseconds from 1 to ${2 ** 31 - 1}, got 0`,
    );
    expectDefinitionError(
      () => template({ annotations: { priority: -1 } }),
      `${TEMPLATE_LABEL}: annotations.priority must be between 0 and 1, got -1`,
    );
    expectDefinitionError(() => template({ icons: [{ src: '' }] }), `${TEMPLATE_LABEL}: icons[0] needs a src URI`);
  });
});

describe('resource definitions: a field given as null', () => {
  // Was a bug, fixed (src/resources/resource-definition.factory.ts:92-103): the MIME type check lets `null` through
  // on purpose ("null is absent", as optionalText() does for title and description), but
  // `optional('mimeType', null)` keeps it, so the definition advertises `"mimeType": null`. The
  // reference SDK client then rejects the whole resources/list (and every read of it, whose contents
  // get the declared mimeType null). A runtime addResource() from a database row is the typical source.
  // Fix: `...optional('mimeType', options.mimeType ?? undefined)`.
  it('mimeType null is absent from the advertised definition', () => {
    const resource = buildResourceDefinition({ uri: 'db://row/1', mimeType: null } as never, 'row', 'runtime resource');
    expect(resource).toEqual({ uri: 'db://row/1', name: 'row' });
    expect(ListResourcesResultSchema.safeParse({ resources: [resource] }).success).toBe(true);
    const { definition } = buildTemplateDefinition(
      { uriTemplate: 'db://row/{id}', mimeType: null } as never,
      'rows',
      'runtime resource template',
    );
    expect(definition).toEqual({ uriTemplate: 'db://row/{id}', name: 'rows' });
  });
});

describe('buildTemplateDefinition: the length bound', () => {
  // The length bound comes before the parser: a template over MAX_URI_LENGTH is refused as such. (The
  // existing over-length case compiles for many minutes once the bound is loosened: a hang, not a failure.)
  it('refuses a template one character over MAX_URI_LENGTH before parsing it', () => {
    const uriTemplate = `users://{id${'a'.repeat(MAX_URI_LENGTH - 'users://{id'.length + 1)}`;
    expect(uriTemplate).toHaveLength(MAX_URI_LENGTH + 1);
    expect(() => buildTemplateDefinition({ uriTemplate }, 'byId', 'Users.byId')).toThrow(
      new McpDefinitionError('Users.byId: uriTemplate must be an RFC 6570 URI template'),
    );
  });
});
