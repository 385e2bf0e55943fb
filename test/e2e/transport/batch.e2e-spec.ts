import request from 'supertest';
import { EchoTools } from '../../../sample-app/echo.tools.js';
import { McpModule } from '../../../src/index.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';
import { openSession } from '../../utils/open-session.js';
import { expectRefusal } from '../../utils/refusal.js';
import { SessionStore } from '../../internals/index.js';

/**
 * JSON-RPC batches over the real endpoint: processed only on sessions negotiated at 2025-03-26,
 * refused with 400 / -32600 on every other version and without a session.
 */

interface JsonRpcReply {
  jsonrpc: string;
  id: string | number | null;
  result?: unknown;
  error?: { code: number; message: string };
}

describe('Streamable HTTP transport: batches (e2e)', () => {
  let running: RunningApp;
  let registry: SessionStore;

  beforeAll(async () => {
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'batch-e2e', version: '1.0.0' })],
      providers: [EchoTools],
    });
    registry = running.app.get(SessionStore);
  });

  afterAll(async () => {
    await running?.close();
  });

  const post = (sessionId?: string) => {
    const req = request(running.baseUrl).post('/mcp').set(MCP_POST_HEADERS);
    return sessionId === undefined ? req : req.set('Mcp-Session-Id', sessionId);
  };

  /** A session of `protocolVersion`, not yet acknowledged with `notifications/initialized`. */
  async function initialize(protocolVersion: string): Promise<string> {
    const session = await openSession(running.mcpUrl, { protocolVersion, initialized: false });
    expect(session.protocolVersion).toBe(protocolVersion);
    return session.id;
  }

  /** The replies of a batch, by id (null ids listed under 'null', in order). */
  function byId(replies: JsonRpcReply[]): Map<string, JsonRpcReply[]> {
    const map = new Map<string, JsonRpcReply[]>();
    for (const reply of replies) {
      const key = String(reply.id);
      map.set(key, [...(map.get(key) ?? []), reply]);
    }
    return map;
  }

  const echo = (id: number | string, text: string) => ({
    jsonrpc: '2.0',
    id,
    method: 'tools/call',
    params: { name: 'echo', arguments: { text } },
  });

  describe('on a session negotiated at 2025-03-26', () => {
    let sessionId: string;

    beforeEach(async () => {
      sessionId = await initialize('2025-03-26');
    });

    it('answers an array of requests with an array of responses, matched by id', async () => {
      const res = await post(sessionId).send([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', id: 'list', method: 'tools/list' },
        echo(3, 'three'),
        echo('four', 'vier'),
      ]);
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json\b/);
      expect(res.headers['mcp-session-id']).toBe(sessionId);
      expect(Array.isArray(res.body)).toBe(true);
      const replies = res.body as JsonRpcReply[];
      expect(replies).toHaveLength(4);
      const map = byId(replies);
      expect(map.get('1')).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
      expect(map.get('list')?.[0]?.result).toMatchObject({ tools: [expect.objectContaining({ name: 'echo' })] });
      expect(map.get('3')).toEqual([{ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text: 'three' }] } }]);
      expect(map.get('four')).toEqual([
        { jsonrpc: '2.0', id: 'four', result: { content: [{ type: 'text', text: 'vier' }] } },
      ]);
    });

    it('answers a batch of one request with an array of one response', async () => {
      const res = await post(sessionId).send([{ jsonrpc: '2.0', id: 7, method: 'ping' }]);
      expect(res.status).toBe(200);
      expect(res.body).toEqual([{ jsonrpc: '2.0', id: 7, result: {} }]);
    });

    it('gives notifications in a batch no response, and handles them', async () => {
      expect(registry.get(sessionId)?.initialized).toBe(false);
      const res = await post(sessionId).send([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', method: 'notifications/unknown-but-harmless' },
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]);
      expect(res.status).toBe(200);
      const replies = res.body as JsonRpcReply[];
      expect(replies.map((reply) => reply.id).sort()).toEqual([1, 2]);
      expect(replies.every((reply) => 'result' in reply)).toBe(true);
      expect(registry.get(sessionId)?.initialized).toBe(true);
    });

    it('answers a batch of only notifications with 202 and an empty body', async () => {
      const res = await post(sessionId).send([
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 99 } },
      ]);
      expect(res.status).toBe(202);
      expect(res.text).toBe('');
      expect(res.headers['mcp-session-id']).toBe(sessionId);
      expect(registry.get(sessionId)?.initialized).toBe(true);
    });

    it('answers a batch of only client responses and notifications with 202 and an empty body', async () => {
      const res = await post(sessionId).send([
        { jsonrpc: '2.0', id: 's-1', result: {} },
        { jsonrpc: '2.0', id: 's-2', error: { code: -32601, message: 'nope' } },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
      ]);
      expect(res.status).toBe(202);
      expect(res.text).toBe('');
    });

    it('answers each invalid entry of a mixed batch with its own error', async () => {
      const res = await post(sessionId).send([
        { jsonrpc: '2.0', id: 1, method: 'ping' },
        { jsonrpc: '1.0', id: 2, method: 'ping' },
        42,
        { jsonrpc: '2.0', id: 3, method: 'no/such/method' },
        { jsonrpc: '2.0', method: 'notifications/initialized' },
        { jsonrpc: '2.0', id: 4, method: 'tools/call', params: 'not-an-object' },
        echo(5, 'ok'),
      ]);
      expect(res.status).toBe(200);
      const replies = res.body as JsonRpcReply[];
      expect(replies).toHaveLength(6);
      const map = byId(replies);
      expect(map.get('1')).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }]);
      expect(map.get('2')?.[0]?.error?.code).toBe(-32600);
      expect(map.get('null')).toHaveLength(1);
      expect(map.get('null')?.[0]?.error?.code).toBe(-32600);
      expect(map.get('3')?.[0]?.error?.code).toBe(-32601);
      expect(map.get('4')?.[0]?.error?.code).toBe(-32600);
      expect(map.get('5')).toEqual([{ jsonrpc: '2.0', id: 5, result: { content: [{ type: 'text', text: 'ok' }] } }]);
      for (const reply of replies) {
        expect(reply.jsonrpc).toBe('2.0');
        expect('result' in reply !== 'error' in reply).toBe(true);
      }
    });

    it('answers an empty array with 400 and one -32600 error (not an array)', async () => {
      const res = await post(sessionId).send([]);
      // Refused as it is read, before its session is looked up: the answer names none.
      expectRefusal(res, 400, { code: -32600 });
    });

    it('rejects initialize inside a batch and creates no session', async () => {
      const before = registry.size;
      const res = await post(sessionId).send([
        initializeRequest('2025-03-26', 'init'),
        { jsonrpc: '2.0', id: 2, method: 'ping' },
      ]);
      const after = registry.size;
      expect(res.headers['mcp-session-id']).toBe(sessionId);
      expect(res.status).toBe(200);
      const map = byId(res.body as JsonRpcReply[]);
      expect(map.get('init')?.[0]).toMatchObject({ jsonrpc: '2.0', id: 'init', error: { code: -32600 } });
      expect(map.get('init')?.[0]).not.toHaveProperty('result');
      expect(map.get('2')).toEqual([{ jsonrpc: '2.0', id: 2, result: {} }]);
      expect(after).toBe(before);
    });

    it('rejects a batch holding only initialize, creating no session', async () => {
      const before = registry.size;
      const res = await post(sessionId).send([initializeRequest('2025-03-26', 9)]);
      expect(registry.size).toBe(before);
      expect(res.status).toBe(200);
      expect(res.body).toHaveLength(1);
      expect(res.body[0]).toMatchObject({ jsonrpc: '2.0', id: 9, error: { code: -32600 } });
    });
  });

  describe.each(['2025-06-18', '2025-11-25', '2024-11-05'])('on a session negotiated at %s', (version) => {
    let sessionId: string;

    beforeEach(async () => {
      sessionId = await initialize(version);
    });

    it.each<[string, unknown[]]>([
      ['requests', [{ jsonrpc: '2.0', id: 1, method: 'ping' }, echo(2, 'x')]],
      ['one request', [{ jsonrpc: '2.0', id: 1, method: 'ping' }]],
      ['only notifications', [{ jsonrpc: '2.0', method: 'notifications/initialized' }]],
      ['only responses', [{ jsonrpc: '2.0', id: 's-1', result: {} }]],
      ['an initialize', [initializeRequest(version, 5)]],
      ['nothing', []],
    ])('refuses an array of %s with 400 and -32600', async (_label, batch) => {
      const before = registry.size;
      const res = await post(sessionId).send(batch);
      // An empty array is refused as it is read, before its session is looked up: the answer names none.
      expectRefusal(res, 400, { code: -32600, sessionId: batch.length === 0 ? undefined : sessionId });
      expect(registry.size).toBe(before);
      // Nothing in the refused batch was handled.
      expect(registry.get(sessionId)?.initialized).toBe(false);
    });
  });

  describe('without a session', () => {
    it.each<[string, unknown[]]>([
      ['a request', [{ jsonrpc: '2.0', id: 1, method: 'ping' }]],
      ['an initialize', [initializeRequest('2025-03-26', 1)]],
      ['an initialize and a request', [initializeRequest('2025-03-26', 1), { jsonrpc: '2.0', id: 2, method: 'ping' }]],
      ['only notifications', [{ jsonrpc: '2.0', method: 'notifications/initialized' }]],
      ['nothing', []],
    ])('refuses an array holding %s with 400 and creates no session', async (_label, batch) => {
      const before = registry.size;
      const res = await post().send(batch);
      expectRefusal(res, 400, { code: expect.any(Number) as number });
      expect(registry.size).toBe(before);
    });
  });
});
