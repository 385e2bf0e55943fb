/**
 * `scopeDenial`: a caller whose token lacks a tool's scopes either never sees it ('hide', the default)
 * or sees it and is challenged when it calls: 403 with `WWW-Authenticate: Bearer
 * error="insufficient_scope"` naming the scopes, on 2025 sessions and on stateless 2026-07-28
 * requests alike; inside a 2025-03-26 batch the same JSON-RPC error in a 200. Raw HTTP, so that
 * statuses and headers are seen as sent. (The official SDK client's step-up on such a 403 is in
 * oauth-sdk-flow.e2e-spec.ts.)
 */
import { McpModule, type McpModuleOptions } from '../../../src/index.js';
import {
  CallJournal,
  FixtureBearerGuard,
  RoleGuard,
  ScopedWeatherTools,
  WeatherAdminController,
} from '../../fixtures/pipeline.tools.js';
import { ScopedDocs } from '../../fixtures/scoped-docs.fixture.js';
import { httpExchange, type HttpResult } from '../../utils/http-exchange.js';
import { Meta, MODERN_VERSION } from '../../utils/modern-client.js';
import { openSession } from '../../utils/open-session.js';
import { MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';

const READER = { authorization: 'Bearer reader-token' }; // weather:read only
const WRITER = { authorization: 'Bearer writer-token' }; // weather:read weather:write

/** A 2025 session of `protocolVersion`, opened and initialized with `auth`: the headers of its later requests. */
const session = async (app: RunningApp, auth: Record<string, string>, protocolVersion = '2025-06-18') =>
  (await openSession(app.mcpUrl, { headers: auth, protocolVersion })).headers;

const call = (id: number, name: string): object => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, arguments: { city: 'Bern' } },
});

const post = (app: RunningApp, headers: Record<string, string>, body: unknown): Promise<HttpResult> =>
  httpExchange(app.mcpUrl, 'POST', headers, JSON.stringify(body));

/** A stateless 2026-07-28 tools/call of `name`, with its mirrored headers. */
function modernCall(app: RunningApp, auth: Record<string, string>, name: string): Promise<HttpResult> {
  const params = {
    name,
    arguments: { city: 'Bern' },
    _meta: {
      [Meta.ProtocolVersion]: MODERN_VERSION,
      [Meta.ClientCapabilities]: {},
      [Meta.ClientInfo]: { name: 'scope-challenge', version: '1' },
    },
  };
  const headers = {
    ...MCP_POST_HEADERS,
    ...auth,
    'mcp-protocol-version': MODERN_VERSION,
    'mcp-method': 'tools/call',
    'mcp-name': name,
  };
  return post(app, headers, { jsonrpc: '2.0', id: 'm1', method: 'tools/call', params });
}

const listed = async (app: RunningApp, headers: Record<string, string>): Promise<string[]> => {
  const answer = await post(app, headers, { jsonrpc: '2.0', id: 'list', method: 'tools/list' });
  return (JSON.parse(answer.text) as { result: { tools: { name: string }[] } }).result.tools.map((tool) => tool.name);
};

const CHALLENGE =
  'Bearer error="insufficient_scope", error_description="Missing scope(s): weather:write", ' +
  'scope="weather:write weather:read"';

const REFUSAL = {
  code: -32000,
  message: 'Forbidden: Missing scope(s): weather:write',
  data: {
    error: 'insufficient_scope',
    error_description: 'Missing scope(s): weather:write',
    scope: 'weather:write weather:read',
  },
};

function useApp(options: Partial<McpModuleOptions>): () => { app: RunningApp; journal: CallJournal } {
  let app: RunningApp;
  beforeAll(async () => {
    app = await startApp({
      imports: [
        McpModule.forRoot({ name: 'scope-challenge', version: '1.0.0', guards: [FixtureBearerGuard], ...options }),
      ],
      controllers: [WeatherAdminController],
      providers: [CallJournal, ScopedWeatherTools, ScopedDocs, RoleGuard],
    });
  });
  afterAll(() => app?.close());
  return () => ({ app, journal: app.app.get(CallJournal) });
}

describe("scopeDenial: 'hide' (the default) and 'challenge' (e2e)", () => {
  describe("'hide'", () => {
    const running = useApp({});

    it('leaves the tool out of the list and answers a call as for an unknown tool', async () => {
      const { app, journal } = running();
      const headers = await session(app, READER);
      expect(await listed(app, headers)).not.toContain('set_alert');
      const answer = await post(app, headers, call(1, 'set_alert'));
      expect(answer.status).toBe(200);
      expect(answer.headers['www-authenticate']).toBeUndefined();
      expect(JSON.parse(answer.text)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: { content: [{ type: 'text', text: 'Unknown tool: set_alert' }], isError: true },
      });
      expect(journal.handled.get('set_alert')).toBeUndefined();
    });
  });

  describe("'challenge'", () => {
    const running = useApp({ auth: { scopeDenial: 'challenge' } });

    it('lists the tool, and answers a call 403 with the challenge and the JSON-RPC error of the request', async () => {
      const { app, journal } = running();
      const headers = await session(app, READER);
      expect(await listed(app, headers)).toContain('set_alert');
      const answer = await post(app, headers, call(1, 'set_alert'));
      expect(answer.status).toBe(403);
      expect(answer.headers['www-authenticate']).toBe(CHALLENGE);
      expect(answer.headers['mcp-session-id']).toBe(headers['mcp-session-id']);
      expect(JSON.parse(answer.text)).toEqual({ jsonrpc: '2.0', id: 1, error: REFUSAL });
      expect(journal.handled.get('set_alert')).toBeUndefined();
    });

    it('keeps the session: the next call, and the same call with a token that has the scope, are served', async () => {
      const { app } = running();
      const headers = await session(app, WRITER);
      const answer = await post(app, headers, call(2, 'set_alert'));
      expect([answer.status, JSON.parse(answer.text).result.content[0].text]).toEqual([200, 'Alert set for Bern']);
      const reader = await session(app, READER);
      expect((await post(app, reader, call(3, 'set_alert'))).status).toBe(403);
      expect((await post(app, reader, call(4, 'forecast'))).status).toBe(200);
    });

    it('challenges a stateless 2026-07-28 call the same way', async () => {
      const { app } = running();
      const answer = await modernCall(app, READER, 'set_alert');
      expect(answer.status).toBe(403);
      expect(answer.headers['www-authenticate']).toBe(CHALLENGE);
      expect(JSON.parse(answer.text)).toEqual({ jsonrpc: '2.0', id: 'm1', error: REFUSAL });
      expect((await modernCall(app, WRITER, 'set_alert')).status).toBe(200);
    });

    it('answers a 2025-03-26 batch 200, the refusal among the other answers, without a challenge header', async () => {
      const { app } = running();
      const headers = await session(app, READER, '2025-03-26');
      const answer = await post(app, headers, [call(1, 'set_alert'), call(2, 'forecast')]);
      expect(answer.status).toBe(200);
      expect(answer.headers['www-authenticate']).toBeUndefined();
      const answers = JSON.parse(answer.text) as { id: number; error?: unknown }[];
      expect(answers.find((entry) => entry.id === 1)).toEqual({ jsonrpc: '2.0', id: 1, error: REFUSAL });
      expect(answers.find((entry) => entry.id === 2)).toEqual({
        jsonrpc: '2.0',
        id: 2,
        result: { content: [{ type: 'text', text: 'Forecast for Bern: sunny' }] },
      });
    });

    it('hides what another guard denies, scopes or not: no challenge reveals it', async () => {
      const { app, journal } = running();
      // purge_logs needs weather:write (its class) and the admin role (its own guard): the reader has neither.
      const headers = await session(app, READER);
      const names = await listed(app, headers);
      expect(names).toContain('rotate_keys');
      expect(names).not.toContain('purge_logs');
      const answer = await post(app, headers, call(6, 'purge_logs'));
      expect([answer.status, answer.headers['www-authenticate']]).toEqual([200, undefined]);
      expect(JSON.parse(answer.text).result).toEqual({
        content: [{ type: 'text', text: 'Unknown tool: purge_logs' }],
        isError: true,
      });
      expect((await post(app, headers, call(7, 'rotate_keys'))).status).toBe(403);
      expect(journal.handled.get('purge_logs')).toBeUndefined();
    });

    it('serves a URI from the next template that may, rather than challenge for the first', async () => {
      const { app } = running();
      const headers = await session(app, READER);
      const read = { jsonrpc: '2.0', id: 8, method: 'resources/read', params: { uri: 'docs://payroll' } };
      const answer = await post(app, headers, read);
      expect(answer.status).toBe(200);
      expect(JSON.parse(answer.text).result.contents[0].text).toBe('public payroll');
    });

    it('challenges prompts/get and resources/read of a resource it lists', async () => {
      const { app } = running();
      const headers = await session(app, READER);
      const get = {
        jsonrpc: '2.0',
        id: 9,
        method: 'prompts/get',
        params: { name: 'doc_prompt', arguments: { name: 'x' } },
      };
      const prompt = await post(app, headers, get);
      expect([prompt.status, prompt.headers['www-authenticate']]).toEqual([
        403,
        'Bearer error="insufficient_scope", error_description="Missing scope(s): docs:read", scope="docs:read weather:read"',
      ]);
      const read = { jsonrpc: '2.0', id: 10, method: 'resources/read', params: { uri: 'feeds://payroll' } };
      expect((await post(app, headers, read)).status).toBe(403);
    });

    it('refuses a completion and a subscription without the scopes, as unknown (they list nothing)', async () => {
      const { app } = running();
      const headers = await session(app, READER);
      const complete = {
        jsonrpc: '2.0',
        id: 11,
        method: 'completion/complete',
        params: { ref: { type: 'ref/prompt', name: 'doc_prompt' }, argument: { name: 'name', value: 'pay' } },
      };
      const completion = await post(app, headers, complete);
      expect(completion.status).toBe(200);
      expect(JSON.parse(completion.text)).toMatchObject({ id: 11, error: { code: -32602 } });
      expect(completion.text).not.toContain('payroll');
      const subscribe = { jsonrpc: '2.0', id: 12, method: 'resources/subscribe', params: { uri: 'feeds://payroll' } };
      const subscribed = await post(app, headers, subscribe);
      expect(subscribed.status).toBe(200);
      // As for a URI nothing serves (2025: -32002), so the refusal tells nothing about the resource.
      expect(JSON.parse(subscribed.text)).toEqual({
        jsonrpc: '2.0',
        id: 12,
        error: { code: -32002, message: 'Resource not found', data: { uri: 'feeds://payroll' } },
      });
    });

    it('still answers an unknown tool as such (nothing to challenge)', async () => {
      const { app } = running();
      const headers = await session(app, READER);
      const answer = await post(app, headers, call(5, 'no_such_tool'));
      expect([answer.status, answer.headers['www-authenticate']]).toEqual([200, undefined]);
    });
  });
});
