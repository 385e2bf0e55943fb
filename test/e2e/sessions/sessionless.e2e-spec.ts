/**
 * `sessions.enabled: false` on a real Nest app: 2025 clients are served without sessions, as the
 * official SDK v2 serves them by default. `initialize` mints no session, every POST stands alone,
 * what needs a session says so (405 for GET and DELETE, 400 for batches, -32601 for subscriptions,
 * an error for asking the client), and stateless 2026-07-28 requests are served as always.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { modernApp, ModernProbe } from '../../fixtures/modern.fixture.js';
import { useModernApp } from '../../utils/modern-app.js';
import { initializeRequest, MCP_POST_HEADERS } from '../../utils/start-app.js';

const VERSION_HEADER = { 'mcp-protocol-version': '2025-11-25' };

describe('sessions.enabled: false', () => {
  const app = useModernApp(modernApp({ sessions: { enabled: false } }));

  async function post(body: object, headers: Record<string, string> = VERSION_HEADER) {
    const exchange = await app.legacy.open('POST', { ...MCP_POST_HEADERS, ...headers }, body);
    await exchange.untilEnd();
    expect(exchange.headers['mcp-session-id']).toBeUndefined();
    return exchange;
  }

  it('answers initialize without a session id, announcing nothing only a session could deliver', async () => {
    const init = await post(initializeRequest('2025-11-25'), {});
    expect(init.status).toBe(200);
    expect(init.messages[0]?.result).toMatchObject({
      protocolVersion: '2025-11-25',
      serverInfo: { name: 'modern-e2e' },
    });
    expect((init.messages[0]?.result as { capabilities: object }).capabilities).toEqual({
      tools: {},
      resources: {},
      prompts: {},
      completions: {},
      logging: {},
    });
  });

  it('serves each request on its own, whatever session id it names', async () => {
    const call = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'alone' } },
    });
    expect(call.status).toBe(200);
    expect(call.messages).toEqual([
      { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text: 'echo: alone' }] } },
    ]);
    const named = await post(
      { jsonrpc: '2.0', id: 2, method: 'ping' },
      { ...VERSION_HEADER, 'mcp-session-id': 'made-up' },
    );
    expect(named.messages).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
    const level = await post({ jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'debug' } });
    expect(level.messages).toEqual([{ jsonrpc: '2.0', id: 3, result: {} }]);
  });

  it('takes notifications and responses with 202, and refuses an unsupported MCP-Protocol-Version with 400', async () => {
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' })).status).toBe(202);
    expect((await post({ jsonrpc: '2.0', id: 'x', result: {} })).status).toBe(202);
    const badVersion = { 'mcp-protocol-version': '1999-01-01' };
    expect((await post({ jsonrpc: '2.0', id: 4, method: 'ping' }, badVersion)).status).toBe(400);
    expect((await post({ jsonrpc: '2.0', method: 'notifications/initialized' }, badVersion)).status).toBe(400);
    expect((await post({ jsonrpc: '2.0', id: 'y', result: {} }, badVersion)).status).toBe(400);
  });

  it('refuses what needs a session: GET and DELETE with 405, batches with 400, subscriptions with -32601', async () => {
    for (const method of ['GET', 'DELETE'] as const) {
      const exchange = await app.legacy.open(method, { accept: 'text/event-stream', ...VERSION_HEADER });
      await exchange.untilEnd();
      expect(exchange.status).toBe(405);
      expect(exchange.headers.allow).toBe('POST');
      expect(exchange.messages[0]?.error?.message).toContain('without sessions (sessions.enabled: false)');
    }
    const batch = await post([
      { jsonrpc: '2.0', id: 5, method: 'ping' },
      { jsonrpc: '2.0', id: 6, method: 'ping' },
    ]);
    expect(batch.status).toBe(400);
    expect(batch.messages[0]?.error).toMatchObject({ code: -32600, message: expect.stringContaining('session') });
    const subscribe = await post({
      jsonrpc: '2.0',
      id: 7,
      method: 'resources/subscribe',
      params: { uri: 'test://plain' },
    });
    expect(subscribe.messages[0]?.error?.code).toBe(-32601);
  });

  it('gives the official SDK v1 client a whole conversation, and a tool that asks the client an error result', async () => {
    const client = new Client({ name: 'v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    client.setRequestHandler(ElicitRequestSchema, () => ({ action: 'accept', content: { name: 'Ada' } }));
    const transport = new StreamableHTTPClientTransport(new URL(app.running.mcpUrl));
    await client.connect(transport);
    try {
      expect(transport.sessionId).toBeUndefined();
      expect(client.getServerCapabilities()?.tools).toEqual({});
      const { tools } = await client.listTools();
      expect(tools.map((tool) => tool.name)).toContain('echo');
      expect(await client.callTool({ name: 'echo', arguments: { text: 'v1' } })).toEqual({
        content: [{ type: 'text', text: 'echo: v1' }],
      });
      const asked = await client.callTool({ name: 'ask_name', arguments: {} });
      expect(asked.isError).toBe(true);
      expect(JSON.stringify(asked.content)).toContain('needs a 2025 session');
      expect(app.get(ModernProbe).runs.get('ask_name')).toBe(1);
    } finally {
      await client.close();
    }
  });

  it('serves stateless 2026-07-28 requests as always', async () => {
    const call = await app.client.result('tools/call', { name: 'echo', arguments: { text: 'new' } });
    expect(call).toMatchObject({ content: [{ type: 'text', text: 'echo: new' }], resultType: 'complete' });
  });
});
