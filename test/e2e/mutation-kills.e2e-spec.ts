/**
 * Mutation check of issue 5 (resources, templates, prompts, completion), end to end: each test
 * fails for one change to src that the rest of the suite let through. The change it catches is
 * named above it.
 */
import { Injectable } from '@nestjs/common';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  McpCompletion,
  McpModule,
  McpResourceTemplate,
  type McpCompletionRequest,
  type McpContext,
} from '../../src/index.js';
import { startApp, type RunningApp } from '../utils/start-app.js';

@Injectable()
class NamedTemplates {
  @McpResourceTemplate({
    uriTemplate: 'mk://city/{name}',
    name: 'mk_city',
    complete: { name: (_request: McpCompletionRequest, ctx: McpContext) => [ctx.toolName] },
  })
  city(variables: { name: string }): string {
    return `city ${variables.name}`;
  }

  @McpResourceTemplate({ uriTemplate: 'mk://town/{name}', name: 'mk_town' })
  town(variables: { name: string }): string {
    return `town ${variables.name}`;
  }

  @McpCompletion({ resourceTemplate: 'mk://town/{name}', argument: 'name' })
  towns(_request: McpCompletionRequest, ctx: McpContext): string[] {
    return [ctx.toolName];
  }
}

describe('mutation kills (e2e)', () => {
  let running: RunningApp;
  const clients: Client[] = [];

  async function connect(): Promise<Client> {
    const client = new Client({ name: 'mutation-kills', version: '1.0.0' });
    await client.connect(new StreamableHTTPClientTransport(new URL(running.mcpUrl)));
    clients.push(client);
    return client;
  }

  beforeAll(async () => {
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'mutation-kills-e2e', version: '1.0.0' })],
      providers: [NamedTemplates],
    });
  });

  afterEach(async () => {
    await Promise.all(clients.splice(0).map((client) => client.close()));
  });

  afterAll(async () => {
    await running?.close();
  });

  // A completer of a template variable gets the template's name as ctx.toolName, not the URI
  // template the client referred to (McpCompletionService renames the context once admitted).
  it.each([
    ['a complete option function', 'mk://city/{name}', 'mk_city'],
    ['an @McpCompletion() method', 'mk://town/{name}', 'mk_town'],
  ])("%s sees the template's name as ctx.toolName", async (_label, uri, name) => {
    const client = await connect();
    const result = await client.complete({
      ref: { type: 'ref/resource', uri },
      argument: { name: 'name', value: '' },
    });
    expect(result.completion).toEqual({ values: [name], total: 1, hasMore: false });
  });
});
