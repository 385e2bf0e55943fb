/**
 * Session lifecycle end to end: what a client disconnecting, a tool that never returns, the idle
 * clock, the order of the handshake and a client that stops reading its stream do to a session.
 */
import type { IncomingMessage } from 'node:http';
import net from 'node:net';
import { McpModule, type McpModuleOptions } from '../../../src/index.js';
import { LifecycleProbeTools, type CallTrace } from '../../fixtures/lifecycle-probe.tools.js';
import { httpExchange, type HttpResult } from '../../utils/http-exchange.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';
import { delay, until, within } from '../../utils/wait.js';
import { replyOf } from '../../utils/http-mcp-client.js';
import { openSession } from '../../utils/open-session.js';
import { type ClientSession as McpSession, SessionStore } from '../../internals/index.js';

/** A 2025-06-18 session's id; acknowledged with `notifications/initialized` unless told not to. */
async function initialize(app: RunningApp, initialized = true): Promise<string> {
  return (await openSession(app.mcpUrl, { initialized })).id;
}

function post(app: RunningApp, sessionId: string, message: unknown): Promise<HttpResult> {
  return httpExchange(
    app.mcpUrl,
    'POST',
    { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
    JSON.stringify(message),
  );
}

function ping(app: RunningApp, sessionId: string, id: string | number = 'ping'): Promise<HttpResult> {
  return post(app, sessionId, { jsonrpc: '2.0', id, method: 'ping' });
}

function getStream(app: RunningApp, sessionId: string): Promise<HttpResult> {
  return httpExchange(app.mcpUrl, 'GET', { accept: 'text/event-stream', 'mcp-session-id': sessionId });
}

describe('session lifecycle (e2e)', () => {
  let running: RunningApp | undefined;
  let tools: LifecycleProbeTools | undefined;
  /** Requests still open when a test ends: aborted in afterEach, so nothing outlives its test. */
  const aborters: AbortController[] = [];

  afterEach(async () => {
    tools?.releaseAll();
    for (const aborter of aborters.splice(0)) aborter.abort();
    await running?.close();
    running = undefined;
    tools = undefined;
  });

  async function start(options: Partial<McpModuleOptions> = {}, logger?: RecordingLogger): Promise<RunningApp> {
    running = await startApp(
      {
        imports: [McpModule.forRoot({ name: 'lifecycle-e2e', version: '1.0.0', ...options })],
        providers: [LifecycleProbeTools],
      },
      logger ? { logger } : {},
    );
    tools = running.app.get(LifecycleProbeTools);
    return running;
  }

  function registryOf(app: RunningApp): SessionStore {
    return app.app.get(SessionStore);
  }

  /**
   * Starts a `tools/call` whose POST the test may abandon; resolves once the handler runs.
   * The POST is aborted at the latest when the test ends.
   */
  async function startCall(
    app: RunningApp,
    sessionId: string,
    name: string,
    id: string | number,
  ): Promise<{ trace: CallTrace; aborter: AbortController; response: Promise<Response | Error> }> {
    const aborter = new AbortController();
    aborters.push(aborter);
    const started = tools!.nextStart();
    const response = fetch(app.mcpUrl, {
      method: 'POST',
      headers: { ...MCP_POST_HEADERS, 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' },
      body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }),
      signal: aborter.signal,
    }).catch((error: unknown) => (error instanceof Error ? error : new Error(String(error))));
    const trace = await within(started, 3000, `the start of ${name}`);
    return { trace, aborter, response };
  }

  describe('a client that disconnects during a call', () => {
    it('does not cancel the call: its signal stays un-aborted and it runs to completion', async () => {
      const logger = new RecordingLogger();
      const app = await start({}, logger);
      const sessionId = await initialize(app);

      const { trace, aborter, response } = await startCall(app, sessionId, 'held_call', 'disconnect-1');
      const serverSocket = (trace.context.request as IncomingMessage).socket;
      const serverSawClose = new Promise<void>((resolve) => {
        if (serverSocket.destroyed) resolve();
        else serverSocket.once('close', () => resolve());
      });

      aborter.abort();
      expect(await response).toBeInstanceOf(Error);
      // The server has seen the connection go before the signal is judged.
      await within(serverSawClose, 3000, 'the server noticing the disconnection');
      // A fixed wait on purpose: the signal must NOT be aborted, and 50 ms is time enough for it to be.
      await delay(50);
      expect(trace.context.signal.aborted).toBe(false);

      tools!.releaseAll();
      expect(await within(trace.finished, 3000, 'the end of the call')).toEqual({ aborted: false, value: 'released' });
      // Nobody is left to read the answer, and that is not an error; the session is still there.
      expect(trace.context.signal.aborted).toBe(false);
      const after = await ping(app, sessionId);
      expect(after.status).toBe(200);
      expect(replyOf(after)).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
      expect(registryOf(app).get(sessionId)?.busy).toBe(false);
      expect(logger.at('error')).toEqual([]);
    });
  });

  describe('a tool that never returns', () => {
    it('does not pin its session: the sweep ends it (404 afterwards) and aborts the hung call', async () => {
      const idle = 1000;
      const app = await start({ sessions: { idleTimeoutMs: idle } });
      const registry = registryOf(app);
      const sessionId = await initialize(app);
      const { trace } = await startCall(app, sessionId, 'never_returns', 'hung-1');
      const session = registry.get(sessionId);
      expect(session?.busy).toBe(true);

      expect(registry.sweep(Date.now() + 10 * idle)).toBe(1);

      expect(session?.ended).toBe(true);
      expect(session?.endedBecause).toBe('idle');
      expect(trace.context.signal.aborted).toBe(true);
      expect(String(trace.context.signal.reason)).toMatch(/idle/);
      expect(registry.get(sessionId)).toBeUndefined();
      expect((await ping(app, sessionId)).status).toBe(404);
      expect((await getStream(app, sessionId)).status).toBe(404);
      expect(
        (
          await httpExchange(app.mcpUrl, 'DELETE', {
            'mcp-session-id': sessionId,
            'mcp-protocol-version': '2025-06-18',
          })
        ).status,
      ).toBe(404);
    });

    it('with maxSessions: 1, a new initialize succeeds once the hung session is idle (hasRoom sweeps)', async () => {
      const idle = 200;
      const app = await start({ sessions: { idleTimeoutMs: idle }, limits: { sessions: 1 } });
      const hungSession = await initialize(app);
      const { trace } = await startCall(app, hungSession, 'never_returns', 'hung-2');

      // Not idle yet: the cap holds.
      const refused = await httpExchange(app.mcpUrl, 'POST', MCP_POST_HEADERS, JSON.stringify(initializeRequest()));
      expect(refused.status).toBe(503);
      expect(refused.headers['mcp-session-id']).toBeUndefined();

      // A fixed wait on purpose: the idle timeout running out is what is tested.
      await delay(idle + 150);
      const accepted = await httpExchange(app.mcpUrl, 'POST', MCP_POST_HEADERS, JSON.stringify(initializeRequest()));
      expect(accepted.status).toBe(200);
      const newSession = accepted.headers['mcp-session-id'] as string;
      expect(typeof newSession).toBe('string');
      expect(newSession).not.toBe(hungSession);

      expect(trace.context.signal.aborted).toBe(true);
      expect((await ping(app, hungSession)).status).toBe(404);
      expect((await ping(app, newSession)).status).toBe(200);
      expect(registryOf(app).size).toBe(1);
    });
  });

  describe('the idle clock', () => {
    it('restarts when a call ends: a call longer than the idle timeout leaves its session alive', async () => {
      // The registry's own timer first runs 1 s after bootstrap; this test is done before that, so
      // only the sweeps it makes itself can end the session.
      const idle = 400;
      const app = await start({ sessions: { idleTimeoutMs: idle } });
      const registry = registryOf(app);
      const sessionId = await initialize(app);
      tools!.traces.length = 0;

      const startedAt = Date.now();
      const reply = await post(app, sessionId, {
        jsonrpc: '2.0',
        id: 'sleep-1',
        method: 'tools/call',
        params: { name: 'sleep', arguments: { ms: 600 } },
      });
      expect(Date.now() - startedAt).toBeGreaterThanOrEqual(600);
      expect(reply.status).toBe(200);
      expect(replyOf(reply)?.result).toEqual({ content: [{ type: 'text', text: 'slept 600' }] });
      expect(await tools!.traces[0]!.finished).toEqual({ aborted: false, value: 'slept 600' });

      // The call's request arrived more than `idle` ago, but the call ended just now.
      expect(registry.sweep(Date.now())).toBe(0);
      const pinged = await ping(app, sessionId);
      expect(pinged.status).toBe(200);
      expect(replyOf(pinged)).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });

      // The clock still runs: past the timeout from now, the session is idle.
      expect(registry.sweep(Date.now() + 2 * idle)).toBe(1);
      expect((await ping(app, sessionId)).status).toBe(404);
    });
  });

  describe('before notifications/initialized', () => {
    it('answers ping with {} and serves tools/list (the server does not require the notification)', async () => {
      const app = await start();
      const sessionId = await initialize(app, false);
      expect(registryOf(app).get(sessionId)?.initialized).toBe(false);

      const pinged = await ping(app, sessionId, 1);
      expect(pinged.status).toBe(200);
      expect(replyOf(pinged)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });

      const listed = await post(app, sessionId, { jsonrpc: '2.0', id: 2, method: 'tools/list' });
      expect(listed.status).toBe(200);
      const names = ((replyOf(listed)?.result?.tools ?? []) as { name: string }[]).map((tool) => tool.name);
      expect(names.sort()).toEqual(['held_call', 'never_returns', 'sleep']);

      // Sent late, the notification is still accepted and recorded.
      const ack = await post(app, sessionId, { jsonrpc: '2.0', method: 'notifications/initialized' });
      expect(ack.status).toBe(202);
      expect(registryOf(app).get(sessionId)?.initialized).toBe(true);
    });
  });
});

/**
 * A client that stops reading its GET stream must not hold its connection (and the bytes waiting for
 * it) once its session ends: the stream is cut about 5 s later. Both cases share one application and
 * their sessions end together, so the file waits for the cut only once.
 */
describe('a session ended while its GET stream is stalled (client not reading)', () => {
  /** How long after the session ends the server must have closed the stalled connection. */
  const CUT_WITHIN_MS = 7000;
  const payload = 'x'.repeat(512 * 1024);
  let app: RunningApp;
  const accepted: net.Socket[] = [];
  const clients: net.Socket[] = [];
  let endedAt = 0;

  interface StalledStream {
    readonly session: McpSession;
    /** The server's side of the connection. */
    readonly server: net.Socket;
    /** Resolves with the time the server's side of the connection closed. */
    readonly closed: Promise<number>;
  }
  let withQueue: StalledStream;
  let allHandedToSocket: StalledStream;

  /** Opens a GET stream on a raw socket that never reads what the server sends. */
  async function openStalledStream(): Promise<StalledStream> {
    const sessionId = await initialize(app);
    const session = app.app.get(SessionStore).get(sessionId)!;
    const { port } = new URL(app.mcpUrl);
    const client = net.connect(Number(port), '127.0.0.1');
    clients.push(client);
    await within(
      new Promise<void>((resolve, reject) => {
        client.once('connect', resolve);
        client.once('error', reject);
      }),
      3000,
      'the connection',
    );
    // Paused, with no 'data' listener: nothing is read past Node's small read buffer.
    client.pause();
    client.write(
      `GET /mcp HTTP/1.1\r\nHost: 127.0.0.1:${port}\r\nAccept: text/event-stream\r\n` +
        `Mcp-Session-Id: ${sessionId}\r\nMCP-Protocol-Version: 2025-06-18\r\n\r\n`,
    );
    await until(() => session.hasStream, 'the GET stream attached', 2000);
    const server = accepted.find((candidate) => candidate.remotePort === client.localPort);
    expect(server).toBeDefined();
    const closed = new Promise<number>((resolve) => server!.once('close', () => resolve(Date.now())));
    return { session, server: server!, closed };
  }

  function send(session: McpSession, n: number): void {
    expect(session.send({ jsonrpc: '2.0', method: 'notifications/message', params: { n, payload } })).toBe(true);
  }

  /**
   * Sends large messages one at a time, each only once the socket took the previous one, and stops as
   * soon as the socket cannot take more: Node then holds bytes the kernel refused, and the stream's
   * own queue is empty (every message was handed to the socket).
   */
  async function fillSocket(stream: StalledStream): Promise<void> {
    for (let n = 0; n < 400; n++) {
      send(stream.session, n);
      // Fixed waits on purpose: what tells a full socket is bytes that do NOT leave. 20 ms lets the
      // socket hand the message to the kernel...
      await delay(20);
      if (stream.server.writableLength > 0) {
        // ...and still there 100 ms later, they wait for the client's buffers, full, not merely slow.
        await delay(100);
        if (stream.server.writableLength > 0) return;
      }
    }
    throw new Error('the socket never filled up');
  }

  beforeAll(async () => {
    app = await startApp({
      imports: [
        McpModule.forRoot({
          name: 'stalled-e2e',
          version: '1.0.0',
          http: { keepAliveMs: 0 },
          limits: { outboxMessages: 100_000 },
        }),
      ],
    });
    app.app.getHttpServer().on('connection', (socket: net.Socket) => accepted.push(socket));

    withQueue = await openStalledStream();
    await fillSocket(withQueue);
    // These wait behind the full socket, in the stream's own queue.
    for (let n = 0; n < 4; n++) send(withQueue.session, 1000 + n);

    allHandedToSocket = await openStalledStream();
    await fillSocket(allHandedToSocket);

    expect(withQueue.session.ended).toBe(false);
    expect(allHandedToSocket.session.ended).toBe(false);
    endedAt = Date.now();
    const deleted = await httpExchange(app.mcpUrl, 'DELETE', { 'mcp-session-id': withQueue.session.id });
    expect(deleted.status).toBe(204);
    allHandedToSocket.session.end('deleted');
  }, 20_000);

  afterAll(async () => {
    for (const client of clients.splice(0)) client.destroy();
    await app?.close();
  });

  async function expectCut(stream: StalledStream): Promise<void> {
    expect(stream.session.ended).toBe(true);
    expect((await ping(app, stream.session.id)).status).toBe(404);
    const deadline = Math.max(0, endedAt + CUT_WITHIN_MS - Date.now());
    let timer: NodeJS.Timeout | undefined;
    const closedAt = await Promise.race([
      stream.closed,
      new Promise<undefined>((resolve) => (timer = setTimeout(() => resolve(undefined), deadline))),
    ]).finally(() => clearTimeout(timer));
    if (closedAt === undefined) {
      throw new Error(
        `the stalled stream was still open ${CUT_WITHIN_MS} ms after its session ended ` +
          `(${stream.server.writableLength} bytes waiting for the client)`,
      );
    }
    expect(closedAt - endedAt).toBeLessThan(CUT_WITHIN_MS);
    expect(stream.server.destroyed).toBe(true);
  }

  it('with messages still queued behind the full socket: the server closes it within ~5 s', async () => {
    await expectCut(withQueue);
  }, 10_000);

  it('with every message already handed to the full socket (none queued): the server closes it within ~5 s', async () => {
    await expectCut(allHandedToSocket);
  }, 10_000);
});
