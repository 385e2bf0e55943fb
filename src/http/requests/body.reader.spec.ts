import { createServer, IncomingMessage, type Server } from 'node:http';
import { connect, Socket, type AddressInfo } from 'node:net';
import type { DecodedBody } from '../../protocol/json-rpc.codec.js';
import { ErrorCode } from '../../protocol/json-rpc.errors.js';
import { readMcpBody, type BodyResult } from './body.reader.js';

const ping = { jsonrpc: '2.0', id: 1, method: 'ping' } as const;

/** A real IncomingMessage whose body the test feeds chunk by chunk. */
function incoming(headers: Record<string, string> = {}): IncomingMessage {
  const message = new IncomingMessage(new Socket());
  message.headers = headers;
  return message;
}

function body(result: BodyResult): DecodedBody {
  if (!result.ok) throw new Error(`expected a body, got ${result.reason}`);
  return result.body;
}

describe('readMcpBody from the raw stream', () => {
  it('decodes a body that arrives in one chunk', async () => {
    const raw = incoming({ 'content-length': String(JSON.stringify(ping).length) });
    const pending = readMcpBody(raw, raw, 1024, 30_000);
    raw.push(Buffer.from(JSON.stringify(ping)));
    raw.push(null);
    const result = await pending;
    expect(body(result)).toEqual({ kind: 'single', entry: { kind: 'request', message: ping } });
    expect(result.ok && result.preParsed).toBe(false);
  });

  it('joins many chunks, even with a multi-byte UTF-8 character split between them', async () => {
    const message = { jsonrpc: '2.0', id: 'ü', method: 'tools/call', params: { text: 'Grüße ☀ 🌤 日本' } };
    const bytes = Buffer.from(JSON.stringify(message), 'utf8');
    const sun = bytes.indexOf(Buffer.from('🌤'));
    const raw = incoming();
    const pending = readMcpBody(raw, raw, 1024, 30_000);
    // Cut inside the 4-byte emoji and in single bytes around it.
    raw.push(bytes.subarray(0, sun + 1));
    raw.push(bytes.subarray(sun + 1, sun + 2));
    raw.push(bytes.subarray(sun + 2, sun + 3));
    raw.push(bytes.subarray(sun + 3));
    raw.push(null);
    expect(body(await pending)).toEqual({ kind: 'single', entry: { kind: 'request', message } });
  });

  it('decodes a batch', async () => {
    const raw = incoming();
    const pending = readMcpBody(raw, raw, 1024, 30_000);
    raw.push(Buffer.from(JSON.stringify([ping, { jsonrpc: '2.0', method: 'notifications/initialized' }])));
    raw.push(null);
    const decoded = body(await pending);
    expect(decoded.kind).toBe('batch');
    expect(decoded.kind === 'batch' && decoded.entries.map((entry) => entry.kind)).toEqual(['request', 'notification']);
  });

  it('turns invalid JSON and an empty body into a parse error', async () => {
    for (const text of ['{"jsonrpc":', '']) {
      const raw = incoming();
      const pending = readMcpBody(raw, raw, 1024, 30_000);
      if (text) raw.push(Buffer.from(text));
      raw.push(null);
      const decoded = body(await pending);
      expect(decoded.kind === 'error' && decoded.error.error.code).toBe(ErrorCode.ParseError);
    }
  });

  it('accepts a body of exactly the limit', async () => {
    const text = JSON.stringify(ping);
    const raw = incoming({ 'content-length': String(text.length) });
    const pending = readMcpBody(raw, raw, text.length, 30_000);
    raw.push(Buffer.from(text));
    raw.push(null);
    expect(body(await pending).kind).toBe('single');
  });

  it('refuses a declared content-length over the limit at once, without reading', () => {
    const raw = incoming({ 'content-length': '1025' });
    const result = readMcpBody(raw, raw, 1024, 30_000);
    expect(result).toEqual({ ok: false, reason: 'too-large' });
    expect(raw.listenerCount('data')).toBe(0);
    expect(raw.readableFlowing).toBeNull();
  });

  it('refuses an undeclared (chunked) body as soon as it passes the limit, and stops reading', async () => {
    const raw = incoming({ 'transfer-encoding': 'chunked' });
    const pending = readMcpBody(raw, raw, 10, 30_000);
    raw.push(Buffer.from('123456'));
    raw.push(Buffer.from('7890'));
    raw.push(Buffer.from('1'));
    expect(await pending).toEqual({ ok: false, reason: 'too-large' });
    expect(raw.isPaused()).toBe(true);
    for (const event of ['data', 'end', 'error', 'close']) expect(raw.listenerCount(event)).toBe(0);
  });

  it('reports a request already gone (destroyed before its end) at once, without waiting for data', () => {
    const raw = incoming({ 'content-length': '10' });
    raw.destroy();
    expect(readMcpBody(raw, raw, 1024, 30_000)).toEqual({ ok: false, reason: 'aborted' });
  });

  it('reports an aborted request when the stream closes before its end', async () => {
    const raw = incoming({ 'content-length': '100' });
    const pending = readMcpBody(raw, raw, 1024, 30_000);
    raw.push(Buffer.from('{"jsonrpc"'));
    raw.destroy();
    expect(await pending).toEqual({ ok: false, reason: 'aborted' });
  });
});

describe('readMcpBody of a body that has arrived whole', () => {
  /** A request whose parser has finished: its body waits in the stream's buffer, in these chunks. */
  function arrived(chunks: readonly Buffer[], headers: Record<string, string> = {}): IncomingMessage {
    const raw = incoming(headers);
    for (const chunk of chunks) raw.push(chunk);
    raw.push(null);
    raw.complete = true;
    return raw;
  }

  it('decodes it at once, joining its chunks, and the stream still ends', async () => {
    const message = { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { text: 'Grüße 🌤' } };
    const bytes = Buffer.from(JSON.stringify(message), 'utf8');
    const sun = bytes.indexOf(Buffer.from('🌤'));
    const raw = arrived([bytes.subarray(0, sun + 2), bytes.subarray(sun + 2)]);
    const ended = new Promise((resolve) => raw.once('end', resolve));
    const result = readMcpBody(raw, raw, 1024, 30_000);
    expect(result).not.toBeInstanceOf(Promise);
    expect(body(result as BodyResult)).toEqual({ kind: 'single', entry: { kind: 'request', message } });
    await ended;
    expect(raw.readableEnded).toBe(true);
  });

  it('takes all of a declared length before the parser has ended the stream, which then ends', async () => {
    const text = JSON.stringify(ping);
    const raw = incoming({ 'content-length': String(text.length) });
    raw.push(Buffer.from(text));
    const result = readMcpBody(raw, raw, 1024, 30_000);
    expect(result).not.toBeInstanceOf(Promise);
    expect(body(result as BodyResult)).toEqual({ kind: 'single', entry: { kind: 'request', message: ping } });
    const ended = new Promise((resolve) => raw.once('end', resolve));
    raw.push(null);
    await ended;
  });

  it('reads part of a declared length as a stream, the rest as it comes', async () => {
    const text = JSON.stringify(ping);
    const raw = incoming({ 'content-length': String(text.length) });
    raw.push(Buffer.from(text.slice(0, 5)));
    const pending = readMcpBody(raw, raw, 1024, 30_000);
    expect(pending).toBeInstanceOf(Promise);
    await new Promise((resolve) => setImmediate(resolve));
    raw.push(Buffer.from(text.slice(5)));
    raw.push(null);
    expect(body(await pending).kind).toBe('single');
  });

  it('still refuses one over the limit that declared no length, as the streamed read does', async () => {
    const raw = arrived([Buffer.from('12345678901')], { 'transfer-encoding': 'chunked' });
    expect(await readMcpBody(raw, raw, 10, 30_000)).toEqual({ ok: false, reason: 'too-large' });
  });

  it('turns an empty body into a parse error', async () => {
    const raw = arrived([]);
    const decoded = body(await readMcpBody(raw, raw, 1024, 30_000));
    expect(decoded.kind === 'error' && decoded.error.error.code).toBe(ErrorCode.ParseError);
  });
});

describe('readMcpBody of a stream given an encoding (setEncoding)', () => {
  const message = { jsonrpc: '2.0', id: 'ü', method: 'tools/call', params: { text: 'Grüße ☀ 🌤 日本' } };
  const bytes = Buffer.from(JSON.stringify(message), 'utf8');
  /** The bytes in four chunks, cut inside the 4-byte emoji. */
  const sun = bytes.indexOf(Buffer.from('🌤'));
  const chunks = [
    bytes.subarray(0, sun + 1),
    bytes.subarray(sun + 1, sun + 2),
    bytes.subarray(sun + 2, sun + 3),
    bytes.subarray(sun + 3),
  ];

  it.each(['utf8', 'latin1', 'hex', 'base64'] as const)(
    'joins its string chunks as the bytes they stand for (%s), whether they come later or wait whole',
    async (encoding) => {
      for (const declared of [true, false]) {
        const later = incoming(declared ? { 'content-length': String(bytes.length) } : {});
        later.setEncoding(encoding);
        const pending = readMcpBody(later, later, 1024, 30_000);
        for (const chunk of chunks) later.push(chunk);
        later.push(null);
        expect(body(await pending)).toEqual({ kind: 'single', entry: { kind: 'request', message } });

        const whole = incoming(declared ? { 'content-length': String(bytes.length) } : {});
        whole.setEncoding(encoding);
        for (const chunk of chunks) whole.push(chunk);
        whole.push(null);
        whole.complete = true;
        expect(body(await readMcpBody(whole, whole, 1024, 30_000))).toEqual({
          kind: 'single',
          entry: { kind: 'request', message },
        });
      }
    },
  );

  it('counts bytes, not characters, against the limit', async () => {
    const raw = incoming();
    raw.setEncoding('utf8');
    // 8 characters, 24 bytes.
    const pending = readMcpBody(raw, raw, 20, 30_000);
    raw.push(Buffer.from('日本日本'));
    raw.push(Buffer.from('日本日本'));
    raw.push(null);
    expect(await pending).toEqual({ ok: false, reason: 'too-large' });
  });

  it('waits for all of a declared length, however few characters stand for it', async () => {
    // Half of the body's bytes as hex are as many characters as the whole body declares.
    const raw = incoming({ 'content-length': String(bytes.length) });
    raw.setEncoding('hex');
    raw.push(bytes.subarray(0, Math.floor(bytes.length / 2)));
    const pending = readMcpBody(raw, raw, 1024, 30_000);
    await new Promise((resolve) => setImmediate(resolve));
    raw.push(bytes.subarray(Math.floor(bytes.length / 2)));
    raw.push(null);
    expect(body(await pending)).toEqual({ kind: 'single', entry: { kind: 'request', message } });
  });
});

describe('readMcpBody over a real connection', () => {
  let server: Server;
  let port: number;
  let results: Promise<BodyResult>[];

  beforeAll(async () => {
    server = createServer((req, res) => {
      const result = Promise.resolve(readMcpBody(req, req, 64, 30_000));
      results.push(result);
      void result.then(() => {
        if (!res.destroyed) res.writeHead(200, { connection: 'close' }).end();
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    port = (server.address() as AddressInfo).port;
  });

  beforeEach(() => {
    results = [];
  });

  afterAll(async () => {
    server.closeAllConnections();
    await new Promise((resolve) => server.close(resolve));
  });

  /** Sends raw HTTP text, optionally cutting the connection right after it. */
  function send(text: string, abort: boolean): Promise<void> {
    return new Promise((resolve) => {
      const socket = connect(port, '127.0.0.1', () => {
        socket.write(text, () => {
          if (abort) {
            // Let the server see the headers and the first bytes, then cut the connection.
            setTimeout(() => {
              socket.destroy();
              resolve();
            }, 20);
          }
        });
      });
      socket.on('data', () => undefined);
      socket.on('close', () => resolve());
      socket.on('error', () => resolve());
    });
  }

  async function nextResult(): Promise<BodyResult> {
    for (let i = 0; i < 100 && results.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    return results[0]!;
  }

  it('reads a chunked body within the limit', async () => {
    const text = JSON.stringify(ping);
    const chunked = `${(10).toString(16)}\r\n${text.slice(0, 10)}\r\n${(text.length - 10).toString(16)}\r\n${text.slice(10)}\r\n0\r\n\r\n`;
    await send(`POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`, false);
    expect(body(await nextResult())).toEqual({ kind: 'single', entry: { kind: 'request', message: ping } });
  });

  it('refuses a chunked body that passes the limit', async () => {
    const chunk = 'x'.repeat(40);
    const chunked = `28\r\n${chunk}\r\n28\r\n${chunk}\r\n0\r\n\r\n`;
    await send(`POST /mcp HTTP/1.1\r\nHost: localhost\r\nTransfer-Encoding: chunked\r\n\r\n${chunked}`, false);
    expect(await nextResult()).toEqual({ ok: false, reason: 'too-large' });
  });

  it('reports aborted when the client disconnects mid-body', async () => {
    await send('POST /mcp HTTP/1.1\r\nHost: localhost\r\nContent-Length: 50\r\n\r\n{"jsonrpc":"2.0",', true);
    expect(await nextResult()).toEqual({ ok: false, reason: 'aborted' });
  });
});

describe('readMcpBody with a body a host parser already read', () => {
  const raw = (readableEnded: boolean): IncomingMessage => ({ readableEnded, headers: {} }) as IncomingMessage;

  it('decodes a parsed object without touching the stream', () => {
    const result = readMcpBody({ body: { ...ping } }, raw(true), 1024, 30_000);
    expect(result).toEqual({
      ok: true,
      body: { kind: 'single', entry: { kind: 'request', message: ping } },
      preParsed: true,
    });
  });

  it('uses a parsed body even when the stream does not say it ended', () => {
    const result = readMcpBody({ body: { ...ping } }, raw(false), 1024, 30_000);
    expect(body(result as BodyResult).kind).toBe('single');
  });

  it('decodes a parsed array as a batch, and an empty one as an invalid request', () => {
    const batch = body(readMcpBody({ body: [ping, ping] }, raw(true), 1024, 30_000) as BodyResult);
    expect(batch.kind === 'batch' && batch.entries).toHaveLength(2);
    const empty = body(readMcpBody({ body: [] }, raw(true), 1024, 30_000) as BodyResult);
    expect(empty.kind === 'error' && empty.error.error.code).toBe(ErrorCode.InvalidRequest);
  });

  it('parses a string body, and a Buffer body as UTF-8', () => {
    expect(body(readMcpBody({ body: JSON.stringify(ping) }, raw(true), 1024, 30_000) as BodyResult)).toEqual({
      kind: 'single',
      entry: { kind: 'request', message: ping },
    });
    const unicode = { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { text: 'ünï ☀' } };
    expect(
      body(readMcpBody({ body: Buffer.from(JSON.stringify(unicode)) }, raw(true), 1024, 30_000) as BodyResult),
    ).toEqual({
      kind: 'single',
      entry: { kind: 'request', message: unicode },
    });
    const broken = body(readMcpBody({ body: '{oops' }, raw(true), 1024, 30_000) as BodyResult);
    expect(broken.kind === 'error' && broken.error.error.code).toBe(ErrorCode.ParseError);
  });

  it('treats an ended stream with no parsed body as an empty body (parse error)', () => {
    const result = body(readMcpBody({}, raw(true), 1024, 30_000) as BodyResult);
    expect(result.kind === 'error' && result.error.error.code).toBe(ErrorCode.ParseError);
  });

  it('treats the `{}` a parser leaves for no body as an invalid message', () => {
    const result = body(readMcpBody({ body: {} }, raw(true), 1024, 30_000) as BodyResult);
    expect(result.kind === 'single' && result.entry.kind).toBe('invalid');
  });

  it('leaves the limit of a parsed body to the parser that read it', () => {
    const result = readMcpBody(
      { body: { ...ping } },
      { readableEnded: true, headers: { 'content-length': '999999' } } as unknown as IncomingMessage,
      10,
      30_000,
    );
    expect(body(result as BodyResult).kind).toBe('single');
  });
});

describe('readMcpBody of a body that stops arriving', () => {
  it('gives up after idleMs without a byte, and waits that long again after each chunk', async () => {
    const raw = incoming({ 'content-length': '100' });
    const started = Date.now();
    const pending = readMcpBody(raw, raw, 1024, 120);
    setTimeout(() => raw.push(Buffer.from('{"jsonrpc":')), 80);
    const result = await pending;
    expect(result).toEqual({ ok: false, reason: 'timeout' });
    // The chunk at 80 ms started the wait again: the answer came after about 200 ms, not 120.
    expect(Date.now() - started).toBeGreaterThanOrEqual(180);
  });
});
