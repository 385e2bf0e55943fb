import http from 'node:http';
import { Changes } from './wait.js';

/** One Server-Sent Event as it was written: every field it carried (comments are not events). */
export interface SseEvent {
  readonly id?: string;
  readonly event?: string;
  /** The `data:` lines joined with `\n`; absent when the block had none (a lone `retry:`), `''` for a priming event. */
  readonly data?: string;
  readonly retry?: number;
}

/**
 * An incremental SSE parser (the WHATWG field rules: `field: value`, one optional space after the
 * colon, lines ending in CRLF, LF or CR, a blank line ends the event). Unlike a browser it keeps
 * blocks a browser would not dispatch (a lone `retry:`), so tests can assert on them.
 */
export class SseParser {
  readonly events: SseEvent[] = [];
  private partial = '';
  private pendingCr = false;
  private fields: { id?: string; event?: string; data?: string[]; retry?: number } = {};
  private hasFields = false;

  /** Feeds a chunk of the stream; returns the events it completed. */
  push(chunk: string): SseEvent[] {
    let text = chunk;
    // A CR ending the previous chunk was a line end already; its LF must not end a second, empty line.
    if (this.pendingCr && text.startsWith('\n')) text = text.slice(1);
    this.pendingCr = text.endsWith('\r');
    const lines = (this.partial + text).split(/\r\n|\r|\n/);
    this.partial = lines.pop() ?? '';
    const completed: SseEvent[] = [];
    for (const line of lines) {
      const event = this.line(line);
      if (event) completed.push(event);
    }
    this.events.push(...completed);
    return completed;
  }

  /** The complete events of a whole text (a trailing partial event is left out). */
  static parse(text: string): SseEvent[] {
    return new SseParser().push(text);
  }

  private line(line: string): SseEvent | undefined {
    if (line === '') return this.dispatch();
    if (line.startsWith(':')) return undefined;
    const colon = line.indexOf(':');
    const field = colon === -1 ? line : line.slice(0, colon);
    let value = colon === -1 ? '' : line.slice(colon + 1);
    if (value.startsWith(' ')) value = value.slice(1);
    this.hasFields = true;
    switch (field) {
      case 'id':
        this.fields.id = value;
        break;
      case 'event':
        this.fields.event = value;
        break;
      case 'data':
        (this.fields.data ??= []).push(value);
        break;
      case 'retry':
        if (/^\d+$/.test(value)) this.fields.retry = Number(value);
        break;
    }
    return undefined;
  }

  private dispatch(): SseEvent | undefined {
    if (!this.hasFields) return undefined;
    const { id, event, data, retry } = this.fields;
    this.fields = {};
    this.hasFields = false;
    return {
      ...(id === undefined ? {} : { id }),
      ...(event === undefined ? {} : { event }),
      ...(data === undefined ? {} : { data: data.join('\n') }),
      ...(retry === undefined ? {} : { retry }),
    };
  }
}

/** A JSON-RPC message as these tests look at it. */
export interface RpcMessage {
  readonly jsonrpc: string;
  readonly id?: string | number | null;
  readonly method?: string;
  readonly params?: Record<string, unknown>;
  readonly result?: Record<string, unknown>;
  readonly error?: { readonly code: number; readonly message: string; readonly data?: unknown };
}

/** How an HTTP response finished: `end` when the server ended it cleanly. */
export type Finish = 'end' | 'aborted' | 'error';

/**
 * One HTTP exchange read as it arrives, whatever the answer is (JSON, an SSE stream, an empty 202):
 * the raw text is kept, and parsed as SSE when the response is `text/event-stream`. Subclasses give
 * tests their vocabulary; `End` is how they name the ways a response finishes.
 */
export abstract class HttpExchange<End extends string> {
  /** How the response finished, once it did. */
  readonly finished: Promise<End>;
  protected raw = '';
  protected finishedAs: End | undefined;
  protected readonly parser = new SseParser();
  private readonly changes = new Changes();

  protected constructor(
    protected readonly req: http.ClientRequest,
    readonly res: http.IncomingMessage,
    ending: (how: Finish) => End,
    private readonly waitTimeoutMs: number,
  ) {
    res.setEncoding('utf8');
    const sse = this.isEventStream;
    res.on('data', (chunk: string) => {
      this.raw += chunk;
      if (sse) this.parser.push(chunk);
      this.changes.changed();
    });
    this.finished = new Promise((resolve) => {
      const done = (how: Finish): void => {
        this.finishedAs ??= ending(how);
        resolve(this.finishedAs);
        this.changes.changed();
      };
      res.on('end', () => done('end'));
      res.on('aborted', () => done('aborted'));
      res.on('error', () => done('error'));
      res.on('close', () => done(res.complete ? 'end' : 'aborted'));
    });
  }

  /**
   * Sends a request with exactly these headers and builds the exchange as soon as the response head
   * arrives, so no event of the response can come before its listeners.
   * @param timeoutMs how long the response head may take; it no longer applies once the head arrived.
   */
  protected static send<T>(
    build: (req: http.ClientRequest, res: http.IncomingMessage) => T,
    url: string,
    method: string,
    headers: Record<string, string>,
    body: string | undefined,
    agent: http.Agent | false,
    timeoutMs: number,
  ): Promise<T> {
    return new Promise((resolve, reject) => {
      const req = http.request(url, { method, headers, agent }, (res) => {
        req.setTimeout(0);
        resolve(build(req, res));
      });
      req.on('error', reject);
      req.setTimeout(timeoutMs, () => req.destroy(new Error(`${method} ${url} did not answer`)));
      req.end(body);
    });
  }

  get status(): number {
    return this.res.statusCode ?? 0;
  }

  get headers(): http.IncomingHttpHeaders {
    return this.res.headers;
  }

  get isEventStream(): boolean {
    return /^text\/event-stream\b/.test(this.res.headers['content-type'] ?? '');
  }

  /** Everything received so far, as written. */
  get text(): string {
    return this.raw;
  }

  /** Resolves once `predicate` holds; rejects after `timeoutMs`, showing what arrived. */
  async waitFor(predicate: (exchange: this) => boolean, timeoutMs = this.waitTimeoutMs): Promise<void> {
    await this.changes.when(
      () => (predicate(this) ? true : undefined),
      timeoutMs,
      () => `condition not met within ${timeoutMs} ms; received:\n${this.raw.slice(0, 4000)}`,
    );
  }

  /** Drops the connection. */
  close(): void {
    this.req.destroy();
  }
}

/** An {@link HttpExchange} read as JSON-RPC messages, however they came (JSON body or SSE events). */
export class HttpStream extends HttpExchange<Finish> {
  private constructor(req: http.ClientRequest, res: http.IncomingMessage) {
    super(req, res, (how) => how, 2000);
  }

  /** Sends a request with exactly these headers (no shared agent); resolves once the response headers arrive. */
  static open(url: string, method: string, headers: Record<string, string>, body?: string): Promise<HttpStream> {
    return HttpExchange.send((req, res) => new HttpStream(req, res), url, method, headers, body, false, 5000);
  }

  get isJson(): boolean {
    return /^application\/json\b/.test(this.res.headers['content-type'] ?? '');
  }

  get ended(): boolean {
    return this.finishedAs !== undefined;
  }

  /** Complete SSE events received so far. */
  get events(): readonly SseEvent[] {
    return this.parser.events;
  }

  /**
   * The JSON-RPC messages received so far: the parsed data of every SSE event that carries some,
   * or the JSON body (one message, or each of a batch) once a JSON response ended.
   */
  get messages(): RpcMessage[] {
    if (this.isEventStream) {
      return this.parser.events
        .filter((event) => (event.event === undefined || event.event === 'message') && event.data)
        .map((event) => JSON.parse(event.data!) as RpcMessage);
    }
    if (!this.isJson || !this.ended || this.raw === '') return [];
    const body = JSON.parse(this.raw) as RpcMessage | RpcMessage[];
    return Array.isArray(body) ? body : [body];
  }

  /** Messages that are notifications or requests with this method. */
  withMethod(method: string): RpcMessage[] {
    return this.messages.filter((message) => message.method === method);
  }

  /** Responses (results or errors) received so far. */
  get responses(): RpcMessage[] {
    return this.messages.filter((message) => message.method === undefined);
  }

  /** Resolves with the first message for which `predicate` holds, once it arrived. */
  async nextMessage(predicate: (message: RpcMessage) => boolean, timeoutMs = 2000): Promise<RpcMessage> {
    await this.waitFor((stream) => stream.messages.some(predicate), timeoutMs);
    return this.messages.find(predicate)!;
  }

  /** Resolves once the response ended (the server finished it); rejects after `timeoutMs`. */
  async untilEnd(timeoutMs = 2000): Promise<Finish> {
    await this.waitFor((stream) => stream.ended, timeoutMs);
    return this.finished;
  }
}
