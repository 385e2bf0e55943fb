import { expectModernSchema } from './modern-schema.js';
import { HttpStream, type RpcMessage, type SseEvent } from './sse-reader.js';

/**
 * A raw client of the stateless 2026-07-28 wire, for e2e tests: each request is its own POST with
 * the `_meta` envelope in its params and the headers that mirror the body (`MCP-Protocol-Version`,
 * `Mcp-Method`, `Mcp-Name`), every one of which a test may change or leave out. Answers are read as
 * they arrive, JSON or SSE, and **every message received is checked against the revision's JSON
 * Schema** ({@link expectModernSchema}) before a test sees it.
 */

/** The modern revision these tests speak. */
export const MODERN_VERSION = '2026-07-28';

/** The `_meta` keys of the 2026-07-28 envelope and of what answers it. */
export const Meta = {
  ProtocolVersion: 'io.modelcontextprotocol/protocolVersion',
  ClientCapabilities: 'io.modelcontextprotocol/clientCapabilities',
  ClientInfo: 'io.modelcontextprotocol/clientInfo',
  LogLevel: 'io.modelcontextprotocol/logLevel',
  ServerInfo: 'io.modelcontextprotocol/serverInfo',
  SubscriptionId: 'io.modelcontextprotocol/subscriptionId',
} as const;

export const CLIENT_INFO = Object.freeze({ name: 'modern-e2e-client', version: '1.0.0' });

/** Capabilities a full client declares: it can answer every kind of input request. */
export const ALL_CAPABILITIES = Object.freeze({ elicitation: {}, sampling: {}, roots: { listChanged: true } });

/** The body field `Mcp-Name` mirrors, per method. */
const NAME_FIELD: Readonly<Record<string, string>> = {
  'tools/call': 'name',
  'prompts/get': 'name',
  'resources/read': 'uri',
  // The tasks extension mirrors the task id.
  'tasks/get': 'taskId',
  'tasks/update': 'taskId',
  'tasks/cancel': 'taskId',
};

const SENTINEL_PREFIX = '=?base64?';
const SENTINEL_SUFFIX = '?=';
const PLAIN = /^(?:[\x21-\x7e](?:[\t\x20-\x7e]*[\x21-\x7e])?)?$/;

/** A value as a client mirrors it into a header: plain when it can be, else the base64 sentinel. */
export function headerValueOf(value: string): string {
  const looksEncoded = value.startsWith(SENTINEL_PREFIX) && value.endsWith(SENTINEL_SUFFIX);
  return PLAIN.test(value) && !looksEncoded ? value : base64Sentinel(value);
}

/** `value` in the base64 sentinel form, whatever it is. */
export const base64Sentinel = (value: string): string =>
  `${SENTINEL_PREFIX}${Buffer.from(value, 'utf8').toString('base64')}${SENTINEL_SUFFIX}`;

export interface ModernRequestOptions {
  /** The JSON-RPC id; a fresh number unless given. */
  readonly id?: string | number;
  /**
   * Changes to the `_meta` envelope: each key set (a value of `undefined` removes the key). `null`
   * sends params without `_meta` at all.
   */
  readonly meta?: Readonly<Record<string, unknown>> | null;
  /** This request's client capabilities; {@link ALL_CAPABILITIES} unless given (or set through `meta`). */
  readonly capabilities?: object;
  /** `_meta["io.modelcontextprotocol/logLevel"]`. */
  readonly logLevel?: string;
  /** `_meta.progressToken`. */
  readonly progressToken?: string | number;
  /** Changes to the headers: each one set, or (`undefined`) left out. Names are sent as given. */
  readonly headers?: Readonly<Record<string, string | undefined>>;
  /** The whole `params` object to send as it is (no envelope is added). */
  readonly rawParams?: unknown;
}

/** One 2026-07-28 exchange, read as it arrives; every message it yields has passed the schema check. */
export class ModernExchange {
  private checked = 0;

  constructor(
    private readonly stream: HttpStream,
    /** The method of the request: results are checked as its result type. */
    readonly method: string,
    readonly id: string | number,
  ) {}

  get status(): number {
    return this.stream.status;
  }

  get headers(): HttpStream['headers'] {
    return this.stream.headers;
  }

  get isEventStream(): boolean {
    return this.stream.isEventStream;
  }

  get isJson(): boolean {
    return this.stream.isJson;
  }

  /** The SSE events received so far, every field as written (ids, event names). */
  get events(): readonly SseEvent[] {
    return this.stream.events;
  }

  /** The body as received so far (keep-alive comments included). */
  get text(): string {
    return this.stream.text;
  }

  get ended(): boolean {
    return this.stream.ended;
  }

  /** How the answer finished, once it did. */
  get finished(): Promise<string> {
    return this.stream.finished;
  }

  /** Every message received so far, each checked against the schema (a violation throws). */
  get messages(): RpcMessage[] {
    const messages = this.stream.messages;
    for (; this.checked < messages.length; this.checked++) expectModernSchema(messages[this.checked], this.method);
    return messages;
  }

  /** The notifications received so far. */
  get notifications(): RpcMessage[] {
    return this.messages.filter((message) => message.method !== undefined);
  }

  /** The answer to the request (result or error), once it arrived. */
  get response(): RpcMessage | undefined {
    return this.messages.find((message) => message.method === undefined);
  }

  /** Notifications with this method. */
  withMethod(method: string): RpcMessage[] {
    return this.messages.filter((message) => message.method === method);
  }

  /** Resolves with the first message for which `predicate` holds (each message checked on arrival). */
  async nextMessage(predicate: (message: RpcMessage) => boolean, timeoutMs = 2000): Promise<RpcMessage> {
    await this.stream.waitFor(() => this.messages.some(predicate), timeoutMs);
    return this.messages.find(predicate)!;
  }

  /** Resolves once `predicate` holds of this exchange. */
  async waitFor(predicate: (exchange: this) => boolean, timeoutMs = 2000): Promise<void> {
    await this.stream.waitFor(() => predicate(this), timeoutMs);
  }

  /** Resolves once the server ended the answer; every message is checked then. */
  async untilEnd(timeoutMs = 2000): Promise<string> {
    const how = await this.stream.untilEnd(timeoutMs);
    void this.messages;
    return how;
  }

  /** Drops the connection (on 2026-07-28, the cancellation of the request). */
  close(): void {
    this.stream.close();
  }
}

/**
 * Requests of the 2026-07-28 wire to one endpoint. {@link closeAll} drops every connection a test
 * opened (call it after each test).
 */
export class ModernClient {
  private nextId = 1;

  /**
   * @param url the endpoint, looked up at each request (the app may start after the client).
   * @param defaults headers every request carries (credentials, say).
   * @param opened where the exchanges opened are kept until {@link closeAll} (shared with {@link with}).
   */
  constructor(
    private readonly url: () => string,
    private readonly defaults: { readonly headers?: Readonly<Record<string, string>> } = {},
    private readonly opened: ModernExchange[] = [],
  ) {}

  /** This client with more headers on every request (another user's credentials, say); closed with it. */
  with(headers: Readonly<Record<string, string>>): ModernClient {
    return new ModernClient(this.url, { headers: { ...this.defaults.headers, ...headers } }, this.opened);
  }

  /** The `params` a request sends: `params` plus the envelope, changed as `options` say. */
  paramsOf(params: Readonly<Record<string, unknown>>, options: ModernRequestOptions = {}): Record<string, unknown> {
    if (options.meta === null) return { ...params };
    const meta: Record<string, unknown> = {
      [Meta.ProtocolVersion]: MODERN_VERSION,
      [Meta.ClientInfo]: CLIENT_INFO,
      [Meta.ClientCapabilities]: options.capabilities ?? ALL_CAPABILITIES,
      ...(options.logLevel === undefined ? {} : { [Meta.LogLevel]: options.logLevel }),
      ...(options.progressToken === undefined ? {} : { progressToken: options.progressToken }),
    };
    for (const [key, value] of Object.entries(options.meta ?? {})) {
      if (value === undefined) delete meta[key];
      else meta[key] = value;
    }
    return { ...params, _meta: meta };
  }

  /** The headers a request sends: the standard ones mirrored from its body, changed as `options` say. */
  headersOf(
    method: string,
    params: Readonly<Record<string, unknown>>,
    options: ModernRequestOptions = {},
  ): Record<string, string> {
    const headers: Record<string, string | undefined> = {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': MODERN_VERSION,
      'mcp-method': method,
      ...this.defaults.headers,
    };
    const field = NAME_FIELD[method];
    const name = field === undefined ? undefined : params[field];
    if (typeof name === 'string') headers['mcp-name'] = headerValueOf(name);
    for (const [key, value] of Object.entries(options.headers ?? {})) {
      // Header names are case-insensitive: a change replaces the default whatever its case.
      for (const existing of Object.keys(headers))
        if (existing.toLowerCase() === key.toLowerCase()) delete headers[existing];
      if (value !== undefined) headers[key] = value;
    }
    return Object.fromEntries(
      Object.entries(headers).filter((entry): entry is [string, string] => entry[1] !== undefined),
    );
  }

  /** Sends a request; resolves once the answer's head arrived. */
  async open(
    method: string,
    params: Readonly<Record<string, unknown>> = {},
    options: ModernRequestOptions = {},
  ): Promise<ModernExchange> {
    const id = options.id ?? this.nextId++;
    const body = {
      jsonrpc: '2.0',
      id,
      method,
      params: options.rawParams === undefined ? this.paramsOf(params, options) : options.rawParams,
    };
    const stream = await HttpStream.open(
      this.url(),
      'POST',
      this.headersOf(method, params, options),
      JSON.stringify(body),
    );
    const exchange = new ModernExchange(stream, method, id);
    this.opened.push(exchange);
    return exchange;
  }

  /**
   * POSTs a notification (no id; `params` sent as given, no envelope added) with the standard
   * headers, and reads the whole answer: an accepted one has no body.
   */
  async notify(
    method: string,
    params: Readonly<Record<string, unknown>> = {},
    options: Pick<ModernRequestOptions, 'headers'> = {},
  ): Promise<{ status: number; text: string }> {
    const stream = await HttpStream.open(
      this.url(),
      'POST',
      this.headersOf(method, params, options),
      JSON.stringify({ jsonrpc: '2.0', method, params }),
    );
    await stream.untilEnd();
    stream.close();
    return { status: stream.status, text: stream.text };
  }

  /** Sends a request and reads the whole answer. */
  async send(
    method: string,
    params: Readonly<Record<string, unknown>> = {},
    options: ModernRequestOptions = {},
  ): Promise<ModernExchange> {
    const exchange = await this.open(method, params, options);
    await exchange.untilEnd();
    return exchange;
  }

  /** The result of a request; fails unless it was answered 200 with a result echoing the id. */
  async result(
    method: string,
    params: Readonly<Record<string, unknown>> = {},
    options: ModernRequestOptions = {},
  ): Promise<Record<string, unknown>> {
    const exchange = await this.send(method, params, options);
    const response = exchange.response;
    expect({ status: exchange.status, response }).toMatchObject({
      status: 200,
      response: { jsonrpc: '2.0', id: exchange.id, result: expect.any(Object) },
    });
    return response!.result!;
  }

  /**
   * The error a request was answered with, as JSON with `status`; fails unless it is one JSON-RPC
   * error echoing the id.
   */
  async error(
    status: number,
    method: string,
    params: Readonly<Record<string, unknown>> = {},
    options: ModernRequestOptions = {},
  ): Promise<{ code: number; message: string; data?: unknown }> {
    const exchange = await this.send(method, params, options);
    return expectErrorAnswer(exchange, status);
  }

  /** Drops every connection opened so far. */
  closeAll(): void {
    for (const exchange of this.opened.splice(0)) exchange.close();
  }
}

/** Fails unless `exchange` was answered `status` with one JSON body: a JSON-RPC error echoing its id. */
export function expectErrorAnswer(
  exchange: ModernExchange,
  status: number,
): { code: number; message: string; data?: unknown } {
  expect(exchange.isJson).toBe(true);
  const messages = exchange.messages;
  expect({ status: exchange.status, messages }).toMatchObject({
    status,
    messages: [{ jsonrpc: '2.0', id: exchange.id, error: { code: expect.any(Number), message: expect.any(String) } }],
  });
  expect(messages).toHaveLength(1);
  return messages[0]!.error!;
}
