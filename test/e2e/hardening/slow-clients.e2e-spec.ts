/**
 * A client that trickles its POST body (slowloris) is answered 408 once no byte arrived for
 * `bodyTimeoutMs`, and its connection is closed; clients that send their bodies are not affected.
 */
import { connect } from 'node:net';
import { McpModule } from '../../../src/index.js';
import { httpExchange } from '../../utils/http-exchange.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';

describe('a POST body that stops arriving (e2e)', () => {
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp(McpModule.forRoot({ name: 'slow', version: '1.0.0', http: { bodyTimeoutMs: 300 } }));
  });

  afterAll(() => running?.close());

  it('is answered 408 with a JSON-RPC error, and the connection closed', async () => {
    const { hostname, port, pathname } = new URL(running.mcpUrl);
    const socket = connect(Number(port), hostname);
    const head = [
      `POST ${pathname} HTTP/1.1`,
      `Host: ${hostname}:${port}`,
      'Content-Type: application/json',
      'Accept: application/json, text/event-stream',
      'Content-Length: 200',
      '',
      '',
    ].join('\r\n');
    socket.write(`${head}{"jsonrpc":"2.0",`);
    let answer = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => (answer += chunk));
    await new Promise<void>((resolve) => socket.once('close', () => resolve()));
    expect(answer).toMatch(/^HTTP\/1\.1 408 /);
    expect(answer.toLowerCase()).toContain('connection: close');
    expect(answer).toContain('"code":-32600');
  });

  it('serves a client that sends its body', async () => {
    const answer = await httpExchange(running.mcpUrl, 'POST', MCP_POST_HEADERS, JSON.stringify(initializeRequest()));
    expect(answer.status).toBe(200);
  });
});
