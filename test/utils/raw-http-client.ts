import { Logger, type ModuleMetadata, type Type } from '@nestjs/common';
import { HttpStream, type RpcMessage } from './sse-reader.js';
import { openSession } from './open-session.js';
import { MCP_POST_HEADERS, startApp, type RunningApp, type StartAppOptions } from './start-app.js';
import { SessionStore } from '../internals/index.js';

/** A session a {@link RawHttpClient} opened. */
export interface RawSession {
  readonly id: string;
  readonly protocolVersion: string;
  /** Sent with every request of the session (credentials, say), besides its id and version. */
  readonly headers: Readonly<Record<string, string>>;
  /** What `initialize` answered. */
  readonly initializeResult: Record<string, unknown>;
}

export interface RawInitializeOptions {
  /** `2025-06-18` unless given. */
  readonly protocolVersion?: string;
  readonly capabilities?: object;
  /** Sent with the initialize request and with every later request of the session. */
  readonly headers?: Record<string, string>;
}

/**
 * An MCP client over raw HTTP, for what a client library would hide: every exchange is an
 * {@link HttpStream} with exactly the headers given (the session's, and any `extra`), and
 * {@link closeAll} drops every connection a test opened.
 */
export class RawHttpClient {
  private readonly opened: HttpStream[] = [];

  /** @param mcpUrl the endpoint, looked up at each request (the app may start after the client). */
  constructor(private readonly mcpUrl: () => string) {}

  /**
   * Sends a request; resolves once the response head arrived. A string `body` is sent as it is
   * (hand-written JSON), anything else JSON-encoded.
   */
  async open(method: string, headers: Record<string, string>, body?: unknown): Promise<HttpStream> {
    const text = body === undefined || typeof body === 'string' ? body : JSON.stringify(body);
    const stream = await HttpStream.open(this.mcpUrl(), method, headers, text);
    this.opened.push(stream);
    return stream;
  }

  /** The headers of a POST of `session`, plus `extra`. */
  headersOf(session: RawSession, extra: Record<string, string> = {}): Record<string, string> {
    return {
      ...MCP_POST_HEADERS,
      ...session.headers,
      'mcp-session-id': session.id,
      'mcp-protocol-version': session.protocolVersion,
      ...extra,
    };
  }

  /** Initializes a session and acknowledges it with `notifications/initialized`, each an {@link HttpStream} of this client. */
  async initialize(options: RawInitializeOptions = {}): Promise<RawSession> {
    const { protocolVersion = '2025-06-18', headers = {}, capabilities } = options;
    const opened = await openSession(this.mcpUrl(), {
      protocolVersion,
      capabilities,
      headers,
      send: async (sent, body) => {
        const stream = await this.open('POST', sent, body);
        await stream.untilEnd();
        return stream;
      },
    });
    return { id: opened.id, protocolVersion, headers, initializeResult: opened.result };
  }

  /** POSTs a message (or batch) on `session`; resolves when the answer starts (a JSON answer: once complete). */
  post(session: RawSession, body: unknown, extra: Record<string, string> = {}): Promise<HttpStream> {
    return this.open('POST', this.headersOf(session, extra), body);
  }

  /** POSTs a message (or batch) on `session` and reads the whole answer. */
  async send(session: RawSession, body: unknown, extra: Record<string, string> = {}): Promise<HttpStream> {
    const stream = await this.post(session, body, extra);
    await stream.untilEnd();
    return stream;
  }

  /** Sends one request and returns its only message; fails unless the answer is 200 with one message. */
  async request(
    session: RawSession,
    method: string,
    params: unknown,
    id: string | number = 1,
    extra: Record<string, string> = {},
  ): Promise<RpcMessage> {
    const res = await this.send(session, { jsonrpc: '2.0', id, method, params }, extra);
    expect(res.status).toBe(200);
    expect(res.messages).toHaveLength(1);
    return res.messages[0]!;
  }

  /** Opens the session's GET stream. */
  openGet(session: RawSession, extra: Record<string, string> = {}): Promise<HttpStream> {
    return this.open('GET', {
      accept: 'text/event-stream',
      ...session.headers,
      'mcp-session-id': session.id,
      'mcp-protocol-version': session.protocolVersion,
      ...extra,
    });
  }

  /** Drops every connection opened so far. */
  closeAll(): void {
    for (const stream of this.opened.splice(0)) stream.close();
  }
}

/** A session as the server holds it. */
export type ServerSession = NonNullable<ReturnType<SessionStore['get']>>;

/** A notification tests send on a GET stream to learn that everything sent on it before has arrived. */
export const MARKER = 'notifications/test/marker';

/** The messages of a GET stream other than {@link MARKER}s. */
export const unmarked = (stream: HttpStream): RpcMessage[] => stream.messages.filter((m) => m.method !== MARKER);

/** What {@link useRawApp} gives the tests of a describe. */
export interface RawApp {
  /** The application, once the describe's `beforeAll` has run. */
  readonly running: RunningApp;
  readonly client: RawHttpClient;
  /** The application's session registry. */
  readonly sessions: SessionStore;
  /** A provider of the application. */
  get<T>(type: Type<T>): T;
  /** The server's side of `session`; fails the test if the server no longer holds it. */
  live(session: RawSession): ServerSession;
  /**
   * Sends {@link MARKER} `n` on the session's GET `stream` and waits for it: everything sent on that
   * stream before it has arrived, so what the stream lacks then was never sent.
   */
  syncGet(session: RawSession, stream: HttpStream, n: number): Promise<void>;
}

export interface UseRawAppOptions extends StartAppOptions {
  /** Runs after each test, before its connections are dropped and its sessions ended: release what it held. */
  readonly afterEach?: (app: RawApp) => void;
}

/**
 * An application of `metadata` listening from before the first test of the enclosing `describe`
 * until after its last, with a {@link RawHttpClient} on it. After each test every connection the
 * client opened is dropped and every session ended, which aborts whatever a failed test left waiting.
 */
export function useRawApp(metadata: ModuleMetadata, options: UseRawAppOptions = {}): RawApp {
  let running: RunningApp | undefined;
  const app: RawApp = {
    get running(): RunningApp {
      if (running === undefined) throw new Error('the application starts in beforeAll');
      return running;
    },
    client: new RawHttpClient(() => app.running.mcpUrl),
    get sessions(): SessionStore {
      return app.running.app.get(SessionStore);
    },
    get: (type) => app.running.app.get(type),
    live: (session) => {
      const found = app.sessions.get(session.id);
      expect(found).toBeDefined();
      return found!;
    },
    syncGet: async (session, stream, n) => {
      expect(app.live(session).notify(MARKER, { n })).toBe(true);
      await stream.nextMessage((message) => message.method === MARKER && message.params?.n === n);
    },
  };

  beforeAll(async () => {
    running = await startApp(metadata, options);
  });

  afterEach(() => {
    options.afterEach?.(app);
    app.client.closeAll();
    for (const session of app.sessions.all()) session.end('deleted');
  });

  afterAll(async () => {
    await running?.close();
    Logger.overrideLogger(false);
  });

  return app;
}

/** `resources/read` (or subscribe) of a URI nothing serves: -32002 with the URI. */
export const resourceNotFound = (id: string | number, uri: string): RpcMessage => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32002, message: 'Resource not found', data: { uri } },
});

/** `prompts/get` (or completion) of a prompt nobody may see: -32602 "Unknown prompt". */
export const unknownPrompt = (id: string | number, name: string): RpcMessage => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32602, message: `Invalid params: Unknown prompt: ${name}` },
});

/** A request whose id a running request of the session holds. */
export const idInUse = (id: string | number): RpcMessage => ({
  jsonrpc: '2.0',
  id,
  error: {
    code: -32600,
    message: `Invalid Request: request id ${JSON.stringify(id)} is already in use by a running request`,
  },
});
