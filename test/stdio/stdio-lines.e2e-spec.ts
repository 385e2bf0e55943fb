/**
 * The stdio transport line by line, against the fixture server (`test/stdio/app`) in a process of
 * its own: what it writes to stdout (every byte, JSON-RPC lines only, though the application logs
 * and a tool writes to stdout every way host code does), what it answers to lines that are not
 * messages, and how it ends (end of stdin, SIGTERM). Run once, in the Express project: stdio has no
 * HTTP platform (jest.config.js runs only test/e2e/ on Fastify).
 */
import {
  ensureBuilt,
  FIXTURE_MAIN,
  initializeLine,
  MODERN_ENVELOPE,
  StdioProcess,
  type Line,
} from '../utils/stdio-process.js';
import { delay, until, within } from '../utils/wait.js';

/** How long an exit may take after the client's EOF or SIGTERM: the "couple of seconds" clients give before they kill. */
const EXIT_WITHIN_MS = 2000;

/** Every byte of stdout is a JSON-RPC message on a line of its own. */
function expectOnlyJsonRpcLines(process: StdioProcess): Line[] {
  const text = process.stdout;
  expect(text.endsWith('\n')).toBe(true);
  const lines = text.slice(0, -1).split('\n');
  const messages = lines.map((line) => {
    let parsed: unknown;
    expect(() => (parsed = JSON.parse(line))).not.toThrow();
    return parsed as Line;
  });
  for (const message of messages) expect(message.jsonrpc).toBe('2.0');
  return messages;
}

const started: StdioProcess[] = [];
function start(env: NodeJS.ProcessEnv = {}): StdioProcess {
  const server = StdioProcess.start(FIXTURE_MAIN, [], env);
  started.push(server);
  return server;
}

async function initialized(server: StdioProcess): Promise<void> {
  server.send(initializeLine(1));
  await server.response(1);
  server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
}

beforeAll(() => ensureBuilt(), 130_000);
afterEach(async () => {
  await Promise.all(started.splice(0).map((server) => server.stop()));
});

describe('stdio: only JSON-RPC on stdout', () => {
  it('keeps stdout for JSON-RPC while the application and a tool log and write to stdout; the logs go to stderr', async () => {
    const server = start();
    await initialized(server);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'chatty', arguments: {} } });
    const answer = await server.response(2);
    expect(answer.result).toEqual({ content: [{ type: 'text', text: 'said it' }] });

    server.endInput();
    const exit = await within(server.exited, EXIT_WITHIN_MS, 'the exit after the end of stdin');
    expect(exit).toMatchObject({ code: 0, signal: null });

    const messages = expectOnlyJsonRpcLines(server);
    expect(messages.map((message) => message.id)).toEqual([1, 2]);
    for (const written of [
      'Starting Nest application',
      'Nest logger in onModuleInit',
      'console.log in onModuleInit',
      'console.info in onApplicationBootstrap',
      'Serving MCP server stdio-fixture 1.0.0 on stdio',
      'console.log from a tool',
      'process.stdout.write from a tool',
      'Nest logger from a tool',
    ]) {
      expect(server.stderr).toContain(written);
    }
  });

  it("shows guards and handlers the transport, the stdio request and the option's user, and no headers", async () => {
    const server = start();
    await initialized(server);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'whoami', arguments: {} } });
    const legacy = await server.response(2);
    // Stateless (2026-07-28) on the same pipe: no headers to mirror, the envelope in _meta is all.
    server.send({
      jsonrpc: '2.0',
      id: 'm',
      method: 'tools/call',
      params: { name: 'whoami', arguments: {}, _meta: MODERN_ENVELOPE },
    });
    const modern = await server.response('m');

    const expected = {
      transport: 'stdio',
      requestTransport: 'stdio',
      user: { sub: 'local-user', scope: 'notes:read' },
      headers: {},
    };
    for (const answer of [legacy, modern]) {
      const text = (answer.result as { content: { text: string }[] }).content[0]!.text;
      expect(JSON.parse(text)).toEqual(expected);
    }
    expect(modern.result).toMatchObject({ resultType: 'complete' });
  });
});

describe('stdio: lines that are not messages', () => {
  it('answers a line that is not JSON with a parse error, and goes on serving', async () => {
    const server = start();
    await initialized(server);
    server.send('this is not JSON');
    server.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await server.response(2);

    expect(server.lines()).toContainEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32700, message: 'Parse error' },
    });
  });

  it('answers a line longer than limits.bodyBytes with an invalid-request error without reading it, and goes on', async () => {
    const server = start({ MCP_BODY_BYTES: '4096' });
    await initialized(server);
    const long = JSON.stringify({
      jsonrpc: '2.0',
      id: 'long',
      method: 'tools/call',
      params: { name: 'chatty', arguments: { padding: 'x'.repeat(20_000) } },
    });
    // In pieces, as a pipe delivers a long line: the server never holds more than the limit of it.
    for (let at = 0; at < long.length; at += 1000) server.write(long.slice(at, at + 1000));
    server.write('\n');
    server.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    await server.response(2);

    const lines = server.lines();
    expect(lines).toContainEqual({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32600, message: 'Invalid Request: the message is longer than 4096 bytes (limits.bodyBytes)' },
    });
    // Not served: its id was never read.
    expect(lines.filter((line) => line.id === 'long')).toEqual([]);
    expect(server.stderr).not.toContain('console.log from a tool');
  });

  it('tells a request sent before initialize to initialize first, and answers a ping', async () => {
    const server = start();
    server.send({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    server.send({ jsonrpc: '2.0', id: 2, method: 'ping' });
    expect(await server.response(1)).toMatchObject({
      error: { code: -32600, message: 'Invalid Request: the session is not initialized: send initialize first' },
    });
    expect(await server.response(2)).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
  });
});

describe('stdio: a client that does not read stdout', () => {
  it('stops reading stdin while stdout is full, and serves everything once the client reads again', async () => {
    const server = StdioProcess.start(FIXTURE_MAIN, [], {}, { readStdout: false });
    started.push(server);
    server.send(initializeLine(1));
    server.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
    // Answers far larger than a pipe holds (64 KiB): stdout fills, and the server must stop reading.
    const lists = 300;
    for (let id = 0; id < lists; id++) server.send({ jsonrpc: '2.0', id: `list-${id}`, method: 'tools/list' });
    // Then more input than the server's stdin pipe holds, in lines whose answers stay below the outbox
    // limit per read: it stays on this side while the server does not read.
    const pad = 'p'.repeat(200);
    const pings = 1000;
    for (let id = 0; id < pings; id++) server.send({ jsonrpc: '2.0', id: `${pad}-${id}`, method: 'ping' });

    // A fixed wait on purpose: the server, were it reading on, would take the pings within it.
    await delay(500);
    expect(server.unreadInput).toBeGreaterThan(0);
    expect(server.running).toBe(true);

    server.readStdout();
    await until(() => server.lines().length === 1 + lists + pings, 'every answer', 20_000);
    expect(server.unreadInput).toBe(0);
    expect(server.running).toBe(true);
    expect(server.stderr).not.toContain('limits.outboxMessages');
    server.endInput();
    expect(await within(server.exited, EXIT_WITHIN_MS, 'the exit after the end of stdin')).toEqual({
      code: 0,
      signal: null,
    });
  });
});

describe('stdio: cancellation and shutdown', () => {
  it('cancels a stateless request by notifications/cancelled: the call aborts and is never answered', async () => {
    const server = start();
    server.send({
      jsonrpc: '2.0',
      id: 'w',
      method: 'tools/call',
      params: { name: 'wait_for_abort', arguments: {}, _meta: MODERN_ENVELOPE },
    });
    await server.waitForStderr(/wait_for_abort w: running/);
    server.send({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'w', reason: 'the user pressed stop', _meta: MODERN_ENVELOPE },
    });
    await server.waitForStderr(/wait_for_abort w: aborted \(cancelled\)/);
    server.send({ jsonrpc: '2.0', id: 'after', method: 'server/discover', params: { _meta: MODERN_ENVELOPE } });
    await server.response('after');

    expect(server.lines().filter((line) => line.id === 'w')).toEqual([]);
  });

  it('ends on SIGTERM within two seconds with exit code 0, aborting the calls that run', async () => {
    const server = start();
    await initialized(server);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait_for_abort', arguments: {} } });
    server.send({
      jsonrpc: '2.0',
      id: 'm',
      method: 'tools/call',
      params: { name: 'wait_for_abort', arguments: {}, _meta: MODERN_ENVELOPE },
    });
    await server.waitForStderr(/wait_for_abort 2: running/);
    await server.waitForStderr(/wait_for_abort m: running/);

    server.kill('SIGTERM');
    const exit = await within(server.exited, EXIT_WITHIN_MS, 'the exit after SIGTERM');
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(server.stderr).toMatch(/wait_for_abort 2: aborted \(session-ended\)/);
    expect(server.stderr).toMatch(/wait_for_abort m: aborted \(shutdown\)/);
    expectOnlyJsonRpcLines(server);
  });

  it('ends at the end of stdin with exit code 0, aborting the call that runs', async () => {
    const server = start();
    await initialized(server);
    server.send({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'wait_for_abort', arguments: {} } });
    await server.waitForStderr(/wait_for_abort 2: running/);

    server.endInput();
    const exit = await within(server.exited, EXIT_WITHIN_MS, 'the exit after the end of stdin');
    expect(exit).toMatchObject({ code: 0, signal: null });
    expect(server.stderr).toMatch(/wait_for_abort 2: aborted \(session-ended\)/);
  });
});
