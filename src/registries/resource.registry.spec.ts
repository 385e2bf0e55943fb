import { BufferBudget } from '../session/buffer-budget.js';
import 'reflect-metadata';
import { jest } from '@jest/globals';
import type { Subscription } from 'rxjs';
import { McpDefinitionError } from '../errors/mcp-definition.error.js';
import type { Invocation } from '../execution/invocation.js';
import type { PipelineTarget } from '../execution/pipeline-target.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import { resolveMcpOptions } from '../mcp-options.defaults.js';
import type { Handshake } from '../protocol/initialize.js';
import { Schemas } from '../schemas/schemas.js';
import type { ClientSession } from '../session/client-session.js';
import { SessionStore } from '../session/session.store.js';
import { SharedSessions } from '../session/shared-sessions.js';
import { InProcessChangeBus } from '../notifications/in-process-change-bus.js';
import { SessionFanout } from '../notifications/session-fanout.js';
import type { RegisteredResource, RegisteredResourceTemplate } from '../resources/registered-resource.interface.js';
import { ResourceStore } from '../resources/resource.store.js';
import { McpResourceTemplateRegistry } from './resource-template.registry.js';
import { McpResourceRegistry } from './resource.registry.js';
import { thrownBy } from '../../test/utils/thrown.js';

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
  guarded: false,
  canActivate: () => Promise.resolve(true),
  execute: () => Promise.resolve('content'),
  reportsErrors: false,
};
const target = (): PipelineTarget => noopTarget;

/** Both resource registries over a fresh store, and the store, as the module wires them. */
interface ResourceItems {
  readonly store: ResourceStore;
  readonly resources: McpResourceRegistry;
  readonly templates: McpResourceTemplateRegistry;
}

/** Registries whose changes reach `sessions` as in the module: through a change bus and the session fan-out. */
function resourcesWith(sessions: SessionStore, schemas = new Schemas()): ResourceItems {
  const store = new ResourceStore(schemas);
  const templates = new McpResourceTemplateRegistry(store);
  const bus = new InProcessChangeBus();
  new SessionFanout(sessions, bus).onApplicationBootstrap();
  return { store, templates, resources: new McpResourceRegistry(store, bus) };
}

/** Registries whose sessions are never used: the methods under test do not reach them. */
function registryWithoutSessions(): ResourceItems {
  return resourcesWith({ all: () => [] } as unknown as SessionStore);
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
  return pipeline.execute([{ url: '/mcp' }, undefined, undefined, invocation as unknown as Invocation]);
}

function expectDefinitionError(build: () => unknown, message: string): void {
  const error = thrownBy(build);
  expect(error).toBeInstanceOf(McpDefinitionError);
  expect(error.message).toBe(message);
}

describe('McpResourceRegistry: resources', () => {
  it('defines a resource from decorator options and finds it by URI', () => {
    const items = registryWithoutSessions();
    const defined = items.store.define(
      { uri: 'docs://readme', mimeType: 'text/markdown' },
      'readme',
      'Docs.readme',
      target,
    );
    expect(defined.definition).toEqual({ uri: 'docs://readme', name: 'readme', mimeType: 'text/markdown' });
    expect(defined.owner).toBe('Docs.readme');
    expect(defined.target).toBe(target);
    expect(items.resources.size).toBe(1);
    expect(items.templates.size).toBe(0);
    expect(items.resources.isEnabled('docs://readme')).toBe(true);
    expect(items.resources.isEnabled('docs://other')).toBe(false);
    expect(items.store.resolve('docs://readme')).toEqual({ kind: 'resource', resource: defined });
  });

  it('labels definition errors with the decorator and owner', () => {
    const items = registryWithoutSessions();
    expectDefinitionError(
      () => items.store.define({ uri: 'readme' }, 'readme', 'Docs.readme', target),
      '@McpResource() on Docs.readme: uri "readme" is not an absolute URI (scheme:..., at most 8192 characters)',
    );
    expect(items.resources.size).toBe(0);
  });

  it('refuses a URI served twice, naming both owners, and keeps the first', () => {
    const items = registryWithoutSessions();
    const first = items.store.define({ uri: 'docs://readme' }, 'readme', 'Docs.readme', target);
    expectDefinitionError(
      () => items.store.define({ uri: 'docs://readme', name: 'other' }, 'other', 'Other.readme', target),
      'Resource URI docs://readme is served twice: by Docs.readme and by Other.readme',
    );
    expectDefinitionError(
      () => items.resources.add({ uri: 'docs://readme', name: 'again' }, () => 'x'),
      'Resource URI docs://readme is served twice: by Docs.readme and by runtime resource docs://readme',
    );
    expect(items.resources.size).toBe(1);
    expect(items.store.resolve('docs://readme')).toEqual({ kind: 'resource', resource: first });
  });

  it('add serves a handler called with {}, the context and the URI read', async () => {
    const items = registryWithoutSessions();
    const calls: unknown[][] = [];
    items.resources.add({ uri: 'docs://changelog', name: 'changelog', title: 'Changelog' }, (args, context, uri) => {
      calls.push([args, context, uri]);
      return 'v1';
    });
    const resolved = items.store.resolve('docs://changelog');
    expect(resolved?.kind).toBe('resource');
    const resource = (resolved as { resource: RegisteredResource }).resource;
    expect(resource.definition).toEqual({ uri: 'docs://changelog', name: 'changelog', title: 'Changelog' });
    expect(resource.owner).toBe('runtime resource docs://changelog');
    const context = { sessionId: 's1' } as McpContext;
    expect(await read(resource, {}, 'docs://changelog', context)).toBe('v1');
    expect(calls).toEqual([[{}, context, 'docs://changelog']]);
    expect(calls[0]![1]).toBe(context);
  });

  it('add keeps the timeout and labels errors as a runtime resource', () => {
    const items = registryWithoutSessions();
    items.resources.add({ uri: 'docs://slow', name: 'slow', timeoutMs: 250 }, () => 'x');
    const resolved = items.store.resolve('docs://slow') as { resource: RegisteredResource };
    expect(resolved.resource.timeoutMs).toBe(250);
    expectDefinitionError(
      () => items.resources.add({ uri: 'docs://bad', name: '' }, () => 'x'),
      'runtime resource docs://bad: name must be 1 to 1024 characters',
    );
  });

  it('add refuses a handler that is not a function', () => {
    const items = registryWithoutSessions();
    expectDefinitionError(
      () => items.resources.add({ uri: 'docs://x', name: 'x' }, 'text' as unknown as () => string),
      'McpResourceRegistry.add(docs://x): handler must be a function',
    );
    expect(items.resources.isEnabled('docs://x')).toBe(false);
  });

  it('removeResource stops serving a URI, says whether there was one, and frees it', () => {
    const items = registryWithoutSessions();
    items.resources.add({ uri: 'docs://a', name: 'a' }, () => 'a');
    expect(items.resources.remove('docs://a')).toBe(true);
    expect(items.resources.isEnabled('docs://a')).toBe(false);
    expect(items.store.resolve('docs://a')).toBeUndefined();
    expect(items.resources.size).toBe(0);
    expect(items.resources.remove('docs://a')).toBe(false);
    expect(items.resources.remove('docs://never')).toBe(false);
    expect(() => items.resources.add({ uri: 'docs://a', name: 'a' }, () => 'again')).not.toThrow();
  });

  it('pages the served resources in registration order, hiding those the caller may not see', async () => {
    const items = registryWithoutSessions();
    for (const name of ['a', 'b', 'c']) items.resources.add({ uri: `docs://${name}`, name }, () => name);
    const first = await items.store.resources.page(undefined, 2, (resource) => resource.definition.name !== 'b');
    expect(first.page.map((resource) => resource.definition.uri)).toEqual(['docs://a', 'docs://c']);
    expect(first.nextCursor).toBeUndefined();
    const small = await items.store.resources.page(undefined, 1, () => true);
    expect(small.page.map((resource) => resource.definition.uri)).toEqual(['docs://a']);
    expect(small.nextCursor).toEqual(expect.any(String));
    const next = await items.store.resources.page(small.nextCursor, 1, () => true);
    expect(next.page.map((resource) => resource.definition.uri)).toEqual(['docs://b']);
  });
});

describe('McpResourceRegistry: templates', () => {
  it('defines a template from decorator options, its compiled template included', () => {
    const items = registryWithoutSessions();
    const defined = items.store.defineTemplate(
      { uriTemplate: 'users://{id}', description: 'A user' },
      'user',
      'Users.user',
      target,
    );
    expect(defined.definition).toEqual({ uriTemplate: 'users://{id}', name: 'user', description: 'A user' });
    expect(defined.template.variables).toEqual(['id']);
    expect(defined.owner).toBe('Users.user');
    expect(defined.completers.size).toBe(0);
    expect(items.templates.size).toBe(1);
    expect(items.resources.size).toBe(0);
    expect(items.templates.isEnabled('users://{id}')).toBe(true);
    expect(items.store.templates.get('users://{id}')).toBe(defined);
    expect(items.store.templates.get('users://{name}')).toBeUndefined();
  });

  it('resolves a matching URI to the template and its variables', () => {
    const items = registryWithoutSessions();
    const defined = items.store.defineTemplate({ uriTemplate: 'users://{id}' }, 'user', 'Users.user', target);
    expect(items.store.resolve('users://42')).toEqual({ kind: 'template', template: defined, variables: { id: '42' } });
    expect(items.store.resolve('users://a%2Fb')).toEqual({
      kind: 'template',
      template: defined,
      variables: { id: 'a/b' },
    });
    expect(items.store.resolve('users://4/2')).toBeUndefined();
    expect(items.store.resolve('users://%C3')).toBeUndefined();
    expect(items.store.resolve('posts://42')).toBeUndefined();
  });

  it('refuses a URI template served twice, naming both owners', () => {
    const items = registryWithoutSessions();
    items.store.defineTemplate({ uriTemplate: 'users://{id}' }, 'user', 'Users.user', target);
    expectDefinitionError(
      () => items.store.defineTemplate({ uriTemplate: 'users://{id}' }, 'again', 'Other.user', target),
      'Resource template users://{id} is served twice: by Users.user and by Other.user',
    );
    expectDefinitionError(
      () => items.templates.add({ uriTemplate: 'users://{id}', name: 'x' }, () => 'x'),
      'Resource template users://{id} is served twice: by Users.user and by runtime resource template users://{id}',
    );
    expect(items.templates.size).toBe(1);
  });

  it('labels template definition errors with the decorator and owner', () => {
    const items = registryWithoutSessions();
    expectDefinitionError(
      () => items.store.defineTemplate({ uriTemplate: 'users://{id' }, 'user', 'Users.user', target),
      '@McpResourceTemplate() on Users.user: uriTemplate "users://{id" is not a valid RFC 6570 URI template: Unclosed expression: Expected "}" but found end of template',
    );
    expect(items.templates.size).toBe(0);
  });

  it('McpResourceTemplateRegistry.add serves a handler called with the variables, the context and the URI', async () => {
    const items = registryWithoutSessions();
    const calls: unknown[][] = [];
    items.templates.add({ uriTemplate: 'files:///{+path}', name: 'files' }, (variables, context, uri) => {
      calls.push([variables, context, uri]);
      return 'file';
    });
    const resolved = items.store.resolve('files:///a/b.txt');
    expect(resolved).toMatchObject({ kind: 'template', variables: { path: 'a/b.txt' } });
    const template = (resolved as { template: RegisteredResourceTemplate }).template;
    expect(template.owner).toBe('runtime resource template files:///{+path}');
    const context = { sessionId: 's1' } as McpContext;
    expect(await read(template, { path: 'a/b.txt' }, 'files:///a/b.txt', context)).toBe('file');
    expect(calls).toEqual([[{ path: 'a/b.txt' }, context, 'files:///a/b.txt']]);
  });

  it('McpResourceTemplateRegistry.add refuses a handler that is not a function', () => {
    const items = registryWithoutSessions();
    expectDefinitionError(
      () => items.templates.add({ uriTemplate: 'users://{id}', name: 'u' }, null as unknown as () => string),
      'McpResourceTemplateRegistry.add(users://{id}): handler must be a function',
    );
    expect(items.templates.isEnabled('users://{id}')).toBe(false);
  });

  it('removeResourceTemplate stops serving a template and says whether there was one', () => {
    const items = registryWithoutSessions();
    items.templates.add({ uriTemplate: 'users://{id}', name: 'u' }, () => 'u');
    expect(items.templates.remove('users://{id}')).toBe(true);
    expect(items.templates.isEnabled('users://{id}')).toBe(false);
    expect(items.store.templates.get('users://{id}')).toBeUndefined();
    expect(items.store.resolve('users://1')).toBeUndefined();
    expect(items.templates.size).toBe(0);
    expect(items.templates.remove('users://{id}')).toBe(false);
  });

  it('pages the served templates', async () => {
    const items = registryWithoutSessions();
    items.templates.add({ uriTemplate: 'a://{x}', name: 'a' }, () => 'a');
    items.templates.add({ uriTemplate: 'b://{x}', name: 'b' }, () => 'b');
    const { page, nextCursor } = await items.store.templates.page(undefined, 10, (t) => t.definition.name === 'b');
    expect(page.map((t) => t.definition.uriTemplate)).toEqual(['b://{x}']);
    expect(nextCursor).toBeUndefined();
  });
});

describe('McpResourceRegistry.changes', () => {
  let subscription: Subscription | undefined;

  afterEach(() => {
    subscription?.unsubscribe();
    subscription = undefined;
  });

  function watch(items: ResourceItems): () => number {
    let emitted = 0;
    subscription = items.resources.changes.subscribe(() => emitted++);
    return () => emitted;
  }

  it('emits once for a burst of resource changes, after the burst', async () => {
    const items = registryWithoutSessions();
    const count = watch(items);
    items.resources.add({ uri: 'docs://a', name: 'a' }, () => 'a');
    items.resources.add({ uri: 'docs://b', name: 'b' }, () => 'b');
    items.resources.remove('docs://a');
    expect(count()).toBe(0);
    await Promise.resolve();
    expect(count()).toBe(1);
    items.resources.remove('docs://b');
    await Promise.resolve();
    expect(count()).toBe(2);
  });

  it('emits once for a burst of template changes', async () => {
    const items = registryWithoutSessions();
    const count = watch(items);
    items.templates.add({ uriTemplate: 'a://{x}', name: 'a' }, () => 'a');
    items.templates.add({ uriTemplate: 'b://{x}', name: 'b' }, () => 'b');
    await Promise.resolve();
    expect(count()).toBe(1);
  });

  it('does not emit for what changes nothing: a failed add, removing what is not there', async () => {
    const items = registryWithoutSessions();
    items.resources.add({ uri: 'docs://a', name: 'a' }, () => 'a');
    await Promise.resolve();
    const count = watch(items);
    expect(() => items.resources.add({ uri: 'docs://a', name: 'a' }, () => 'a')).toThrow(McpDefinitionError);
    expect(() => items.resources.add({ uri: 'bad', name: 'b' }, () => 'b')).toThrow(McpDefinitionError);
    items.resources.remove('docs://none');
    items.templates.remove('none://{x}');
    await Promise.resolve();
    expect(count()).toBe(0);
  });

  // One burst should be one notifications/resources/list_changed. The resources and the templates
  // each debounce on their own, and `changes` merges the two streams: a burst touching both emits
  // twice, so every session with a GET stream is told twice.
  it('emits once for a burst that changes both resources and templates', async () => {
    const items = registryWithoutSessions();
    const count = watch(items);
    items.resources.add({ uri: 'docs://a', name: 'a' }, () => 'a');
    items.templates.add({ uriTemplate: 'docs://{x}', name: 'x' }, () => 'x');
    await new Promise((resolve) => setImmediate(resolve));
    expect(count()).toBe(1);
  });
});

describe('McpResourceRegistry.notifyUpdated', () => {
  let sessions: SessionStore;

  beforeEach(() => {
    const options = resolveMcpOptions({ name: 'server', version: '1.0.0' });
    sessions = new SessionStore(options, new SharedSessions(options), new BufferBudget(options.limits.bufferedChars));
  });

  afterEach(() => {
    sessions.onModuleDestroy();
    jest.restoreAllMocks();
  });

  function notifications(session: ClientSession): jest.Mock<ClientSession['notify']> {
    return jest.spyOn(session, 'notify') as unknown as jest.Mock<ClientSession['notify']>;
  }

  it('notifies only the sessions subscribed to the URI, and returns how many', () => {
    const items = resourcesWith(sessions);
    const subscribed = sessions.create(handshake);
    const alsoSubscribed = sessions.create(handshake);
    const other = sessions.create(handshake);
    const idle = sessions.create(handshake);
    expect(subscribed.subscribe('docs://readme')).toBe(true);
    expect(alsoSubscribed.subscribe('docs://readme')).toBe(true);
    expect(other.subscribe('docs://other')).toBe(true);
    const spies = [subscribed, alsoSubscribed, other, idle].map(notifications);

    expect(items.resources.notifyUpdated('docs://readme')).toBe(2);

    expect(spies[0]!.mock.calls).toEqual([['notifications/resources/updated', { uri: 'docs://readme' }]]);
    expect(spies[1]!.mock.calls).toEqual([['notifications/resources/updated', { uri: 'docs://readme' }]]);
    expect(spies[2]).not.toHaveBeenCalled();
    expect(spies[3]).not.toHaveBeenCalled();
    // Without a GET stream the notification waits in the session's backlog.
    expect(subscribed.undeliveredMessages).toBe(1);
    expect(other.undeliveredMessages).toBe(0);
  });

  it('matches the URI exactly', () => {
    const items = resourcesWith(sessions);
    const session = sessions.create(handshake);
    expect(session.subscribe('users://42')).toBe(true);
    const spy = notifications(session);
    expect(items.resources.notifyUpdated('users://4')).toBe(0);
    expect(items.resources.notifyUpdated('users://420')).toBe(0);
    expect(items.resources.notifyUpdated('USERS://42')).toBe(0);
    expect(spy).not.toHaveBeenCalled();
    expect(items.resources.notifyUpdated('users://42')).toBe(1);
  });

  it('notifies whether or not the URI is still served (the registry does not check it)', () => {
    const items = resourcesWith(sessions);
    const session = sessions.create(handshake);
    expect(session.subscribe('docs://gone')).toBe(true);
    expect(items.resources.isEnabled('docs://gone')).toBe(false);
    expect(items.resources.notifyUpdated('docs://gone')).toBe(1);
  });

  it('stops notifying after unsubscribe', () => {
    const items = resourcesWith(sessions);
    const session = sessions.create(handshake);
    expect(session.subscribe('docs://readme')).toBe(true);
    session.unsubscribe('docs://readme');
    expect(items.resources.notifyUpdated('docs://readme')).toBe(0);
    expect(session.undeliveredMessages).toBe(0);
  });

  it('does not notify or count a session that ended', () => {
    const items = resourcesWith(sessions);
    const ending = sessions.create(handshake);
    const live = sessions.create(handshake);
    expect(ending.subscribe('docs://readme')).toBe(true);
    expect(live.subscribe('docs://readme')).toBe(true);
    ending.end('deleted');
    expect(items.resources.notifyUpdated('docs://readme')).toBe(1);
    expect(live.undeliveredMessages).toBe(1);
    expect(ending.undeliveredMessages).toBe(0);
  });

  it('does not count an ended session even when something still lists it', () => {
    const ended = sessions.create(handshake);
    const live = sessions.create(handshake);
    expect(ended.subscribe('docs://readme')).toBe(true);
    expect(live.subscribe('docs://readme')).toBe(true);
    ended.end('deleted');
    const items = resourcesWith({ fanoutTargets: () => [ended, live] } as unknown as SessionStore);
    expect(items.resources.notifyUpdated('docs://readme')).toBe(1);
  });

  it('returns 0 when there are no sessions', () => {
    expect(resourcesWith(sessions).resources.notifyUpdated('docs://readme')).toBe(0);
  });
});

describe('McpResourceRegistry: disable / enable', () => {
  it('hides a resource or a template from resolution until enabled again', async () => {
    const items = registryWithoutSessions();
    items.resources.add({ uri: 'docs://a', name: 'a' }, () => 'a');
    items.templates.add({ uriTemplate: 'docs://t/{id}', name: 't' }, () => 't');
    await Promise.resolve();
    let changes = 0;
    const subscription = items.resources.changes.subscribe(() => changes++);
    expect(items.resources.disable('docs://a')).toBe(true);
    expect(items.templates.disable('docs://t/{id}')).toBe(true);
    await Promise.resolve();
    expect(changes).toBe(1);
    expect(items.store.resolve('docs://a')).toBeUndefined();
    expect(items.store.resolve('docs://t/1')).toBeUndefined();
    expect(items.resources.isEnabled('docs://a')).toBe(false);
    expect(items.templates.isEnabled('docs://t/{id}')).toBe(false);
    expect(items.resources.enable('docs://a')).toBe(true);
    expect(items.templates.enable('docs://t/{id}')).toBe(true);
    expect(items.store.resolve('docs://a')?.kind).toBe('resource');
    expect(items.store.resolve('docs://t/1')).toMatchObject({ kind: 'template', variables: { id: '1' } });
    expect(items.resources.disable('docs://none')).toBe(false);
    expect(items.resources.enable('docs://none')).toBe(false);
    subscription.unsubscribe();
  });
});

describe('McpResourceRegistry and McpResourceTemplateRegistry: the shared verbs', () => {
  it('has, isEnabled, get and list see registered items, disabled ones included, each registry its own kind', () => {
    const items = registryWithoutSessions();
    items.resources.add({ uri: 'docs://a', name: 'a' }, () => 'a');
    items.templates.add({ uriTemplate: 'docs://t/{id}', name: 't' }, () => 't');
    items.resources.disable('docs://a');
    items.templates.disable('docs://t/{id}');
    expect(items.resources.has('docs://a')).toBe(true);
    expect(items.resources.isEnabled('docs://a')).toBe(false);
    expect(items.resources.get('docs://a')).toMatchObject({ uri: 'docs://a', name: 'a' });
    expect(items.resources.list().map((resource) => resource.uri)).toEqual(['docs://a']);
    expect(items.templates.has('docs://t/{id}')).toBe(true);
    expect(items.templates.isEnabled('docs://t/{id}')).toBe(false);
    expect(items.templates.get('docs://t/{id}')).toMatchObject({ uriTemplate: 'docs://t/{id}', name: 't' });
    expect(items.templates.list().map((template) => template.uriTemplate)).toEqual(['docs://t/{id}']);
    // Each registry answers for its own kind only.
    expect(items.resources.has('docs://t/{id}')).toBe(false);
    expect(items.templates.has('docs://a')).toBe(false);
    expect(items.templates.enable('docs://a')).toBe(false);
    expect(items.resources.size).toBe(1);
    expect(items.templates.size).toBe(1);
  });
});

describe('McpResourceRegistry: resources only', () => {
  it("disable and enable take resource URIs: a template's URI template is refused, naming the registry to use", () => {
    const items = registryWithoutSessions();
    items.templates.add({ uriTemplate: 'docs://t/{id}', name: 't' }, () => 't');
    expect(() => items.resources.disable('docs://t/{id}')).toThrow(
      'McpResourceRegistry.disable(docs://t/{id}) names a resource template: use McpResourceTemplateRegistry.disable()',
    );
    expect(items.templates.isEnabled('docs://t/{id}')).toBe(true);
    expect(() => items.resources.enable('docs://t/{id}')).toThrow(/use McpResourceTemplateRegistry\.enable\(\)/);
    expect(items.resources.disable('docs://none')).toBe(false);
  });

  it('cannot be made by hand: it says where a registry comes from', () => {
    const construct = McpResourceRegistry as unknown as new () => McpResourceRegistry;
    expect(() => new construct()).toThrow('McpResourceRegistry is made by McpModule: inject it');
  });
});
