/**
 * A 2025 session over stdio as over HTTP: the fixture server (`test/stdio/app`) spawned by the SDK v1
 * client's `StdioClientTransport`, asking the client's model and roots (server requests written to
 * stdout, answered on stdin), telling it its tool list changed, and aborting a call the client
 * cancels. Run once, in the Express project: stdio has no HTTP platform.
 */
import type { Stream } from 'node:stream';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  CreateMessageRequestSchema,
  ListRootsRequestSchema,
  ToolListChangedNotificationSchema,
  type CreateMessageRequest,
} from '@modelcontextprotocol/sdk/types.js';
import { ensureBuilt, FIXTURE_MAIN, ROOT } from '../utils/stdio-process.js';
import { onlyText } from '../utils/tool-results.js';
import { thrown } from '../utils/thrown.js';
import { until } from '../utils/wait.js';

beforeAll(() => ensureBuilt(), 130_000);

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

/** A v1 client on a fresh fixture server, its stderr collected; `prepare` sets handlers first. */
async function connect(prepare: (client: Client) => void = () => undefined): Promise<{
  client: Client;
  stderr: () => string;
}> {
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [FIXTURE_MAIN],
    cwd: ROOT,
    stderr: 'pipe',
  });
  let text = '';
  (transport.stderr as Stream | null)?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  const client = new Client(
    { name: 'stdio-session', version: '1.0.0' },
    { capabilities: { sampling: {}, roots: { listChanged: false } } },
  );
  clients.push(client);
  prepare(client);
  await client.connect(transport);
  return { client, stderr: () => text };
}

describe('a 2025 session over stdio', () => {
  it("asks the client's model and its roots: server requests on stdout, answers on stdin", async () => {
    const sampled: CreateMessageRequest['params'][] = [];
    const { client } = await connect((c) => {
      c.setRequestHandler(CreateMessageRequestSchema, (request) => {
        sampled.push(request.params);
        return { role: 'assistant', content: { type: 'text', text: 'Hello!' }, model: 'stub' };
      });
      c.setRequestHandler(ListRootsRequestSchema, () => ({ roots: [{ uri: 'file:///home/me/notes', name: 'notes' }] }));
    });

    const result = await client.callTool({ name: 'ask_client', arguments: {} });
    expect(JSON.parse(onlyText(result))).toEqual({
      sampled: { type: 'text', text: 'Hello!' },
      roots: ['file:///home/me/notes'],
    });
    expect(sampled).toEqual([
      { messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }], maxTokens: 10 },
    ]);
  });

  it('tells the client its tool list changed when a tool is added at run time', async () => {
    let changed = 0;
    const { client } = await connect((c) =>
      c.setNotificationHandler(ToolListChangedNotificationSchema, () => {
        changed++;
      }),
    );
    expect((await client.listTools()).tools.map((tool) => tool.name)).not.toContain('added');

    expect(onlyText(await client.callTool({ name: 'add_tool', arguments: {} }))).toBe('added');
    await until(() => changed > 0, 'notifications/tools/list_changed', 5000);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('added');
    expect(onlyText(await client.callTool({ name: 'added', arguments: {} }))).toBe('added here');
  });

  it('aborts the call the client cancels (notifications/cancelled), and goes on serving', async () => {
    const { client, stderr } = await connect();
    const controller = new AbortController();
    const calling = client.callTool({ name: 'wait_for_abort', arguments: {} }, undefined, {
      signal: controller.signal,
    });
    await until(() => /wait_for_abort \d+: running/.test(stderr()), 'the call to run', 5000);
    controller.abort('the user pressed stop');

    await thrown(calling); // the client gave up on it
    await until(() => /wait_for_abort \d+: aborted \(cancelled\)/.test(stderr()), 'the call to be aborted', 5000);
    await expect(client.ping()).resolves.toEqual({});
  });
});
