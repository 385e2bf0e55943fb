import { Injectable } from '@nestjs/common';
import http from 'node:http';
import request from 'supertest';
import { EchoTools } from '../../../sample-app/echo.tools.js';
import { WeatherService } from '../../../sample-app/weather.service.js';
import { WeatherTools } from '../../../sample-app/weather.tools.js';
import { McpModule, McpSessionRegistry, McpTool } from '../../../src/index.js';
import {
  ECHO_TOOL_DEFINITION,
  WEATHER_FORECAST_TOOL_DEFINITION,
  WEATHER_SUMMARY_TOOL_DEFINITION,
} from '../../fixtures/sample-tool-definitions.js';
import { httpExchange, type HttpResult } from '../../utils/http-exchange.js';
import { bodyOf, exchange, HttpMcpClient } from '../../utils/http-mcp-client.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';
import { openSession } from '../../utils/open-session.js';
import { expectNoInternals, expectRefusal } from '../../utils/refusal.js';
import { LEGACY_PROTOCOL_VERSIONS } from '../../../src/protocol/index.js';

/**
 * The Streamable HTTP header contract, proven on the real HTTP endpoint: session ids, status codes,
 * Accept and Content-Type negotiation, body limits, bounded initialize params, the version header
 * on initialize, JSON-RPC decoding errors, empty 202 answers and the shape of every error body.
 */

const MAX_BODY_BYTES = 1024;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const VISIBLE_ASCII = /^[\x21-\x7e]+$/;

@Injectable()
class FaultyTools {
  @McpTool({ description: 'Always fails with an unexpected error' })
  explode(): string {
    throw new Error('secret internal detail in /srv/app/internal.ts:42');
  }
}

/**
 * POSTs a chunked body (no Content-Length) chunk by chunk and never ends it: the server must answer
 * as soon as the body passes its limit, without waiting for the rest.
 */
function postChunkedUntilAnswered(url: string, headers: Record<string, string>, chunk: string): Promise<HttpResult> {
  return new Promise((resolve, reject) => {
    let answered = false;
    let written = 0;
    const req = http.request(url, { method: 'POST', headers, agent: false }, (res) => {
      answered = true;
      const chunks: Buffer[] = [];
      res.on('data', (data: Buffer) => chunks.push(data));
      const finish = (): void => {
        resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') });
        req.destroy();
      };
      res.on('end', finish);
      res.on('close', finish);
    });
    req.on('error', (error) => {
      if (!answered) reject(error);
    });
    req.setTimeout(3000, () => req.destroy(new Error('chunked POST was not answered')));
    const writeMore = (): void => {
      if (answered || req.destroyed || written > 64 * 1024) return;
      written += chunk.length;
      req.write(chunk);
      setTimeout(writeMore, 5);
    };
    writeMore();
  });
}

describe('Streamable HTTP transport: header contract (e2e)', () => {
  let running: RunningApp;
  let base: string;

  beforeAll(async () => {
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'transport-e2e', version: '1.2.3', limits: { bodyBytes: MAX_BODY_BYTES } })],
      providers: [WeatherService, WeatherTools, EchoTools, FaultyTools],
    });
    base = running.baseUrl;
  });

  afterAll(async () => {
    await running?.close();
  });

  const post = (sessionId?: string) => {
    const req = request(base).post('/mcp').set(MCP_POST_HEADERS);
    return sessionId === undefined ? req : req.set('Mcp-Session-Id', sessionId);
  };

  /** A session's id, not acknowledged with `notifications/initialized` (these tests send exactly what they mean to). */
  const newSession = async (protocolVersion = '2025-06-18'): Promise<string> =>
    (await openSession(running.mcpUrl, { protocolVersion, initialized: false })).id;

  const supertestResult = (res: request.Response): HttpResult => ({
    status: res.status,
    headers: res.headers as http.IncomingHttpHeaders,
    text: res.text,
  });

  describe('initialize and the session id', () => {
    it('returns a visible-ASCII, UUID-like Mcp-Session-Id, different on every initialize', async () => {
      const ids: string[] = [];
      for (let i = 0; i < 5; i++) {
        const res = await post().send(initializeRequest('2025-06-18', i));
        expect(res.status).toBe(200);
        const id = res.headers['mcp-session-id'] as string;
        expect(id).toMatch(VISIBLE_ASCII);
        expect(id).toMatch(UUID);
        ids.push(id);
      }
      expect(new Set(ids).size).toBe(ids.length);
    });

    it('answers initialize as one JSON object with the negotiated version and the server description', async () => {
      const res = await post().send(initializeRequest('2025-06-18', 'init-1'));
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^application\/json\b/);
      expect(res.body).toEqual({
        jsonrpc: '2.0',
        id: 'init-1',
        result: {
          protocolVersion: '2025-06-18',
          capabilities: {
            tools: { listChanged: true },
            resources: { subscribe: true, listChanged: true },
            prompts: { listChanged: true },
            completions: {},
            logging: {},
          },
          serverInfo: { name: 'transport-e2e', version: '1.2.3' },
        },
      });
    });

    it.each([...LEGACY_PROTOCOL_VERSIONS])('echoes the supported requested protocolVersion %s', async (version) => {
      const res = await post().send(initializeRequest(version, 7));
      expect(res.status).toBe(200);
      expect(res.body.result.protocolVersion).toBe(version);
      expect(res.headers['mcp-session-id']).toMatch(UUID);
    });

    it.each(['1999-01-01', '2026-99-99', 'latest'])(
      'answers an unsupported protocolVersion %s with the latest (2025-11-25), not an error',
      async (version) => {
        const res = await post().send(initializeRequest(version, 8));
        expect(res.status).toBe(200);
        expect(LEGACY_PROTOCOL_VERSIONS[0]).toBe('2025-11-25');
        expect(res.body).toMatchObject({ jsonrpc: '2.0', id: 8, result: { protocolVersion: '2025-11-25' } });
        expect(res.headers['mcp-session-id']).toMatch(UUID);
      },
    );

    it('answers initialize with invalid params with -32602 and creates no session', async () => {
      const res = await post().send({
        jsonrpc: '2.0',
        id: 'bad-init',
        method: 'initialize',
        params: { capabilities: {} },
      });
      expect(res.headers['mcp-session-id']).toBeUndefined();
      expectRefusal(supertestResult(res), 200, { id: 'bad-init', code: -32602 });
    });

    it('echoes the session id on later JSON and 202 responses', async () => {
      const sessionId = await newSession();
      const ping = await post(sessionId).send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(ping.status).toBe(200);
      expect(ping.headers['mcp-session-id']).toBe(sessionId);

      const initialized = await post(sessionId).send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(initialized.status).toBe(202);
      expect(initialized.headers['mcp-session-id']).toBe(sessionId);
    });

    it('accepts the session header in any letter case', async () => {
      const sessionId = await newSession();
      const res = await request(base)
        .post('/mcp')
        .set(MCP_POST_HEADERS)
        .set('MCP-SESSION-ID', sessionId)
        .send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });
  });

  describe('session header errors', () => {
    it('answers a non-initialize POST without Mcp-Session-Id with 400', async () => {
      const res = await post().send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expectRefusal(supertestResult(res), 400);
    });

    it('answers a notification without Mcp-Session-Id with 400', async () => {
      const res = await post().send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      expectRefusal(supertestResult(res), 400);
    });

    it('answers an unknown session id with 404', async () => {
      const res = await post('00000000-0000-4000-8000-000000000000').send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expectRefusal(supertestResult(res), 404);
    });

    it('answers an unknown session id with 404 even for initialize', async () => {
      const res = await post('no-such-session').send(initializeRequest());
      expectRefusal(supertestResult(res), 404);
    });

    it('DELETE ends the session with 204; the id then answers 404 on POST, GET and DELETE', async () => {
      const sessionId = await newSession();
      const del = await request(base).delete('/mcp').set('Mcp-Session-Id', sessionId);
      expect(del.status).toBe(204);
      expect(del.text).toBe('');

      const afterPost = await post(sessionId).send({ jsonrpc: '2.0', id: 2, method: 'ping' });
      expectRefusal(supertestResult(afterPost), 404);
      const afterGet = await httpExchange(running.mcpUrl, 'GET', {
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
      });
      expectRefusal(afterGet, 404);
      const afterDelete = await request(base).delete('/mcp').set('Mcp-Session-Id', sessionId);
      expectRefusal(supertestResult(afterDelete), 404);
    });

    it('DELETE without Mcp-Session-Id → 400', async () => {
      const res = await request(base).delete('/mcp');
      expectRefusal(supertestResult(res), 400);
    });

    it('DELETE with an unknown session id → 404', async () => {
      const res = await request(base).delete('/mcp').set('Mcp-Session-Id', 'unknown-session');
      expectRefusal(supertestResult(res), 404);
    });

    it('GET without Mcp-Session-Id → 400, GET with an unknown one → 404', async () => {
      const missing = await httpExchange(running.mcpUrl, 'GET', { accept: 'text/event-stream' });
      expectRefusal(missing, 400);
      const unknown = await httpExchange(running.mcpUrl, 'GET', {
        accept: 'text/event-stream',
        'mcp-session-id': 'nope',
      });
      expectRefusal(unknown, 404);
    });
  });

  describe('Accept on POST', () => {
    it.each<[string, string | undefined, number]>([
      ['missing', undefined, 406],
      ['only application/json', 'application/json', 406],
      ['only text/event-stream', 'text/event-stream', 406],
      ['an unrelated type', 'text/html', 406],
      ['both', 'application/json, text/event-stream', 200],
      ['both, reversed and spaced', 'text/event-stream ,  application/json', 200],
      ['both, mixed case', 'Application/JSON, Text/Event-Stream', 200],
      ['both with non-zero q', 'application/json;q=0.5, text/event-stream;q=0.9', 200],
      ['*/*', '*/*', 200],
      ['application/* and text/*', 'application/*, text/*', 200],
      ['application/json and text/*', 'application/json, text/*', 200],
      ['application/* and text/event-stream', 'application/*, text/event-stream', 200],
      ['text/event-stream refused with q=0', 'application/json, text/event-stream;q=0', 406],
      ['application/json refused with q=0', 'application/json;q=0, text/event-stream', 406],
      ['*/* with q=0', '*/*;q=0', 406],
      ['*/* but text/event-stream refused with q=0', '*/*, text/event-stream;q=0', 406],
      ['*/* but application/json refused with q=0', '*/*, application/json; q=0', 406],
    ])('Accept %s (%s) → %i', async (_label, accept, status) => {
      const headers: Record<string, string> = { 'content-type': 'application/json' };
      if (accept !== undefined) headers.accept = accept;
      const res = await httpExchange(running.mcpUrl, 'POST', headers, JSON.stringify(initializeRequest()));
      if (status === 200) {
        expect({ status: res.status, text: res.text }).toMatchObject({ status: 200 });
        expect(JSON.parse(res.text)).toMatchObject({
          jsonrpc: '2.0',
          id: 0,
          result: { protocolVersion: '2025-06-18' },
        });
      } else {
        expectRefusal(res, status);
      }
    });
  });

  describe('Accept on GET', () => {
    it.each<[string | undefined, number]>([
      [undefined, 406],
      ['application/json', 406],
      ['text/html', 406],
      ['text/event-stream;q=0', 406],
      ['*/*, text/event-stream;q=0', 406],
      ['text/event-stream', 200],
      ['application/json, text/event-stream', 200],
      ['text/*', 200],
      ['*/*', 200],
    ])('Accept %s → %i', async (accept, status) => {
      const sessionId = await newSession();
      const headers: Record<string, string> = { 'mcp-session-id': sessionId };
      if (accept !== undefined) headers.accept = accept;
      const res = await httpExchange(running.mcpUrl, 'GET', headers);
      if (status === 200) {
        expect(res.status).toBe(200);
        expect(res.headers['content-type']).toMatch(/^text\/event-stream\b/);
        expect(res.headers['mcp-session-id']).toBe(sessionId);
      } else {
        expectRefusal(res, status);
      }
    });
  });

  describe('Content-Type on POST', () => {
    it.each<[string | undefined, number]>([
      [undefined, 415],
      ['text/plain', 415],
      ['application/x-www-form-urlencoded', 415],
      ['application/jsonp', 415],
      ['application/json; charset=latin1', 415],
      ['application/json; charset=iso-8859-1', 415],
      ['application/json', 200],
      ['APPLICATION/JSON', 200],
      ['application/json; charset=utf-8', 200],
      ['application/json;charset=UTF-8', 200],
      ['application/json; charset="utf-8"', 200],
    ])('Content-Type %s → %i', async (contentType, status) => {
      const headers: Record<string, string> = { accept: 'application/json, text/event-stream' };
      if (contentType !== undefined) headers['content-type'] = contentType;
      const res = await httpExchange(running.mcpUrl, 'POST', headers, JSON.stringify(initializeRequest()));
      if (status === 200) {
        expect({ status: res.status, text: res.text }).toMatchObject({ status: 200 });
        expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: '2.0', id: 0, result: {} });
        expect(res.headers['mcp-session-id']).toMatch(UUID);
      } else {
        expectRefusal(res, status);
      }
    });
  });

  describe('body size limit (maxBodyBytes = 1024)', () => {
    /** A ping whose JSON text is exactly `size` bytes long. */
    function pingOfSize(size: number): string {
      const empty = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { _meta: { pad: '' } } });
      return JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'ping',
        params: { _meta: { pad: 'x'.repeat(size - empty.length) } },
      });
    }

    it('accepts a body of exactly maxBodyBytes', async () => {
      const sessionId = await newSession();
      const body = pingOfSize(MAX_BODY_BYTES);
      expect(Buffer.byteLength(body)).toBe(MAX_BODY_BYTES);
      const res = await httpExchange(
        running.mcpUrl,
        'POST',
        { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId },
        body,
      );
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it('answers a declared Content-Length over the limit with 413', async () => {
      const sessionId = await newSession();
      const body = pingOfSize(MAX_BODY_BYTES + 1);
      const res = await httpExchange(
        running.mcpUrl,
        'POST',
        { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'content-length': String(Buffer.byteLength(body)) },
        body,
      );
      expectRefusal(res, 413, { code: -32600 });
    });

    it('answers a chunked body (no Content-Length) that passes the limit with 413, without waiting for its end', async () => {
      const sessionId = await newSession();
      const res = await postChunkedUntilAnswered(
        running.mcpUrl,
        { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'transfer-encoding': 'chunked' },
        '{"jsonrpc":"2.0","id":1,"method":"ping","params":{"pad":"' + 'x'.repeat(300),
      );
      expect(res.headers['content-length']).toBeDefined();
      expectRefusal(res, 413, { code: -32600 });
      // The session is still usable afterwards.
      const ping = await post(sessionId).send({ jsonrpc: '2.0', id: 2, method: 'ping' });
      expect(ping.status).toBe(200);
    });

    it('answers an oversized initialize with 413 and creates no session', async () => {
      const body = JSON.stringify({
        ...initializeRequest(),
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'x'.repeat(2 * MAX_BODY_BYTES), version: '1' },
        },
      });
      const res = await httpExchange(running.mcpUrl, 'POST', { ...MCP_POST_HEADERS }, body);
      expectRefusal(res, 413, { code: -32600 });
    });
  });

  describe('JSON-RPC decoding', () => {
    it.each([
      ['truncated JSON', '{"jsonrpc":"2.0","id":1,'],
      ['not JSON at all', 'hello'],
      ['an empty body', ''],
    ])('answers %s with 400 and -32700, id null (with a session)', async (_label, body) => {
      const sessionId = await newSession();
      const res = await httpExchange(
        running.mcpUrl,
        'POST',
        { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId },
        body,
      );
      expectRefusal(res, 400, { code: -32700 });
    });

    it('answers invalid JSON without a session with 400 and -32700, and creates no session', async () => {
      const res = await httpExchange(
        running.mcpUrl,
        'POST',
        { ...MCP_POST_HEADERS },
        '{"jsonrpc":"2.0","method":"initialize"',
      );
      expectRefusal(res, 400, { code: -32700 });
    });

    it.each<[string, unknown, string | number | null]>([
      ['wrong jsonrpc version', { jsonrpc: '1.0', id: 1, method: 'ping' }, 1],
      ['missing jsonrpc', { id: 2, method: 'ping' }, 2],
      ['non-string method', { jsonrpc: '2.0', id: 3, method: 42 }, 3],
      ['positional params', { jsonrpc: '2.0', id: 'p', method: 'ping', params: [1, 2] }, 'p'],
      ['null id', { jsonrpc: '2.0', id: null, method: 'ping' }, null],
      ['fractional id', { jsonrpc: '2.0', id: 1.5, method: 'ping' }, null],
      ['neither method nor result', { jsonrpc: '2.0', id: 4 }, 4],
      ['a string', 'hello', null],
      ['a number', 42, null],
      ['null', null, null],
    ])('answers an invalid message (%s) with 400 and -32600', async (_label, message, id) => {
      const sessionId = await newSession();
      const res = await httpExchange(
        running.mcpUrl,
        'POST',
        { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId },
        JSON.stringify(message),
      );
      expectRefusal(res, 400, { id, code: -32600, sessionId });
    });

    it('answers a body of one notification with 202 and an empty body', async () => {
      const sessionId = await newSession();
      for (const method of ['notifications/initialized', 'notifications/something-unknown']) {
        const res = await httpExchange(
          running.mcpUrl,
          'POST',
          { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId },
          JSON.stringify({ jsonrpc: '2.0', method }),
        );
        expect(res.status).toBe(202);
        expect(res.text).toBe('');
      }
    });

    it.each([
      ['a result', { jsonrpc: '2.0', id: 'server-1', result: {} }],
      ['an error', { jsonrpc: '2.0', id: 'server-2', error: { code: -32601, message: 'no' } }],
    ])('answers a client JSON-RPC response (%s) with 202 and an empty body', async (_label, message) => {
      const sessionId = await newSession();
      const res = await httpExchange(
        running.mcpUrl,
        'POST',
        { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId },
        JSON.stringify(message),
      );
      expect(res.status).toBe(202);
      expect(res.text).toBe('');
      expect(res.headers['mcp-session-id']).toBe(sessionId);
    });
  });

  describe('MCP-Protocol-Version header', () => {
    it('is optional', async () => {
      const sessionId = await newSession();
      const res = await post(sessionId).send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it.each([...LEGACY_PROTOCOL_VERSIONS])('accepts the supported version %s', async (version) => {
      const sessionId = await newSession();
      const res = await post(sessionId)
        .set('MCP-Protocol-Version', version)
        .send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 1, result: {} });
    });

    it.each(['2099-01-01', 'garbage', '2025-06-18x'])(
      'answers an unsupported version %s with 400 on POST',
      async (version) => {
        const sessionId = await newSession();
        const res = await post(sessionId)
          .set('MCP-Protocol-Version', version)
          .send({ jsonrpc: '2.0', id: 1, method: 'ping' });
        expectRefusal(supertestResult(res), 400);
      },
    );

    it('answers an unsupported version with 400 on GET and DELETE, and the session survives', async () => {
      const sessionId = await newSession();
      const get = await httpExchange(running.mcpUrl, 'GET', {
        accept: 'text/event-stream',
        'mcp-session-id': sessionId,
        'mcp-protocol-version': '1.0',
      });
      expectRefusal(get, 400);
      const del = await request(base)
        .delete('/mcp')
        .set('Mcp-Session-Id', sessionId)
        .set('MCP-Protocol-Version', '1.0');
      expectRefusal(supertestResult(del), 400);
      const ping = await post(sessionId).send({ jsonrpc: '2.0', id: 1, method: 'ping' });
      expect(ping.status).toBe(200);
    });
  });

  describe('methods', () => {
    it('ping → {} (string and integer ids round-trip)', async () => {
      const sessionId = await newSession();
      const a = await post(sessionId).send({ jsonrpc: '2.0', id: 'ping-α', method: 'ping' });
      expect(a.status).toBe(200);
      expect(a.body).toEqual({ jsonrpc: '2.0', id: 'ping-α', result: {} });
      const b = await post(sessionId).send({ jsonrpc: '2.0', id: 9007199254740991, method: 'ping' });
      expect(b.body).toEqual({ jsonrpc: '2.0', id: 9007199254740991, result: {} });
    });

    it('tools/list lists the sample tools with their schemas', async () => {
      const sessionId = await newSession();
      const res = await post(sessionId).send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
      expect(res.status).toBe(200);
      expect(res.body.id).toBe(1);
      const tools = res.body.result.tools as { name: string }[];
      expect(tools.map((tool) => tool.name).sort()).toEqual(['echo', 'explode', 'weather_forecast', 'weather_summary']);
      expect(tools.find((tool) => tool.name === 'echo')).toEqual(ECHO_TOOL_DEFINITION);
      expect(tools.find((tool) => tool.name === 'weather_forecast')).toEqual(WEATHER_FORECAST_TOOL_DEFINITION);
      expect(tools.find((tool) => tool.name === 'weather_summary')).toEqual(WEATHER_SUMMARY_TOOL_DEFINITION);
      expect(tools.find((tool) => tool.name === 'explode')).toEqual({
        name: 'explode',
        description: 'Always fails with an unexpected error',
        inputSchema: { type: 'object', additionalProperties: false },
      });
    });

    it('tools/call echo returns exactly the given text', async () => {
      const sessionId = await newSession();
      const text = 'héllo, 世界 🌍';
      const res = await post(sessionId).send({
        jsonrpc: '2.0',
        id: 3,
        method: 'tools/call',
        params: { name: 'echo', arguments: { text } },
      });
      expect(res.status).toBe(200);
      expect(res.body).toEqual({ jsonrpc: '2.0', id: 3, result: { content: [{ type: 'text', text }] } });
    });

    it('an unknown method → -32601 with the request id', async () => {
      const sessionId = await newSession();
      const res = await post(sessionId).send({ jsonrpc: '2.0', id: 'x1', method: 'no/such/method' });
      expect(res.status).toBe(200);
      expectRefusal(supertestResult(res), 200, { id: 'x1', code: -32601, sessionId });
    });

    it('a tool failing unexpectedly → -32603 "Internal error" that reveals nothing', async () => {
      const sessionId = await newSession();
      const res = await post(sessionId).send({
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'explode', arguments: {} },
      });
      const error = expectRefusal(supertestResult(res), 200, { id: 5, code: -32603, sessionId });
      expect(error).toEqual({ code: -32603, message: 'Internal error' });
      // The server keeps serving.
      const ping = await post(sessionId).send({ jsonrpc: '2.0', id: 6, method: 'ping' });
      expect(ping.body).toEqual({ jsonrpc: '2.0', id: 6, result: {} });
    });
  });

  describe('error bodies', () => {
    it('every transport error body is a JSON-RPC error without a stack trace', async () => {
      const sessionId = await newSession();
      const json = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping' });
      const cases: [Promise<HttpResult>, number][] = [
        [httpExchange(running.mcpUrl, 'POST', { 'content-type': 'application/json' }, json), 406],
        [
          httpExchange(running.mcpUrl, 'POST', { accept: MCP_POST_HEADERS.accept, 'content-type': 'text/plain' }, json),
          415,
        ],
        [httpExchange(running.mcpUrl, 'POST', { ...MCP_POST_HEADERS }, json), 400],
        [httpExchange(running.mcpUrl, 'POST', { ...MCP_POST_HEADERS, 'mcp-session-id': 'gone' }, json), 404],
        [httpExchange(running.mcpUrl, 'POST', { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId }, '{'), 400],
        [
          httpExchange(
            running.mcpUrl,
            'POST',
            { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId },
            JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', pad: 'x'.repeat(2 * MAX_BODY_BYTES) }),
          ),
          413,
        ],
        [httpExchange(running.mcpUrl, 'DELETE', {}), 400],
        [httpExchange(running.mcpUrl, 'DELETE', { 'mcp-session-id': 'gone' }), 404],
        [httpExchange(running.mcpUrl, 'GET', { 'mcp-session-id': sessionId }), 406],
      ];
      for (const [pending, status] of cases) {
        const res = await pending;
        expect(res.status).toBe(status);
        const body = JSON.parse(res.text) as { jsonrpc: string; id: unknown; error: { code: number; message: string } };
        expect(body.jsonrpc).toBe('2.0');
        expect(body.id).toBeNull();
        expect(Number.isInteger(body.error.code)).toBe(true);
        expect(body.error.message.length).toBeGreaterThan(0);
        expectNoInternals(res.text);
      }
    });
  });
});

describe('Streamable HTTP transport: initialize params, the version header on initialize, empty 202 answers (e2e)', () => {
  let running: RunningApp;
  let registry: McpSessionRegistry;
  let client: HttpMcpClient;

  beforeAll(async () => {
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'transport-initialize-e2e', version: '1.0.0' })],
      providers: [EchoTools],
    });
    registry = running.app.get(McpSessionRegistry);
    client = new HttpMcpClient(running.mcpUrl);
    await client.initialize();
  });

  afterAll(async () => {
    await running?.close();
  });

  describe('initialize params', () => {
    it('larger than 64 KiB are refused with -32602 and create no session; a normal initialize still works', async () => {
      const before = registry.size;
      const huge = initializeRequest('2025-06-18', 'huge') as { params: { capabilities: object } };
      huge.params.capabilities = { experimental: { blob: { data: 'x'.repeat(65 * 1024) } } };

      const reply = await exchange(running.mcpUrl, { headers: { ...MCP_POST_HEADERS }, body: huge });

      expect(reply.status).toBe(200);
      expect(reply.headers['mcp-session-id']).toBeUndefined();
      const body = bodyOf(reply);
      expect(body.id).toBe('huge');
      expect(body.error?.code).toBe(-32602);
      expect(body.result).toBeUndefined();
      expect(registry.size).toBe(before);

      await new HttpMcpClient(running.mcpUrl).initialize();
      expect(registry.size).toBe(before + 1);
    });

    it('ignore an unsupported MCP-Protocol-Version header on initialize, but not on later requests', async () => {
      const fresh = new HttpMcpClient(running.mcpUrl, { 'mcp-protocol-version': '1999-01-01' });
      const reply = await fresh.post(initializeRequest('2025-06-18', 'init'));
      expect(reply.status).toBe(200);
      expect(bodyOf(reply).result?.protocolVersion).toBe('2025-06-18');
      fresh.sessionId = reply.headers['mcp-session-id'] as string;
      expect(registry.get(fresh.sessionId)).toBeDefined();

      const list = await fresh.post({ jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(list.status).toBe(400);
      const ok = await fresh.post(
        { jsonrpc: '2.0', id: 3, method: 'tools/list' },
        { 'mcp-protocol-version': '2025-06-18' },
      );
      expect(ok.status).toBe(200);
    });
  });

  describe('202 Accepted', () => {
    function expectEmpty202(reply: HttpResult): void {
      expect(reply.status).toBe(202);
      expect(reply.text).toBe('');
      expect(reply.headers['content-length']).toBe('0');
      expect(reply.headers['transfer-encoding']).toBeUndefined();
    }

    it('a notification has content-length: 0 and is not chunked', async () => {
      expectEmpty202(await client.post({ jsonrpc: '2.0', method: 'notifications/initialized' }));
    });

    it('a response from the client has content-length: 0 and is not chunked', async () => {
      expectEmpty202(await client.post({ jsonrpc: '2.0', id: 'srv-1', result: {} }));
    });

    it('a 2025-03-26 batch of notifications has content-length: 0 and is not chunked', async () => {
      const old = new HttpMcpClient(running.mcpUrl);
      await old.initialize('2025-03-26');
      expectEmpty202(
        await old.post([
          { jsonrpc: '2.0', method: 'notifications/initialized' },
          { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 1 } },
        ]),
      );
    });
  });
});
