import { jest } from '@jest/globals';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { asServerResponse, FakeServerResponse } from '../../../test/utils/fake-server-response.js';
import { useResponseServer } from '../../../test/utils/response-server.js';
import { notificationMessage, successResponse } from '../../protocol/json-rpc.codec.js';
import type { JsonRpcMessage } from '../../protocol/json-rpc.types.js';
import { SseWriter } from './sse.writer.js';

const frame = (message: JsonRpcMessage): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const note = (n: number): JsonRpcMessage => notificationMessage('notifications/progress', { n });
/** The characters of a message's data, as the writer counts what it holds back. */
const chars = (...messages: JsonRpcMessage[]): number =>
  messages.reduce((sum, message) => sum + JSON.stringify(message).length, 0);

/** Parses an SSE body into its `message` events' data (comments skipped). */
function events(body: string): unknown[] {
  return body
    .split('\n\n')
    .filter((block) => block.startsWith('event: message\n'))
    .map((block) => JSON.parse(block.slice('event: message\ndata: '.length)) as unknown);
}

describe('SseWriter on a fake response', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('opens with status 200 and the SSE headers, merged with the caller’s, and flushes them', () => {
    const res = new FakeServerResponse();
    new SseWriter(asServerResponse(res), 0).open({ 'mcp-session-id': 'abc' });
    expect(res.statusCode).toBe(200);
    expect(res.headers).toEqual({
      'content-type': 'text/event-stream',
      'cache-control': 'no-cache, no-transform',
      'x-accel-buffering': 'no',
      'mcp-session-id': 'abc',
    });
    expect(res.flushed).toBe(true);
    expect(res.chunks).toEqual([]);
  });

  it("leaves `Connection` to Node, which honours a client's `Connection: close` (and HTTP/2 forbids the header)", () => {
    const res = new FakeServerResponse();
    new SseWriter(asServerResponse(res), 0).open();
    expect(Object.keys(res.headers)).not.toContain('connection');
  });

  it('frames each message as one "message" event with its JSON on one data line', () => {
    const res = new FakeServerResponse();
    const writer = new SseWriter(asServerResponse(res), 0);
    writer.open();
    const result = successResponse(1, { content: [{ type: 'text', text: 'line one\nline two\r\nünïcødé 🌤' }] });
    writer.send(result);
    writer.send(note(2));
    expect(res.chunks).toEqual([frame(result), frame(note(2))]);
    expect(res.chunks[0]!.split('\n')).toHaveLength(4); // event, data, blank line terminator
    expect(events(res.body)).toEqual([result, note(2)]);
  });

  it('sends a keep-alive comment every keepAliveMs on an unref’d timer', () => {
    jest.useFakeTimers();
    const setIntervalSpy = jest.spyOn(globalThis, 'setInterval');
    const res = new FakeServerResponse();
    new SseWriter(asServerResponse(res), 1_000).open();
    expect(res.chunks).toEqual([]);
    jest.advanceTimersByTime(999);
    expect(res.chunks).toEqual([]);
    jest.advanceTimersByTime(1);
    expect(res.chunks).toEqual([': keep-alive\n\n']);
    jest.advanceTimersByTime(2_000);
    expect(res.chunks).toEqual([': keep-alive\n\n', ': keep-alive\n\n', ': keep-alive\n\n']);
    const timer = setIntervalSpy.mock.results[0]!.value as NodeJS.Timeout;
    expect(timer.hasRef()).toBe(false);
    setIntervalSpy.mockRestore();
  });

  it('starts no timer when keepAliveMs is 0', () => {
    jest.useFakeTimers();
    const res = new FakeServerResponse();
    new SseWriter(asServerResponse(res), 0).open();
    expect(jest.getTimerCount()).toBe(0);
    jest.advanceTimersByTime(60_000);
    expect(res.chunks).toEqual([]);
  });

  it('stops the keep-alive timer when the client closes the connection', () => {
    jest.useFakeTimers();
    const res = new FakeServerResponse();
    const writer = new SseWriter(asServerResponse(res), 1_000);
    writer.open();
    expect(jest.getTimerCount()).toBe(1);
    res.destroy();
    expect(jest.getTimerCount()).toBe(0);
    expect(writer.closed).toBe(true);
    jest.advanceTimersByTime(5_000);
    expect(res.chunks).toEqual([]);
  });

  it('ends the response at once when nothing is queued, stops the timer, and ends only once', () => {
    jest.useFakeTimers();
    const res = new FakeServerResponse();
    const writer = new SseWriter(asServerResponse(res), 1_000);
    writer.open();
    writer.send(note(1));
    expect(writer.closed).toBe(false);
    writer.end();
    expect(res.writableEnded).toBe(true);
    expect(writer.closed).toBe(true);
    expect(jest.getTimerCount()).toBe(0);
    writer.end();
    expect(res.endCalls).toBe(1);
    writer.send(note(2));
    expect(res.chunks).toEqual([frame(note(1))]);
  });

  it('writes nothing once the client is gone', () => {
    const res = new FakeServerResponse();
    const writer = new SseWriter(asServerResponse(res), 0);
    writer.open();
    res.destroy();
    writer.send(note(1));
    writer.end();
    expect(res.chunks).toEqual([]);
    expect(res.endCalls).toBe(0);
  });

  describe('backpressure', () => {
    it('queues events while the connection needs to drain, counting them, and reports the count', () => {
      const res = new FakeServerResponse(1); // every write fills the buffer
      const onPending = jest.fn<(count: number, chars: number) => void>();
      const writer = new SseWriter(asServerResponse(res), 0, onPending);
      writer.open();
      writer.send(note(1)); // goes out, and the buffer is now full
      expect(res.writableNeedDrain).toBe(true);
      expect(writer.pending).toBe(0);
      expect(onPending).not.toHaveBeenCalled();
      writer.send(note(2));
      writer.send(note(3));
      expect(res.chunks).toEqual([frame(note(1))]);
      expect(writer.pending).toBe(2);
      expect(onPending.mock.calls).toEqual([
        [1, chars(note(2))],
        [2, chars(note(2), note(3))],
      ]);
    });

    it('flushes queued events in order on drain and reports 0 pending', () => {
      const res = new FakeServerResponse(1);
      const onPending = jest.fn<(count: number, chars: number) => void>();
      const writer = new SseWriter(asServerResponse(res), 0, onPending);
      writer.open();
      for (const n of [1, 2, 3, 4]) writer.send(note(n));
      expect(writer.pending).toBe(3);

      // Each drain lets one write through before the buffer is full again.
      res.drainSocket();
      expect(res.chunks).toEqual([frame(note(1)), frame(note(2))]);
      expect(writer.pending).toBe(2);
      expect(onPending).toHaveBeenLastCalledWith(2, chars(note(3), note(4)));

      res.drainSocket();
      res.drainSocket();
      expect(res.chunks).toEqual([1, 2, 3, 4].map((n) => frame(note(n))));
      expect(writer.pending).toBe(0);
      expect(onPending).toHaveBeenLastCalledWith(0, 0);
    });

    it('keeps later events behind queued ones even when the connection has drained meanwhile', () => {
      const res = new FakeServerResponse(1);
      const writer = new SseWriter(asServerResponse(res), 0);
      writer.open();
      writer.send(note(1));
      writer.send(note(2)); // queued
      // The buffer empties before its 'drain' is handled: a new event must still wait its turn.
      res.drainSocket(false);
      res.writableNeedDrain = false;
      writer.send(note(3));
      expect(res.chunks).toEqual([frame(note(1))]);
      expect(writer.pending).toBe(2);
      res.highWaterMark = Number.POSITIVE_INFINITY;
      res.emit('drain');
      expect(events(res.body)).toEqual([note(1), note(2), note(3)]);
    });

    it('writes everything at once on drain when the connection can take it', () => {
      const res = new FakeServerResponse(1);
      const writer = new SseWriter(asServerResponse(res), 0);
      writer.open();
      for (const n of [1, 2, 3]) writer.send(note(n));
      res.highWaterMark = Number.POSITIVE_INFINITY;
      res.drainSocket();
      expect(events(res.body)).toEqual([note(1), note(2), note(3)]);
      expect(writer.pending).toBe(0);
    });

    it('ends the response only after queued events went out', () => {
      const res = new FakeServerResponse(1);
      const writer = new SseWriter(asServerResponse(res), 0);
      writer.open();
      for (const n of [1, 2, 3]) writer.send(note(n));
      writer.end();
      expect(writer.closed).toBe(true);
      expect(res.writableEnded).toBe(false);
      res.drainSocket();
      expect(res.writableEnded).toBe(false);
      expect(writer.pending).toBe(1);
      res.drainSocket();
      expect(writer.pending).toBe(0);
      expect(res.writableEnded).toBe(true);
      expect(res.endCalls).toBe(1);
      expect(events(res.body)).toEqual([note(1), note(2), note(3)]);
      res.drainSocket();
      expect(res.endCalls).toBe(1);
    });

    it('drops the queue and stops listening for drain when the client closes', () => {
      jest.useFakeTimers();
      const res = new FakeServerResponse(1);
      const writer = new SseWriter(asServerResponse(res), 1_000);
      writer.open();
      for (const n of [1, 2, 3]) writer.send(note(n));
      res.destroy();
      expect(writer.pending).toBe(0);
      expect(res.listenerCount('drain')).toBe(0);
      expect(jest.getTimerCount()).toBe(0);
      expect(res.chunks).toEqual([frame(note(1))]);
    });

    it('counts only messages as pending, not keep-alive comments', () => {
      // onPending feeds the session's outbox limit, which bounds undelivered *messages*
      // (see SseWriter.pending and ClientSession.pendingCounter).
      jest.useFakeTimers();
      const res = new FakeServerResponse(1);
      const onPending = jest.fn<(count: number, chars: number) => void>();
      const writer = new SseWriter(asServerResponse(res), 1_000, onPending);
      writer.open();
      writer.send(note(1)); // fills the buffer
      writer.send(note(2)); // queued: 1 pending message
      jest.advanceTimersByTime(10_000); // ten keep-alive ticks while the client is stalled
      expect(writer.pending).toBe(1);
      expect(onPending).toHaveBeenLastCalledWith(1, chars(note(2)));
      res.highWaterMark = Number.POSITIVE_INFINITY;
      res.drainSocket();
      expect(res.chunks).toEqual([frame(note(1)), frame(note(2))]);
      jest.advanceTimersByTime(1_000); // idle again: keep-alives resume
      expect(res.chunks).toEqual([frame(note(1)), frame(note(2)), ': keep-alive\n\n']);
    });
  });
});

describe('SseWriter on a real ServerResponse', () => {
  const server = useResponseServer();

  function get(): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port: server.port, path: '/' }, resolve).on('error', reject).end();
    });
  }

  function readAll(res: IncomingMessage): Promise<string> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      res.on('data', (chunk: Buffer) => chunks.push(chunk));
      res.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
      res.on('error', reject);
    });
  }

  it('streams framed events with SSE headers, keep-alive comments, and ends', async () => {
    server.handle = (res) => {
      const writer = new SseWriter(res, 15, undefined);
      writer.open({ 'mcp-session-id': 'sid' });
      writer.send(note(1));
      setTimeout(() => {
        writer.send(successResponse('x', { ok: 'ünï' }));
        writer.end();
      }, 60);
    };
    const res = await get();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['cache-control']).toBe('no-cache, no-transform');
    expect(res.headers['mcp-session-id']).toBe('sid');
    const body = await readAll(res);
    expect(body.startsWith(frame(note(1)))).toBe(true);
    expect(body.endsWith(frame(successResponse('x', { ok: 'ünï' })))).toBe(true);
    expect(body).toContain(': keep-alive\n\n');
    expect(events(body)).toEqual([note(1), successResponse('x', { ok: 'ünï' })]);
  });

  it('queues under real socket backpressure and delivers everything, in order, as the socket drains', async () => {
    const big = 'x'.repeat(256 * 1024);
    const counts: number[] = [];
    let sent = 0;
    let pendingAtEnd = -1;
    server.handle = (res) => {
      const writer = new SseWriter(res, 0, (count) => counts.push(count));
      writer.open();
      // Write until the socket pushes back, then a few more that must wait.
      while (writer.pending < 3 && sent < 400) writer.send(notificationMessage('big', { n: sent++, big }));
      pendingAtEnd = writer.pending;
      writer.end();
    };
    const res = await get();
    expect(pendingAtEnd).toBe(3);
    const body = await readAll(res);
    const received = events(body) as { params: { n: number } }[];
    expect(received.map((message) => message.params.n)).toEqual(Array.from({ length: sent }, (_, n) => n));
    expect(counts.slice(0, 3)).toEqual([1, 2, 3]);
    expect(counts.at(-1)).toBe(0);
  });
});

describe('SseWriter on connections that are gone, and messages that cannot be serialised', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('open on a destroyed response returns false, writes no headers and starts no timer', () => {
    jest.useFakeTimers();
    const res = new FakeServerResponse();
    res.destroy();
    const writer = new SseWriter(asServerResponse(res), 1_000);
    expect(writer.open({ 'mcp-session-id': 'gone' })).toBe(false);
    expect(res.headersSent).toBe(false);
    expect(res.flushed).toBe(false);
    expect(jest.getTimerCount()).toBe(0);
    expect(res.listenerCount('drain')).toBe(0);
    jest.advanceTimersByTime(10_000);
    expect(res.chunks).toEqual([]);
  });

  it('open on an ended response, or one whose headers went out, returns false and starts no timer', () => {
    jest.useFakeTimers();
    const ended = new FakeServerResponse();
    ended.end();
    expect(new SseWriter(asServerResponse(ended), 1_000).open()).toBe(false);
    const answered = new FakeServerResponse();
    answered.writeHead(403);
    expect(new SseWriter(asServerResponse(answered), 1_000).open()).toBe(false);
    expect(answered.statusCode).toBe(403);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('open on a live response returns true', () => {
    const res = new FakeServerResponse();
    expect(new SseWriter(asServerResponse(res), 0).open()).toBe(true);
  });

  it('send of a message that cannot be serialised returns false and writes nothing; later messages go out', () => {
    const res = new FakeServerResponse();
    const writer = new SseWriter(asServerResponse(res), 0);
    writer.open();
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    expect(writer.send(notificationMessage('notifications/message', { n: 1n as unknown as number }))).toBe(false);
    expect(writer.send(notificationMessage('notifications/message', cyclic))).toBe(false);
    expect(res.chunks).toEqual([]);
    expect(writer.pending).toBe(0);
    expect(writer.send(note(1))).toBe(true);
    expect(res.chunks).toEqual([frame(note(1))]);
  });

  it('an unserialisable message queued behind backpressure is not counted as pending', () => {
    const res = new FakeServerResponse(1);
    const onPending = jest.fn<(count: number, chars: number) => void>();
    const writer = new SseWriter(asServerResponse(res), 0, onPending);
    writer.open();
    writer.send(note(1)); // fills the buffer
    expect(writer.send(notificationMessage('notifications/message', { n: 2n as unknown as number }))).toBe(false);
    expect(writer.pending).toBe(0);
    expect(onPending).not.toHaveBeenCalled();
  });
});

describe('SseWriter event ids, priming and retry', () => {
  it('sendEncoded writes the JSON as is, with an id line first when given', () => {
    const res = new FakeServerResponse();
    const writer = new SseWriter(asServerResponse(res), 0);
    writer.open();
    writer.sendEncoded('{"jsonrpc":"2.0","method":"a"}');
    writer.sendEncoded('{"jsonrpc":"2.0","method":"b"}', 'p3-7');
    expect(res.chunks).toEqual([
      'event: message\ndata: {"jsonrpc":"2.0","method":"a"}\n\n',
      'id: p3-7\nevent: message\ndata: {"jsonrpc":"2.0","method":"b"}\n\n',
    ]);
  });

  it('prime writes an event with an id and empty data, and no event type', () => {
    const res = new FakeServerResponse();
    const writer = new SseWriter(asServerResponse(res), 0);
    writer.open();
    writer.prime('g-1');
    expect(res.chunks).toEqual(['id: g-1\ndata: \n\n']);
    // A client skips it: the message-event parser of these tests sees nothing.
    expect(events(res.body)).toEqual([]);
  });

  it.each([
    [1_000, 'retry: 1000\n\n'],
    [0, 'retry: 0\n\n'],
    [1.9, 'retry: 1\n\n'],
    [-5, 'retry: 0\n\n'],
  ])('retry(%p) writes %p', (ms, line) => {
    const res = new FakeServerResponse();
    const writer = new SseWriter(asServerResponse(res), 0);
    writer.open();
    writer.retry(ms);
    expect(res.chunks).toEqual([line]);
  });

  it('queues ids, priming events and retry lines behind backpressure, in order', () => {
    const res = new FakeServerResponse(1);
    const onPending = jest.fn<(count: number, chars: number) => void>();
    const writer = new SseWriter(asServerResponse(res), 0, onPending);
    writer.open();
    writer.prime('p1-1');
    writer.sendEncoded('{"n":2}', 'p1-2');
    writer.retry(500);
    expect(res.chunks).toEqual(['id: p1-1\ndata: \n\n']);
    expect(writer.pending).toBe(2);
    res.highWaterMark = Number.POSITIVE_INFINITY;
    res.drainSocket();
    expect(res.chunks).toEqual([
      'id: p1-1\ndata: \n\n',
      'id: p1-2\nevent: message\ndata: {"n":2}\n\n',
      'retry: 500\n\n',
    ]);
    expect(onPending).toHaveBeenLastCalledWith(0, 0);
  });

  it('writes none of them once the client is gone or the stream ended', () => {
    const res = new FakeServerResponse();
    const writer = new SseWriter(asServerResponse(res), 0);
    writer.open();
    writer.end();
    writer.prime('g-1');
    writer.sendEncoded('{}', 'g-2');
    writer.retry(10);
    expect(res.chunks).toEqual([]);
  });
});
