import http from 'node:http';
import net from 'node:net';

/**
 * The client side of HTTP fuzzing: sends generated (malformed) requests to a live endpoint and
 * records, per request, what came back and how long it took, without ever throwing: a reset, a
 * timeout or a client-side refusal is an outcome like a status. Also a raw-socket exchange for
 * bytes no HTTP client would write, a bounded concurrency pool, and the checks of a response body
 * for what a server must never show a client (stack frames, file paths, error internals).
 */

/** One generated request, exactly as it goes on the wire (Node adds only Host and framing). */
export interface FuzzRequest {
  /** The generator family that made it, for the report. */
  readonly family: string;
  readonly method: string;
  /** Path and query, e.g. `/mcp?x=1`. */
  readonly path: string;
  /** Header names as written; an array value sends the header once per element. */
  readonly headers: Readonly<Record<string, string | readonly string[]>>;
  readonly body?: Buffer;
  /** Send the body in pieces with chunked framing instead of a Content-Length. */
  readonly chunked?: boolean;
  /** Drop the connection this long after sending began, whatever has arrived: a client giving up. */
  readonly abortAfterMs?: number;
  /** For a GET answered with an event stream: read it this long before closing it (else close at once). */
  readonly holdStreamMs?: number;
  /**
   * The server may answer and drop the connection before it read all of the request (a head
   * over Node's limit, a body over the endpoint's): a reset is then no failure.
   */
  readonly mayReset?: boolean;
}

/** What came back for one {@link FuzzRequest}. */
export interface FuzzOutcome {
  /** The status, or undefined when no response head arrived. */
  readonly status?: number;
  readonly headers: http.IncomingHttpHeaders;
  /** The body as received (UTF-8); empty for a stream closed after its head. */
  readonly text: string;
  readonly ms: number;
  /** Why there is no complete response: `timeout`, a socket error code, or the client's refusal. */
  readonly error?: string;
  /** An event stream the client closed itself after its head (a GET stream, a listen stream). */
  readonly streamClosedByClient?: boolean;
  /** The client dropped the connection as the request asked ({@link FuzzRequest.abortAfterMs}). */
  readonly abandoned?: boolean;
  /** The request the socket carried before this one, when it was a reused keep-alive socket. */
  readonly previousOnSocket?: FuzzRequest;
  /** The first attempt, when the request was sent a second time (its kept-alive socket found closed). */
  readonly retried?: FuzzOutcome;
}

export interface FuzzSendOptions {
  readonly agent: http.Agent;
  /** Whole-exchange deadline; past it the exchange is a hang. */
  readonly timeoutMs: number;
  /**
   * Whether a POST answered with an event stream may be closed once this text arrived (a
   * `subscriptions/listen` stream never ends by itself).
   */
  readonly openEndedStream?: (received: string) => boolean;
}

/** The last request each socket carried, so a hang on a reused socket can name what came before. */
const lastOnSocket = new WeakMap<net.Socket, FuzzRequest>();

/**
 * Sends one request over `options.agent`; resolves with its outcome, never rejects. A request whose
 * kept-alive socket turns out closed before any answer (the server closed it while idle, just as the
 * agent picked it) is sent once more on a fresh one, as any HTTP client does; the outcome says so.
 */
export async function fuzzExchange(
  baseUrl: string,
  request: FuzzRequest,
  options: FuzzSendOptions,
): Promise<FuzzOutcome> {
  const first = await attempt(baseUrl, request, options);
  if (!first.staleSocket) return first;
  const second = await attempt(baseUrl, request, options);
  return { ...second, retried: first };
}

/** Codes of a kept-alive socket the server closed before the request reached it. */
const STALE = new Set(['ECONNRESET', 'EPIPE', 'ECONNABORTED']);

function attempt(
  baseUrl: string,
  request: FuzzRequest,
  options: FuzzSendOptions,
): Promise<FuzzOutcome & { readonly staleSocket?: boolean }> {
  const started = performance.now();
  return new Promise((resolve) => {
    let settled = false;
    let previousOnSocket: FuzzRequest | undefined;
    const timers: NodeJS.Timeout[] = [];
    // What arrived so far: a stream closed, or a request abandoned, by the client still says it.
    let status: number | undefined;
    let resHeaders: http.IncomingHttpHeaders = {};
    const chunks: Buffer[] = [];
    const received = (): string => Buffer.concat(chunks).toString('utf8');
    const finish = (
      outcome: Omit<FuzzOutcome, 'ms' | 'previousOnSocket' | 'status' | 'headers' | 'text'> & {
        staleSocket?: boolean;
      },
    ): void => {
      if (settled) return;
      settled = true;
      for (const timer of timers) clearTimeout(timer);
      resolve({
        status,
        headers: resHeaders,
        text: received(),
        ...outcome,
        ms: Math.round(performance.now() - started),
        previousOnSocket,
      });
    };
    const headers: Record<string, string | string[]> = {};
    for (const [name, value] of Object.entries(request.headers))
      headers[name] = typeof value === 'string' ? value : [...value];
    if (request.body !== undefined && !request.chunked) headers['content-length'] = String(request.body.length);
    let req: http.ClientRequest;
    try {
      req = http.request(`${baseUrl}${request.path}`, { method: request.method, headers, agent: options.agent });
    } catch (error) {
      // A header Node refuses to write: the generator made something no HTTP client can send.
      finish({ error: `client refused: ${(error as Error).message}` });
      return;
    }
    /** Ends the exchange from the client's side, as `outcome` says, and drops the connection. */
    const leave = (outcome: Parameters<typeof finish>[0]): void => {
      if (settled) return;
      finish(outcome);
      req.destroy();
    };
    req.on('socket', (socket: net.Socket) => {
      if (req.reusedSocket) previousOnSocket = lastOnSocket.get(socket);
      lastOnSocket.set(socket, request);
    });
    let answered = false;
    req.on('response', (res) => {
      answered = true;
      status = res.statusCode;
      resHeaders = res.headers;
      const isEventStream = /text\/event-stream/i.test(String(res.headers['content-type'] ?? ''));
      if (isEventStream && request.method === 'GET') {
        // A session's stream, opened as asked: closed after its head, or after a while of reading.
        if (request.holdStreamMs === undefined) return leave({ streamClosedByClient: true });
        timers.push(setTimeout(() => leave({ streamClosedByClient: true }), request.holdStreamMs));
      }
      res.on('data', (chunk: Buffer) => {
        chunks.push(chunk);
        if (isEventStream && request.method !== 'GET' && options.openEndedStream?.(received())) {
          leave({ streamClosedByClient: true });
        }
      });
      res.on('end', () => finish({}));
      res.on('error', (error: NodeJS.ErrnoException) => finish({ error: `response ${error.code ?? error.message}` }));
    });
    req.on('error', (error: NodeJS.ErrnoException) =>
      finish({
        error: error.code ?? error.message,
        staleSocket: req.reusedSocket && !answered && STALE.has(error.code ?? ''),
      }),
    );
    timers.push(setTimeout(() => leave({ error: 'timeout' }), options.timeoutMs));
    if (request.abortAfterMs !== undefined) {
      timers.push(setTimeout(() => leave({ abandoned: true }), request.abortAfterMs));
    }
    const body = request.body;
    if (body === undefined) {
      req.end();
    } else if (request.chunked) {
      // In three pieces, a turn of the event loop apart: the server sees a body arrive in parts.
      const size = Math.max(Math.ceil(body.length / 3), 1);
      const pieces = [0, size, 2 * size].map((at) => body.subarray(at, at + size));
      const next = (i: number): void => {
        if (settled || req.destroyed) return;
        if (i === pieces.length) return void req.end();
        req.write(pieces[i]);
        setImmediate(() => next(i + 1));
      };
      next(0);
    } else {
      req.end(body);
    }
  });
}

/** What came back on a raw socket. */
export interface RawOutcome {
  /** The status of the first response, if one arrived. */
  readonly status?: number;
  /** Every byte received (heads and bodies of every response), as latin1. */
  readonly text: string;
  readonly ms: number;
  /** `timeout`, or a socket error code; a close by the server after its answer is no error. */
  readonly error?: string;
}

/**
 * Writes `bytes` on a fresh connection, half-closes it (so the server knows nothing more comes) and
 * reads until the server closes. An event stream is closed after its head.
 */
export function rawExchange(port: number, bytes: Buffer, timeoutMs: number): Promise<RawOutcome> {
  const started = performance.now();
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let settled = false;
    const socket = net.connect({ host: '127.0.0.1', port });
    const finish = (error?: string): void => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      const text = Buffer.concat(chunks).toString('latin1');
      const status = /^HTTP\/1\.[01] (\d{3})/.exec(text)?.[1];
      resolve({
        status: status === undefined ? undefined : Number(status),
        text,
        ms: Math.round(performance.now() - started),
        ...(error === undefined ? {} : { error }),
      });
    };
    const timer = setTimeout(() => finish('timeout'), timeoutMs);
    socket.on('connect', () => socket.end(bytes));
    socket.on('data', (chunk: Buffer) => {
      chunks.push(chunk);
      if (
        /\r\ncontent-type:\s*text\/event-stream[^\r]*\r\n(?:[^\r]+\r\n)*\r\n/i.test(
          Buffer.concat(chunks).toString('latin1'),
        )
      ) {
        finish();
      }
    });
    socket.on('close', () => finish());
    socket.on('error', (error: NodeJS.ErrnoException) => {
      // The server may drop a connection whose bytes it refused; what it wrote before still counts.
      if (chunks.length > 0) finish();
      else finish(error.code ?? error.message);
    });
  });
}

/** Runs `work` over `items`, at most `concurrency` at a time; results in the order of `items`. */
export async function runPool<T, R>(
  items: readonly T[],
  concurrency: number,
  work: (item: T, index: number) => Promise<R>,
): Promise<R[]> {
  const results: R[] = new Array<R>(items.length);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < items.length) {
      const index = next++;
      results[index] = await work(items[index]!, index);
    }
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, items.length) }, worker));
  return results;
}

/** What a response must never show a client, each with the pattern that finds it. */
const LEAKS: readonly { readonly what: string; readonly pattern: RegExp }[] = [
  {
    what: 'a stack frame',
    pattern: /(?:^|\n)[ \t]*at [^\n]*?(?::\d+:\d+\)?|\((?:native|<anonymous>)\))/g,
  },
  { what: 'a source location', pattern: /(?<![\w-])[\w-]+\.(?:ts|js|mjs|cjs):\d+(?::\d+)?/g },
  { what: 'the checkout path', pattern: /\/work\//g },
  { what: 'node_modules', pattern: /node_modules/g },
  { what: 'a src/ path', pattern: /(?<![\w-])src\/[\w.-]+/g },
  { what: 'an error internal', pattern: /(?<![A-Za-z])(?:[A-Z][a-z]+)*Error: /g },
];

/**
 * What of `text` (a response body or head) a client must never see, unless the request itself
 * carried it (a tool echoes its text, an error names the unknown method it was sent): each
 * finding names the leak and the text found.
 * @param sent everything the request carried, as text.
 */
export function leaksIn(text: string, sent: string): string[] {
  // Stacks inside JSON strings are escaped, and HTML error pages break their lines with <br>: look
  // at the text as a client would print it too.
  const views = [
    text,
    text
      .replace(/\\r\\n|\\n|<br\s*\/?>/g, '\n')
      .replace(/&nbsp;/g, ' ')
      .replace(/\\\//g, '/')
      .replace(/\\"/g, '"'),
  ];
  const found = new Set<string>();
  for (const view of views) {
    for (const { what, pattern } of LEAKS) {
      for (const match of view.matchAll(pattern)) {
        const snippet = match[0].trim();
        if (!sent.includes(snippet)) found.add(`${what}: ${JSON.stringify(snippet.slice(0, 200))}`);
      }
    }
  }
  return [...found];
}

/** Everything a request carried, as text (UTF-8 and latin1 readings of its body), for {@link leaksIn}. */
export function sentText(request: FuzzRequest): string {
  const headerText = Object.entries(request.headers)
    .map(([name, value]) => `${name}: ${typeof value === 'string' ? value : value.join(', ')}`)
    .join('\n');
  const body = request.body ?? Buffer.alloc(0);
  return `${request.method} ${request.path}\n${headerText}\n${body.toString('utf8')}\n${body.toString('latin1')}`;
}

/** A reproduction of `request` a person can read: method, path, headers and (cut) body. */
export function describeRequest(request: FuzzRequest, maxBody = 600): string {
  const headers = Object.entries(request.headers).map(
    ([name, value]) =>
      `  ${name}: ${JSON.stringify(typeof value === 'string' ? cut(value, 200) : value.map((v) => cut(v, 200)))}`,
  );
  const body = request.body;
  let bodyText = '  (no body)';
  if (body !== undefined) {
    const utf8 = body.toString('utf8');
    const printable = Buffer.from(utf8, 'utf8').equals(body);
    bodyText = printable
      ? `  body (${body.length} bytes, UTF-8): ${JSON.stringify(cut(utf8, maxBody))}`
      : `  body (${body.length} bytes, base64): ${cut(body.toString('base64'), maxBody)}`;
  }
  return [
    `${request.method} ${request.path}  [${request.family}${request.chunked ? ', chunked' : ''}]`,
    ...headers,
    bodyText,
  ].join('\n');
}

const cut = (text: string, max: number): string =>
  text.length <= max ? text : `${text.slice(0, max)}…(${text.length} chars)`;

/** Counts of values, printed most frequent first. */
export class Tally {
  private readonly counts = new Map<string, number>();

  add(key: string | number): void {
    const k = String(key);
    this.counts.set(k, (this.counts.get(k) ?? 0) + 1);
  }

  get(key: string | number): number {
    return this.counts.get(String(key)) ?? 0;
  }

  /** `key: count` lines, by key. */
  sorted(): string[] {
    return [...this.counts.entries()]
      .sort((a, b) => a[0].localeCompare(b[0]))
      .map(([key, count]) => `${key}: ${count}`);
  }

  toString(): string {
    return [...this.counts.entries()]
      .sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
      .map(([key, count]) => `${key}: ${count}`)
      .join(', ');
  }
}
