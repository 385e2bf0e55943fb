/**
 * Methods the endpoint does not serve (PUT, PATCH, OPTIONS, HEAD, TRACE, the WebDAV ones, and every
 * other method Node parses) get 405 with `Allow` and a JSON-RPC
 * error body, on both platforms, rather than the platform's 404 page; a body such a request carried
 * is never read, and the connection is closed after the answer, so a kept-alive socket is never
 * reset under the client's next request. A GET that carries a body is refused
 * with 400, after its body was read within the POST limits.
 */
import http from 'node:http';
import { connect } from 'node:net';
import { McpModule } from '../../../src/index.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { httpExchange } from '../../utils/http-exchange.js';
import { delay, until } from '../../utils/wait.js';
import { MCP_POST_HEADERS, initializeRequest, startApp, type RunningApp } from '../../utils/start-app.js';
import { openSession } from '../../utils/open-session.js';
import { expectRefusal } from '../../utils/refusal.js';

describe('methods the endpoint does not serve (e2e)', () => {
  let running: RunningApp;
  const logger = new RecordingLogger();

  beforeAll(async () => {
    running = await startApp(McpModule.forRoot({ name: 'methods', version: '1.0.0' }), { logger });
  });

  afterAll(() => running?.close());

  // Every method Node parses but CONNECT (which never reaches a route): the WebDAV ones Nest knows,
  // TRACE and QUERY, which it has no decorator for, and the rest, which Fastify routes only when told.
  const OTHER_METHODS = http.METHODS.filter((method) => !['CONNECT', 'GET', 'POST', 'DELETE', 'HEAD'].includes(method));

  it.each(OTHER_METHODS)('answers %s with 405, Allow and a JSON-RPC error', async (method) => {
    const answer = await httpExchange(running.mcpUrl, method, { 'content-type': 'application/json' });
    expectRefusal(answer, 405, {
      message: 'Method Not Allowed: the MCP endpoint answers GET, POST, DELETE',
      headers: { allow: 'GET, POST, DELETE' },
    });
  });

  it('answers HEAD with 405 and Allow, without opening a stream', async () => {
    const answer = await httpExchange(running.mcpUrl, 'HEAD', { accept: 'text/event-stream' });
    expect(answer.status).toBe(405);
    expect(answer.headers.allow).toBe('GET, POST, DELETE');
    expect(answer.headers['content-type']).not.toMatch(/event-stream/);
  });

  it('closes the connection after refusing a request with a body it did not read', async () => {
    const body = JSON.stringify(initializeRequest()).repeat(50);
    const answer = await httpExchange(running.mcpUrl, 'PUT', { 'content-type': 'application/json' }, body);
    expect(answer.status).toBe(405);
    expect(answer.headers.connection).toBe('close');
  });

  it('serves the next request of a kept-alive client after a refused one, on one socket', async () => {
    const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
    const sockets = new Set<unknown>();
    const exchange = (method: string, headers: Record<string, string>, body?: string): Promise<number> =>
      new Promise((resolve, reject) => {
        const req = http.request(running.mcpUrl, { method, headers, agent }, (res) => {
          sockets.add(res.socket);
          res.resume();
          res.once('end', () => resolve(res.statusCode ?? 0));
        });
        req.once('error', reject);
        req.end(body);
      });
    try {
      expect(await exchange('OPTIONS', {})).toBe(405);
      expect(await exchange('POST', MCP_POST_HEADERS, JSON.stringify(initializeRequest()))).toBe(200);
      // Nothing was left unread on the socket: the same one served both.
      expect(sockets.size).toBe(1);
    } finally {
      agent.destroy();
    }
  });

  it('refuses a GET that carries a body, and the session can open its stream afterwards', async () => {
    const opened = await openSession(running.mcpUrl, { initialized: false });
    const session = {
      accept: 'text/event-stream',
      'mcp-session-id': opened.id,
      'mcp-protocol-version': opened.protocolVersion,
    };
    // Larger than the socket buffers: left unread, it would keep the server from seeing the hang-up.
    const body = Buffer.alloc(256 * 1024, 'a');
    // Node's client frames a GET body only when told its length.
    const framed = { ...session, 'content-length': String(body.length) };
    const refused = await httpExchange(running.mcpUrl, 'GET', framed, body);
    expect(refused.status).toBe(400);
    expect(JSON.parse(refused.text).error.message).toBe('Bad Request: a GET request carries no body');
    expect((await httpExchange(running.mcpUrl, 'GET', session)).status).toBe(200);
    // The stream's client hung up: once the server hears it, the session takes a new one (before the
    // fix it never heard it, and every GET got 409 until a keep-alive write failed, 15 s later).
    await until(async () => (await httpExchange(running.mcpUrl, 'GET', session)).status === 200, 'a new stream', 5_000);
  });

  it.each(['POST', 'GET', 'DELETE', 'PUT', 'PATCH', 'OPTIONS', 'PROPFIND'])(
    'logs nothing when a client hangs up in the middle of a %s body',
    async (method) => {
      const { port } = new URL(running.mcpUrl);
      const before = logger.entries.length;
      const socket = connect(Number(port), '127.0.0.1');
      await new Promise((resolve) => socket.once('connect', resolve));
      socket.write(
        `${method} /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: application/json, text/event-stream\r\n` +
          'Content-Type: application/json\r\nContent-Length: 100\r\n\r\n{"jsonrpc":',
      );
      // Fixed waits on purpose: the hang-up must come while the server reads the body (nothing
      // outside tells when it started to), and then nothing may be logged.
      await delay(100);
      socket.destroy();
      await delay(200);
      expect(logger.entries.slice(before).filter((entry) => entry.level === 'error')).toEqual([]);
    },
  );
});
