/**
 * The testing kit (`mcp42/testing`): `createMcpTestClient()` against an application that is
 * initialised but does not listen, in both eras. Everything runs as over HTTP (endpoint and item
 * guards, pipes, interceptors, filters) but the Host/Origin check; handlers answer the tools that
 * ask the user; progress arrives while a call runs; several clients share one app; `close()` ends
 * the session.
 */
import type { INestApplication, ModuleMetadata } from '@nestjs/common';
import { FastifyAdapter } from '@nestjs/platform-fastify';
import type { Server } from 'node:http';
import { Test } from '@nestjs/testing';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { McpError, type Progress } from '@modelcontextprotocol/sdk/types.js';
import { McpSessionRegistry, McpToolRegistry, type McpModuleOptions } from '../../../src/index.js';
import {
  createMcpTestClient,
  McpHttpError,
  type McpTestClientOptions,
  type McpTestEra,
} from '../../../src/testing/index.js';
import { AUTHORIZED, BANNED_ROLE, KIT_CHALLENGE, kitApp, KitProbe, kitServersApp } from '../../fixtures/kit.fixture.js';
import { TEST_ADAPTER } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';

/** The kit's app, initialised and not listening, on the platform of the run. */
async function initialisedApp(
  options: Partial<McpModuleOptions> = {},
  metadata: ModuleMetadata = kitApp(options),
): Promise<INestApplication> {
  const moduleRef = await Test.createTestingModule(metadata).compile();
  const app =
    TEST_ADAPTER === 'fastify'
      ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
      : moduleRef.createNestApplication({ logger: false });
  await app.init();
  return app;
}

const textOf = (result: Awaited<ReturnType<Client['callTool']>>): string =>
  (result.content as { type: string; text: string }[]).map((block) => block.text).join('');

describe.each<McpTestEra>(['2025-11-25', '2026-07-28'])('the testing kit, era %s (e2e)', (era) => {
  let app: INestApplication;
  const clients: Client[] = [];

  beforeAll(async () => {
    app = await initialisedApp();
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
    app.get(KitProbe).release();
  });

  afterAll(async () => {
    await app.close();
  });

  async function connect(options: McpTestClientOptions = {}): Promise<Client> {
    const client = await createMcpTestClient(app, { era, headers: AUTHORIZED, ...options });
    clients.push(client);
    return client;
  }

  it('lists, calls, reads, gets, completes and pings without a port', async () => {
    const sessions = app.get(McpSessionRegistry);
    const before = sessions.size;
    const client = await connect();

    // A session in the 2025 era; none in the stateless one.
    expect(sessions.size).toBe(era === '2025-11-25' ? before + 1 : before);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name)).toEqual(expect.arrayContaining(['greet', 'ask_name', 'count_slowly']));
    expect(textOf(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada');
    expect(await client.readResource({ uri: 'kit://readme' })).toMatchObject({
      contents: [{ uri: 'kit://readme', text: 'read me' }],
    });
    expect((await client.listResources()).resources.map((resource) => resource.uri)).toEqual(['kit://readme']);
    expect((await client.listResourceTemplates()).resourceTemplates).toEqual([
      expect.objectContaining({ uriTemplate: 'kit://notes/{id}', name: 'note' }),
    ]);
    expect(await client.readResource({ uri: 'kit://notes/7' })).toMatchObject({
      contents: [{ uri: 'kit://notes/7', text: 'note 7' }],
    });
    expect(await client.getPrompt({ name: 'plan_trip', arguments: { city: 'Lisbon' } })).toMatchObject({
      messages: [{ role: 'user', content: { type: 'text', text: 'Plan a trip to Lisbon' } }],
    });
    const { completion } = await client.complete({
      ref: { type: 'ref/prompt', name: 'plan_trip' },
      argument: { name: 'city', value: 'L' },
    });
    expect(completion.values).toEqual(['Lisbon', 'London', 'Lyon']);
    await expect(client.ping()).resolves.toEqual({});
    expect(client.getServerVersion()).toMatchObject({ name: 'kit-app', version: '1.0.0' });
    // All of it in process: the app's server never listened, on any port.
    const server = app.getHttpServer() as Server;
    expect(server.listening).toBe(false);
    expect(server.address()).toBeNull();
  });

  it("refuses a client without the endpoint guard's token: 401, the challenge, the guard's message", async () => {
    const refusal = await createMcpTestClient(app, { era }).catch((error: unknown) => error);

    expect(refusal).toBeInstanceOf(McpHttpError);
    expect(refusal).toMatchObject({
      status: 401,
      challenge: KIT_CHALLENGE,
      rpcError: { message: 'A valid bearer token is required' },
    });
  });

  it("refuses a client the endpoint guard forbids: 403 and the guard's message", async () => {
    const refusal = await createMcpTestClient(app, { era, headers: { ...AUTHORIZED, 'x-role': BANNED_ROLE } }).catch(
      (error: unknown) => error,
    );

    expect(refusal).toBeInstanceOf(McpHttpError);
    expect(refusal).toMatchObject({ status: 403, rpcError: { message: 'This role may not use the server' } });
  });

  it('shows the guard what the options send, and the guard decides per request', async () => {
    const client = await connect();
    await client.callTool({ name: 'greet', arguments: { name: 'Ada' } });
    expect(app.get(KitProbe).users.at(-1)).toEqual({ sub: 'kit-user', role: 'visitor' });
  });

  it('hides an item whose guard refuses the caller, and shows it to one it admits', async () => {
    const visitor = await connect();
    const admin = await connect({ headers: { ...AUTHORIZED, 'x-role': 'admin' } });

    expect((await visitor.listTools()).tools.map((tool) => tool.name)).not.toContain('admin_report');
    expect((await admin.listTools()).tools.map((tool) => tool.name)).toContain('admin_report');
    expect(textOf(await admin.callTool({ name: 'admin_report', arguments: {} }))).toBe('the admin report');
  });

  it('runs pipes, interceptors and filters', async () => {
    const client = await connect();

    const refused = await client.callTool({ name: 'greet', arguments: { name: 'A' } });
    expect(refused.isError).toBe(true);
    expect(textOf(refused)).toContain('name');
    expect(textOf(await client.callTool({ name: 'shout', arguments: { name: 'Ada' } }))).toBe('HELLO, ADA');
    const filtered = await client.callTool({ name: 'order', arguments: {} });
    expect(filtered).toMatchObject({ isError: true, content: [{ type: 'text', text: 'filtered: no more tea' }] });
  });

  it("rejects a JSON-RPC error answer with the SDK's McpError", async () => {
    const client = await connect();
    const error = await client.getPrompt({ name: 'no_such_prompt' }).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(McpError);
    expect(error).not.toBeInstanceOf(McpHttpError);
  });

  it('answers an elicitation with onElicitation', async () => {
    const asked: unknown[] = [];
    const client = await connect({
      onElicitation: (params) => {
        asked.push(params);
        return { action: 'accept', content: { name: 'Ada' } };
      },
    });

    expect(textOf(await client.callTool({ name: 'ask_name', arguments: {} }))).toBe('Hello, Ada');
    expect(asked).toEqual([expect.objectContaining({ message: 'What is your name?' })]);
    // A declined answer is an answer too.
    const declining = await connect({ onElicitation: () => ({ action: 'decline' }) });
    expect(textOf(await declining.callTool({ name: 'ask_name', arguments: {} }))).toBe('No name (decline)');
  });

  it('answers sampling with onSampling, and roots with roots', async () => {
    const client = await connect({
      onSampling: () => ({ role: 'assistant', model: 'test-model', content: { type: 'text', text: 'a protocol' } }),
      roots: () => [{ uri: 'file:///work', name: 'work' }],
    });

    expect(textOf(await client.callTool({ name: 'summarise', arguments: {} }))).toBe('model said: a protocol');
    expect(textOf(await client.callTool({ name: 'list_roots', arguments: {} }))).toBe('file:///work');
  });

  it('delivers progress while the call runs', async () => {
    const client = await connect();
    const progress: Progress[] = [];

    const call = client.callTool({ name: 'count_slowly', arguments: {} }, undefined, {
      onprogress: (step) => progress.push(step),
    });
    // The call waits at the gate: the first step can only have come on the answer's open stream.
    await until(() => progress.length === 1, 'the first progress notification');
    app.get(KitProbe).release();
    expect(textOf(await call)).toBe('counted');
    expect(progress).toEqual([
      { progress: 1, total: 2, message: 'first step' },
      { progress: 2, total: 2, message: 'second step' },
    ]);
  });

  it('cancels a call the client gives up on', async () => {
    const client = await connect();
    const probe = app.get(KitProbe);
    const aborted = probe.aborted;
    const controller = new AbortController();
    const progress: Progress[] = [];

    const call = client.callTool({ name: 'count_slowly', arguments: {} }, undefined, {
      signal: controller.signal,
      onprogress: (step) => progress.push(step),
    });
    await until(() => progress.length === 1, 'the call to start');
    controller.abort('enough');
    await expect(call).rejects.toThrow();
    await until(() => probe.aborted === aborted + 1, 'the handler to see its call aborted');
    expect(textOf(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada');
  });

  it('sends the Mcp-Param-* headers a tool mirrors its arguments in', async () => {
    const client = await connect();
    // Called before any listing: the kit learns the tool's headers itself.
    expect(textOf(await client.callTool({ name: 'in_region', arguments: { region: 'eu-west' } }))).toBe(
      'region eu-west',
    );
  });

  it('serves several clients of one app at once, each with its own headers', async () => {
    const [visitor, admin] = await Promise.all([connect(), connect({ headers: { ...AUTHORIZED, 'x-role': 'admin' } })]);

    const [visitorTools, adminTools] = await Promise.all([visitor.listTools(), admin.listTools()]);
    expect(visitorTools.tools.some((tool) => tool.name === 'admin_report')).toBe(false);
    expect(adminTools.tools.some((tool) => tool.name === 'admin_report')).toBe(true);
  });
});

describe.each<McpTestEra>(['2025-11-25', '2026-07-28'])('the testing kit and several servers, era %s (e2e)', (era) => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await initialisedApp({}, kitServersApp());
  });

  afterAll(async () => {
    await app.close();
  });

  it('picks a server by its path: the public one without a token, the main one with it', async () => {
    const visitor = await createMcpTestClient(app, { era, path: '/public/mcp' });
    const member = await createMcpTestClient(app, { era, headers: AUTHORIZED });
    try {
      expect(visitor.getServerVersion()).toMatchObject({ name: 'kit-public' });
      expect((await visitor.listTools()).tools.map((tool) => tool.name)).toEqual(['greet']);
      expect(textOf(await visitor.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada');
      expect(member.getServerVersion()).toMatchObject({ name: 'kit-app' });
      expect((await member.listTools()).tools.map((tool) => tool.name)).toContain('ask_name');
    } finally {
      await Promise.all([visitor.close(), member.close()]);
    }
    // The main server keeps its guard.
    await expect(createMcpTestClient(app, { era })).rejects.toMatchObject({ status: 401 });
  });

  it('takes a path without its leading slash, and answers a path with no server with 404', async () => {
    const visitor = await createMcpTestClient(app, { era, path: 'public/mcp' });
    await visitor.close();
    await expect(createMcpTestClient(app, { era, path: '/nowhere' })).rejects.toMatchObject({ status: 404 });
  });
});

describe('the testing kit and a global prefix (e2e)', () => {
  it.each<McpTestEra>(['2025-11-25', '2026-07-28'])('reaches the endpoint under the prefix (%s)', async (era) => {
    const moduleRef = await Test.createTestingModule(kitApp()).compile();
    const app =
      TEST_ADAPTER === 'fastify'
        ? moduleRef.createNestApplication(new FastifyAdapter(), { logger: false })
        : moduleRef.createNestApplication({ logger: false });
    app.setGlobalPrefix('api');
    await app.init();
    try {
      const client = await createMcpTestClient(app, { era, path: '/api/mcp', headers: AUTHORIZED });
      expect(textOf(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada');
      await client.close();
    } finally {
      await app.close();
    }
  });
});

describe('the testing kit, 2025-11-25 sessions (e2e)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await initialisedApp();
  });

  afterAll(async () => {
    await app.close();
  });

  it('opens a session, hears list changes on its GET stream, and ends the session on close()', async () => {
    const sessions = app.get(McpSessionRegistry);
    const before = sessions.size;
    const client = await createMcpTestClient(app, { headers: AUTHORIZED });
    const changes: string[] = [];
    client.fallbackNotificationHandler = async (notification) => {
      changes.push(notification.method);
    };
    expect(sessions.size).toBe(before + 1);

    // Nothing of a call: only the session's GET stream can carry this.
    await until(() => sessions.list().some((session) => session.hasStream), 'the GET stream to attach');
    app.get(McpToolRegistry).add({ name: 'late_tool', description: 'Added at run time' }, () => 'late');
    await until(() => changes.includes('notifications/tools/list_changed'), 'the list_changed notification');

    await client.close();
    await until(() => sessions.size === before, 'the session to end');
  });
});

describe('the testing kit and the Host/Origin policy (e2e)', () => {
  let app: INestApplication;

  beforeAll(async () => {
    app = await initialisedApp({ http: { allowedHosts: ['mcp.example.com'] } });
  });

  afterAll(async () => {
    await app.close();
  });

  it.each<McpTestEra>(['2025-11-25', '2026-07-28'])('passes the check whatever allowedHosts says (%s)', async (era) => {
    const client = await createMcpTestClient(app, { era, headers: AUTHORIZED });
    try {
      expect(textOf(await client.callTool({ name: 'greet', arguments: { name: 'Ada' } }))).toBe('Hello, Ada');
    } finally {
      await client.close();
    }
  });

  it('leaves the check on for requests from the network', async () => {
    await app.listen(0, '127.0.0.1');
    const response = await fetch(`${await app.getUrl()}/mcp`, {
      method: 'POST',
      headers: { ...AUTHORIZED, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' }),
    });
    expect(response.status).toBe(403);
  });
});
