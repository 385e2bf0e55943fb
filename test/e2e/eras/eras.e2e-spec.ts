import { modernApp } from '../../fixtures/modern.fixture.js';
import { useModernApp } from '../../utils/modern-app.js';
import { Meta, MODERN_VERSION } from '../../utils/modern-client.js';
import { expectModernSchema } from '../../utils/modern-schema.js';
import { expectRefusal } from '../../utils/refusal.js';
import { initializeRequest, MCP_POST_HEADERS } from '../../utils/start-app.js';
import { LEGACY_PROTOCOL_VERSIONS, MODERN_PROTOCOL_VERSIONS } from '../../../src/protocol/index.js';

describe('eras: dual (the default)', () => {
  const app = useModernApp(modernApp());

  it('serves 2025 sessions as before: no resultType, no serverInfo, ping answers {}', async () => {
    const session = await app.legacy.initialize({ protocolVersion: '2025-11-25' });
    expect(session.initializeResult).toMatchObject({ protocolVersion: '2025-11-25' });
    expect(session.initializeResult).not.toHaveProperty('resultType');
    expect(await app.legacy.request(session, 'ping', {}, 1)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    const call = await app.legacy.request(session, 'tools/call', { name: 'echo', arguments: { text: 'old' } }, 2);
    expect(call.result).toEqual({ content: [{ type: 'text', text: 'echo: old' }] });
    const list = await app.legacy.request(session, 'tools/list', {}, 3);
    expect(Object.keys(list.result!).sort()).toEqual(['tools']);
  });

  it('does not serve server/discover or subscriptions/listen to a 2025 session (-32601)', async () => {
    const session = await app.legacy.initialize();
    for (const method of ['server/discover', 'subscriptions/listen']) {
      const answer = await app.legacy.request(session, method, {}, method);
      expect(answer.error?.code).toBe(-32601);
    }
  });

  it('negotiates a 2025 revision for an initialize that names 2026-07-28 without _meta', async () => {
    const init = await app.legacy.open('POST', MCP_POST_HEADERS, initializeRequest(MODERN_VERSION));
    await init.untilEnd();
    expect(init.status).toBe(200);
    expect(init.messages[0]?.result).toMatchObject({ protocolVersion: LEGACY_PROTOCOL_VERSIONS[0] });
    expect(init.headers['mcp-session-id']).toEqual(expect.any(String));
  });
});

describe("eras: 'modern'", () => {
  const app = useModernApp(modernApp({ eras: 'modern' }));

  /** POSTs a 2025 message and reads its one JSON answer, checked against the 2026-07-28 schema. */
  async function legacyPost(body: object, headers: Record<string, string> = {}) {
    const exchange = await app.legacy.open('POST', { ...MCP_POST_HEADERS, ...headers }, body);
    await exchange.untilEnd();
    expect(exchange.headers['content-type']).toMatch(/^application\/json\b/);
    expect(exchange.messages).toHaveLength(1);
    const [message] = exchange.messages;
    expectModernSchema(message);
    expect(exchange.headers['mcp-session-id']).toBeUndefined();
    return { status: exchange.status, message: message! };
  }

  it('answers a 2025 initialize with 400 and -32022 naming the modern revisions and the one requested', async () => {
    expect(await legacyPost(initializeRequest('2025-06-18', 'init'))).toEqual({
      status: 400,
      message: {
        jsonrpc: '2.0',
        id: 'init',
        error: {
          code: -32022,
          message: expect.any(String),
          data: { supported: [...MODERN_PROTOCOL_VERSIONS], requested: '2025-06-18' },
        },
      },
    });
  });

  it('answers other 2025 requests alike, naming the version of their header (2025-03-26 without one)', async () => {
    const withHeader = await legacyPost(
      { jsonrpc: '2.0', id: 4, method: 'tools/list', params: {} },
      { 'mcp-protocol-version': '2025-11-25' },
    );
    expect(withHeader).toMatchObject({
      status: 400,
      message: { id: 4, error: { code: -32022, data: { requested: '2025-11-25', supported: [MODERN_VERSION] } } },
    });
    const bare = await legacyPost({ jsonrpc: '2.0', id: 5, method: 'tools/list', params: {} });
    expect(bare).toMatchObject({
      status: 400,
      message: { id: 5, error: { code: -32022, data: { requested: '2025-03-26' } } },
    });
  });

  it.each(['GET', 'DELETE'])('answers %s with 405 and Allow: POST', async (method) => {
    const exchange = await app.legacy.open(method, {
      accept: 'text/event-stream',
      'mcp-session-id': '00000000-0000-4000-8000-000000000000',
      'mcp-protocol-version': '2025-11-25',
    });
    await exchange.untilEnd();
    expect(exchange.status).toBe(405);
    expect(exchange.headers.allow).toBe('POST');
  });

  it('serves 2026-07-28 requests, speaking only the modern revisions', async () => {
    const discovered = await app.client.result('server/discover');
    expect(discovered.supportedVersions).toEqual([...MODERN_PROTOCOL_VERSIONS]);
    const refused = await app.client.error(
      400,
      'tools/list',
      {},
      {
        meta: { [Meta.ProtocolVersion]: '2025-11-25' },
        headers: { 'mcp-protocol-version': '2025-11-25' },
      },
    );
    expect(refused).toMatchObject({ code: -32022, data: { supported: [MODERN_VERSION], requested: '2025-11-25' } });
    const call = await app.client.result('tools/call', { name: 'echo', arguments: { text: 'new' } });
    expect(call.content).toEqual([{ type: 'text', text: 'echo: new' }]);
  });
});

describe("eras: 'legacy'", () => {
  const app = useModernApp(modernApp({ eras: 'legacy' }));

  it('serves a modern request as 2025 traffic: its version header is refused, without it a session is required', async () => {
    const params = app.client.paramsOf({});
    const withHeader = await app.legacy.open('POST', app.client.headersOf('server/discover', {}), {
      jsonrpc: '2.0',
      id: 1,
      method: 'server/discover',
      params,
    });
    await withHeader.untilEnd();
    expectRefusal(withHeader, 400, { message: 'Bad Request: unsupported MCP-Protocol-Version' });
    const bare = await app.legacy.open('POST', MCP_POST_HEADERS, {
      jsonrpc: '2.0',
      id: 2,
      method: 'server/discover',
      params,
    });
    await bare.untilEnd();
    expectRefusal(bare, 400, { message: 'Bad Request: Mcp-Session-Id header is required' });
  });

  it('does not serve server/discover to a session either', async () => {
    const session = await app.legacy.initialize();
    const answer = await app.legacy.request(session, 'server/discover', app.client.paramsOf({}), 3);
    expect(answer.error?.code).toBe(-32601);
  });

  it('negotiates only 2025 revisions (a modern initialize falls back)', async () => {
    const init = await app.legacy.open('POST', MCP_POST_HEADERS, {
      ...initializeRequest(MODERN_VERSION),
      params: { ...(initializeRequest(MODERN_VERSION) as { params: object }).params, ...app.client.paramsOf({}) },
    });
    await init.untilEnd();
    expect(init.status).toBe(200);
    expect(init.messages[0]?.result).toMatchObject({ protocolVersion: LEGACY_PROTOCOL_VERSIONS[0] });
  });
});
