import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import http from 'node:http';
import request from 'supertest';
import { EchoTools } from '../../../sample-app/echo.tools.js';
import { McpModule, type McpModuleOptions } from '../../../src/index.js';
import { HttpMcpClient } from '../../utils/http-mcp-client.js';
import { HttpExchange, type Finish } from '../../utils/sse-reader.js';
import { initializeRequest, MCP_POST_HEADERS, startApp, type RunningApp } from '../../utils/start-app.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { delay, until, untilFound, within } from '../../utils/wait.js';
import { openSession } from '../../utils/open-session.js';
import { expectRefusal } from '../../utils/refusal.js';
import { type ClientSession as McpSession, type JsonRpcNotification, SessionStore } from '../../internals/index.js';

/**
 * The standalone GET stream (SSE) and the session lifecycle around it: one stream per session,
 * delivery exactly once, backlog, keep-alive, and every way a session ends (DELETE, outbox overflow,
 * idle timeout, application shutdown), plus the session cap, and a GET whose client gave up while
 * an async endpoint guard still ran.
 */

/** An SSE event as these tests look at it: its type and its data. */
interface SseEvent {
  readonly event: string | undefined;
  readonly data: string;
}

/** A GET stream read with Node's http client; everything it received is kept for inspection. */
class SseStream extends HttpExchange<Finish> {
  private constructor(req: http.ClientRequest, res: http.IncomingMessage) {
    super(req, res, (how) => how, 2000);
  }

  static open(url: string, headers: Record<string, string>): Promise<SseStream> {
    return HttpExchange.send((req, res) => new SseStream(req, res), url, 'GET', headers, undefined, false, 3000);
  }

  get ended(): boolean {
    return this.finishedAs !== undefined;
  }

  /** Complete events received so far (comments excluded). */
  events(): SseEvent[] {
    return this.parser.events.map((event) => ({ event: event.event, data: event.data ?? '' }));
  }

  /** Parsed `data` of every `message` event. */
  messages(): unknown[] {
    return this.events()
      .filter((event) => event.event === 'message')
      .map((event) => JSON.parse(event.data) as unknown);
  }

  /** Reads the (short) non-SSE body of a refused GET. */
  async json(): Promise<unknown> {
    await this.finished;
    return JSON.parse(this.raw) as unknown;
  }
}

/** Takes ~300 ms on GET, like a guard that checks a token remotely; tells when each GET check is over. */
@Injectable()
class SlowGetGuard implements CanActivate {
  static readonly delayMs = 300;
  private static startListeners: (() => void)[] = [];
  private static finishListeners: (() => void)[] = [];

  /** Resolves when the next slow (GET) check has begun. */
  static nextStart(): Promise<void> {
    return new Promise((resolve) => SlowGetGuard.startListeners.push(resolve));
  }

  /** Resolves when the next slow (GET) check has let its request through. */
  static nextFinish(): Promise<void> {
    return new Promise((resolve) => SlowGetGuard.finishListeners.push(resolve));
  }

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const request = context.switchToHttp().getRequest<http.IncomingMessage>();
    if (request.method !== 'GET') return true;
    for (const listener of SlowGetGuard.startListeners.splice(0)) listener();
    // A fixed wait on purpose: a slow guard is the scenario.
    await delay(SlowGetGuard.delayMs);
    for (const listener of SlowGetGuard.finishListeners.splice(0)) listener();
    return true;
  }
}

function note(n: number): JsonRpcNotification {
  return { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: `message ${n}` } };
}

describe('Streamable HTTP transport: GET streams and session lifecycle (e2e)', () => {
  let running: RunningApp | undefined;
  const streams: SseStream[] = [];

  afterEach(async () => {
    for (const stream of streams.splice(0)) stream.close();
    await running?.close();
    running = undefined;
  });

  async function start(options: Partial<McpModuleOptions> = {}): Promise<RunningApp> {
    running = await startApp({
      imports: [McpModule.forRoot({ name: 'streams-e2e', version: '1.0.0', ...options })],
      providers: [EchoTools],
    });
    return running;
  }

  /** A session's id, not acknowledged with `notifications/initialized`. */
  const initialize = async (app: RunningApp, protocolVersion = '2025-06-18'): Promise<string> =>
    (await openSession(app.mcpUrl, { protocolVersion, initialized: false })).id;

  async function openStream(app: RunningApp, sessionId: string): Promise<SseStream> {
    const stream = await SseStream.open(app.mcpUrl, { accept: 'text/event-stream', 'mcp-session-id': sessionId });
    streams.push(stream);
    return stream;
  }

  function ping(app: RunningApp, sessionId: string): request.Test {
    return request(app.baseUrl)
      .post('/mcp')
      .set(MCP_POST_HEADERS)
      .set('Mcp-Session-Id', sessionId)
      .send({ jsonrpc: '2.0', id: 1, method: 'ping' });
  }

  function sessionOf(app: RunningApp, sessionId: string): McpSession {
    const session = app.app.get(SessionStore).get(sessionId);
    expect(session).toBeDefined();
    return session!;
  }

  it('GET opens a 200 text/event-stream carrying the session id', async () => {
    const app = await start();
    const sessionId = await initialize(app);
    const stream = await openStream(app, sessionId);
    expect(stream.status).toBe(200);
    expect(stream.headers['content-type']).toMatch(/^text\/event-stream\b/);
    expect(stream.headers['mcp-session-id']).toBe(sessionId);
    expect(stream.headers['cache-control']).toMatch(/no-cache/);
    expect(stream.ended).toBe(false);
  });

  it('refuses a second concurrent GET on one session with 409, and accepts a new one after the first closes', async () => {
    const app = await start();
    const sessionId = await initialize(app);
    const first = await openStream(app, sessionId);
    expect(first.status).toBe(200);

    const second = await openStream(app, sessionId);
    await second.finished;
    expectRefusal(second, 409);
    // The first stream is untouched by the refused one.
    expect(first.ended).toBe(false);
    sessionOf(app, sessionId).send(note(1));
    await first.waitFor((s) => s.messages().length === 1);

    first.close();
    await first.finished;
    // The server notices the closed connection asynchronously: try again until a GET is not refused.
    const third = await untilFound(async () => {
      const candidate = await openStream(app, sessionId);
      if (candidate.status !== 409) return candidate;
      await candidate.finished;
      return undefined;
    }, 'a GET not refused with 409 once the first stream closed');
    expect(third.status).toBe(200);
    expect(third.headers['mcp-session-id']).toBe(sessionId);
  });

  it('another session may hold its own stream at the same time', async () => {
    const app = await start();
    const a = await initialize(app);
    const b = await initialize(app);
    const streamA = await openStream(app, a);
    const streamB = await openStream(app, b);
    expect([streamA.status, streamB.status]).toEqual([200, 200]);
    sessionOf(app, a).send(note(1));
    sessionOf(app, b).send(note(2));
    await streamA.waitFor((s) => s.messages().length === 1);
    await streamB.waitFor((s) => s.messages().length === 1);
    expect(streamA.messages()).toEqual([note(1)]);
    expect(streamB.messages()).toEqual([note(2)]);
  });

  it('delivers messages sent through the session as `event: message` / `data: <json>`, each exactly once', async () => {
    const app = await start();
    const sessionId = await initialize(app);
    const stream = await openStream(app, sessionId);
    const session = sessionOf(app, sessionId);

    for (let n = 1; n <= 5; n++) expect(session.send(note(n))).toBe(true);
    await stream.waitFor((s) => s.messages().length >= 5);
    // A fixed wait on purpose: duplicates, if any, must have a chance to show up.
    await delay(50);

    expect(stream.text).toContain(`event: message\ndata: ${JSON.stringify(note(1))}\n\n`);
    const events = stream.events();
    expect(events.every((event) => event.event === 'message')).toBe(true);
    expect(stream.messages()).toEqual([note(1), note(2), note(3), note(4), note(5)]);
  });

  it('drops (and logs) a message that cannot be serialised, and keeps the stream serving', async () => {
    const logger = new RecordingLogger();
    running = await startApp(
      { imports: [McpModule.forRoot({ name: 'streams-e2e', version: '1.0.0' })], providers: [EchoTools] },
      { logger },
    );
    const app = running;
    const sessionId = await initialize(app);
    const stream = await openStream(app, sessionId);
    const session = sessionOf(app, sessionId);

    session.send({ jsonrpc: '2.0', method: 'notifications/message', params: { data: 1n } });
    session.send(note(2));
    await stream.waitFor((s) => s.messages().length >= 1);
    // A fixed wait on purpose: the dropped message must NOT come after all.
    await delay(50);
    expect(stream.messages()).toEqual([note(2)]);
    expect(logger.at('error').some((line) => line.includes(sessionId) && /cannot be serialised/.test(line))).toBe(true);
  });

  it('delivers messages sent before a stream is attached when it attaches (backlog), once', async () => {
    const app = await start();
    const sessionId = await initialize(app);
    const session = sessionOf(app, sessionId);
    expect(session.send(note(1))).toBe(true);
    expect(session.send(note(2))).toBe(true);

    const stream = await openStream(app, sessionId);
    await stream.waitFor((s) => s.messages().length >= 2);
    session.send(note(3));
    await stream.waitFor((s) => s.messages().length >= 3);
    // A fixed wait on purpose: no message may come twice.
    await delay(50);
    expect(stream.messages()).toEqual([note(1), note(2), note(3)]);
  });

  it('keeps messages sent between two streams for the next stream, without repeating delivered ones', async () => {
    const app = await start();
    const sessionId = await initialize(app);
    const session = sessionOf(app, sessionId);
    const first = await openStream(app, sessionId);
    session.send(note(1));
    await first.waitFor((s) => s.messages().length === 1);
    first.close();
    await first.finished;
    await until(() => !session.hasStream, 'the server detaching the first stream');

    session.send(note(2));
    const second = await openStream(app, sessionId);
    expect(second.status).toBe(200);
    await second.waitFor((s) => s.messages().length >= 1);
    // A fixed wait on purpose: no delivered message may come again.
    await delay(50);
    expect(first.messages()).toEqual([note(1)]);
    expect(second.messages()).toEqual([note(2)]);
  });

  it('sends keep-alive comments on an idle stream (keepAliveMs = 50)', async () => {
    const app = await start({ http: { keepAliveMs: 50 } });
    const sessionId = await initialize(app);
    const stream = await openStream(app, sessionId);
    await stream.waitFor((s) => (s.text.match(/^:.*\n\n/gm) ?? []).length >= 2, 2000);
    // Comments are not events.
    expect(stream.events()).toEqual([]);
    expect(stream.text).toMatch(/^: ?keep-alive\n\n/m);
  });

  it('DELETE ends the open GET stream, and the session then answers 404', async () => {
    const app = await start();
    const sessionId = await initialize(app);
    const stream = await openStream(app, sessionId);
    expect(stream.status).toBe(200);

    const del = await request(app.baseUrl).delete('/mcp').set('Mcp-Session-Id', sessionId);
    expect(del.status).toBe(204);
    expect(await within(stream.finished, 2000, 'the end of the GET stream')).toBe('end');

    const after = await ping(app, sessionId);
    expectRefusal(after, 404);
    const again = await openStream(app, sessionId);
    expect(again.status).toBe(404);
    expect(app.app.get(SessionStore).get(sessionId)).toBeUndefined();
  });

  it('keeps the newest outboxLimit messages for a session without a stream, dropping the oldest; the session lives', async () => {
    const app = await start({ limits: { outboxMessages: 3 } });
    const sessionId = await initialize(app);
    const bystander = await initialize(app);
    const session = sessionOf(app, sessionId);
    const other = sessionOf(app, bystander);
    other.send(note(100));

    expect([1, 2, 3, 4, 5].map((n) => session.send(note(n)))).toEqual([true, true, true, true, true]);
    expect(session.ended).toBe(false);
    expect(session.undeliveredMessages).toBe(3);

    const alive = await ping(app, sessionId);
    expect(alive.status).toBe(200);
    const stream = await openStream(app, sessionId);
    expect(stream.status).toBe(200);
    await stream.waitFor((s) => s.messages().length === 3);
    expect(stream.messages()).toEqual([note(3), note(4), note(5)]);
    expect(session.undeliveredMessages).toBe(0);

    const otherStream = await openStream(app, bystander);
    await otherStream.waitFor((s) => s.messages().length === 1);
    expect(otherStream.messages()).toEqual([note(100)]);
  });

  it('does not count messages a reading stream already received against outboxLimit', async () => {
    const app = await start({ limits: { outboxMessages: 3 } });
    const sessionId = await initialize(app);
    const session = sessionOf(app, sessionId);
    const stream = await openStream(app, sessionId);
    // A reading client keeps up, so sending many messages through an attached stream is fine.
    for (let n = 1; n <= 10; n++) expect(session.send(note(n))).toBe(true);
    await stream.waitFor((s) => s.messages().length === 10);
    expect(session.ended).toBe(false);
    const alive = await ping(app, sessionId);
    expect(alive.status).toBe(200);
  });

  it('ends idle sessions on sweep (sessionIdleTimeoutMs), then answers 404', async () => {
    const app = await start({ sessions: { idleTimeoutMs: 60_000 } });
    const registry = app.app.get(SessionStore);
    const idle = await initialize(app);
    const streaming = await initialize(app);
    const stream = await openStream(app, streaming);

    // Nothing is idle yet.
    expect(registry.sweep()).toBe(0);
    expect((await ping(app, idle)).status).toBe(200);

    // Far in the future: the idle session goes; the one holding an open stream stays.
    expect(registry.sweep(Date.now() + 10 * 60_000)).toBe(1);
    const gone = await ping(app, idle);
    expectRefusal(gone, 404);
    expect((await ping(app, streaming)).status).toBe(200);
    expect(stream.ended).toBe(false);
  });

  it('ends idle sessions on its own timer', async () => {
    // The registry sweeps every max(timeout / 4, 1 s): a 100 ms timeout is swept within about a second.
    const app = await start({ sessions: { idleTimeoutMs: 100 } });
    const sessionId = await initialize(app);
    await until(() => app.app.get(SessionStore).get(sessionId) === undefined, 'the idle session swept', 3000);
    expect((await ping(app, sessionId)).status).toBe(404);
  });

  it('refuses initialize past maxSessions with 503 and a JSON-RPC error body', async () => {
    const app = await start({ limits: { sessions: 2 } });
    const first = await initialize(app);
    await initialize(app);

    const third = await request(app.baseUrl)
      .post('/mcp')
      .set(MCP_POST_HEADERS)
      .send(initializeRequest('2025-06-18', 3));
    expect(third.status).toBe(503);
    expect(third.headers['content-type']).toMatch(/^application\/json\b/);
    expect(third.headers['mcp-session-id']).toBeUndefined();
    expect(third.body).toMatchObject({ jsonrpc: '2.0', id: 3, error: { code: -32000 } });
    expect(typeof third.body.error.message).toBe('string');
    expect(app.app.get(SessionStore).size).toBe(2);

    // Ending a session makes room again.
    expect((await request(app.baseUrl).delete('/mcp').set('Mcp-Session-Id', first)).status).toBe(204);
    const fourth = await request(app.baseUrl).post('/mcp').set(MCP_POST_HEADERS).send(initializeRequest());
    expect(fourth.status).toBe(200);
  });

  it('at the cap, initialize first ends sessions already idle past the timeout', async () => {
    const app = await start({ limits: { sessions: 2 }, sessions: { idleTimeoutMs: 100 } });
    const first = await initialize(app);
    const second = await initialize(app);
    // A fixed wait on purpose: the idle timeout running out is what is tested.
    await delay(150);
    // Both are idle past the timeout (the 1 s timer may or may not have run yet): there is room again.
    const third = await request(app.baseUrl).post('/mcp').set(MCP_POST_HEADERS).send(initializeRequest());
    expect(third.status).toBe(200);
    expect((await ping(app, first)).status).toBe(404);
    expect((await ping(app, second)).status).toBe(404);
    expect(app.app.get(SessionStore).size).toBe(1);
  });

  it('app.close() ends open SSE streams promptly', async () => {
    const app = await start({ http: { keepAliveMs: 0 } });
    const a = await openStream(app, await initialize(app));
    const b = await openStream(app, await initialize(app));
    expect([a.status, b.status]).toEqual([200, 200]);

    const closing = app.close();
    expect(await within(Promise.all([a.finished, b.finished]), 2000, 'the end of both streams')).toEqual([
      'end',
      'end',
    ]);
    expect(await within(closing, 2000, 'app.close()')).toBeUndefined();
    running = undefined;
  });
});

describe('a GET abandoned while an async guard runs', () => {
  const idleMs = 5_000;
  let running: RunningApp;

  beforeAll(async () => {
    running = await startApp({
      imports: [
        McpModule.forRoot({
          name: 'slow-guard-e2e',
          version: '1.0.0',
          guards: [SlowGetGuard],
          sessions: { idleTimeoutMs: idleMs },
        }),
      ],
      providers: [EchoTools],
    });
  });

  afterAll(async () => {
    await running?.close();
  });

  /** Opens a GET and aborts it while the guard runs; resolves once the guard has let it through (too late). */
  async function abandonedGet(sessionId: string): Promise<void> {
    const started = SlowGetGuard.nextStart();
    const finished = SlowGetGuard.nextFinish();
    const req = http.request(running.mcpUrl, {
      method: 'GET',
      headers: { accept: 'text/event-stream', 'mcp-session-id': sessionId },
      agent: false,
    });
    req.on('error', () => undefined);
    req.end();
    await within(started, 3000, 'the guard judging the GET');
    req.destroy();
    await finished;
    // A fixed wait on purpose: the handler runs right after the guard, and must attach NO stream.
    await delay(30);
  }

  it('leaves no stream attached: a new GET on the session gets 200, not 409', async () => {
    const client = new HttpMcpClient(running.mcpUrl);
    const sessionId = await client.initialize();
    await abandonedGet(sessionId);

    expect(running.app.get(SessionStore).get(sessionId)?.hasStream).toBe(false);
    const again = await client.get();
    expect(again.status).toBe(200);
    expect(again.headers['content-type']).toMatch(/^text\/event-stream\b/);
  });

  it('lets the session be swept as idle, after which it answers 404', async () => {
    const registry = running.app.get(SessionStore);
    const client = new HttpMcpClient(running.mcpUrl);
    const sessionId = await client.initialize();
    await abandonedGet(sessionId);

    expect(registry.sweep(Date.now() + 10 * idleMs)).toBeGreaterThanOrEqual(1);
    expect(registry.get(sessionId)).toBeUndefined();
    const reply = await client.post({ jsonrpc: '2.0', id: 1, method: 'ping' });
    expect(reply.status).toBe(404);
  });
});
