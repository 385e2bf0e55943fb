import { jest } from '@jest/globals';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { asServerResponse, FakeServerResponse } from '../../../test/utils/fake-server-response.js';
import { useResponseServer } from '../../../test/utils/response-server.js';
import { errorResponse, invalidRequest } from '../../protocol/json-rpc.errors.js';
import { notificationMessage, requestMessage, successResponse } from '../../protocol/json-rpc.codec.js';
import type { JsonRpcMessage } from '../../protocol/json-rpc.types.js';
import type { LegacyProtocolVersion as ProtocolVersion } from '../../protocol/protocol-version.js';
import type { McpStoredEvent } from '../../interfaces/mcp-event-store.interface.js';
import type { StreamEvent } from '../../session/session-stream.js';
import { InMemoryEventStore } from '../../session/in-memory-event-store.js';
import { ClientSession } from '../../session/client-session.js';
import { PostResponder, type PostResponderSettings } from './post-responder.js';

/** One message event of the POST's stream, with the id it gets there. */
const frame = (message: JsonRpcMessage, id: string): string =>
  `id: ${id}\nevent: message\ndata: ${JSON.stringify(message)}\n\n`;
const priming = (id: string): string => `id: ${id}\ndata: \n\n`;
const SESSION = { 'mcp-session-id': 'sid-1' };
const SETTINGS: PostResponderSettings = { keepAliveMs: 0, retryMs: 1_000 };

function makeSession(
  protocolVersion: ProtocolVersion = '2025-06-18',
  outboxLimit = 100,
): { session: ClientSession; store: InMemoryEventStore } {
  const store = new InMemoryEventStore({ maxEventsPerSession: 100, maxEventAgeMs: 60_000 });
  const session = new ClientSession({
    id: 'sid-1',
    protocolVersion,
    clientInfo: { name: 'client', version: '1.0.0' },
    clientCapabilities: {},
    outboxLimit,
    logLevel: 'info',
    eventStore: store,
    now: Date.now(),
    onEnd: () => undefined,
    onStoreError: (error) => {
      throw error;
    },
    onUnserializable: () => undefined,
  });
  return { session, store };
}

/**
 * What a client resuming the POST's stream `streamId` after `afterSeq` would get: the stream live
 * until it ends, or, once it finished, what the store kept of it.
 */
async function resumed(session: ClientSession, streamId: string, afterSeq: number): Promise<McpStoredEvent[]> {
  const live = session.streams.resume(streamId, afterSeq);
  if (!live) return [...(await session.streams.stored(streamId, afterSeq))];
  const events: McpStoredEvent[] = [];
  await new Promise<void>((resolve) => live.subscribe({ next: (event) => events.push(event), complete: resolve }));
  return events;
}

const r1 = successResponse(1, { content: [{ type: 'text', text: 'héllo ☀' }] });
const r2 = successResponse('two', {});
const failure = errorResponse(null, invalidRequest('jsonrpc must be "2.0"'));
const progress = notificationMessage('notifications/progress', { progressToken: 't', progress: 1 });
const log = notificationMessage('notifications/message', { level: 'info', data: 'x' });

function responder(
  expected: number,
  batch: boolean,
  keepAliveMs = 0,
  protocolVersion: ProtocolVersion = '2025-06-18',
): { res: FakeServerResponse; post: PostResponder; session: ClientSession; store: InMemoryEventStore } {
  const res = new FakeServerResponse();
  const { session, store } = makeSession(protocolVersion);
  const post = new PostResponder(asServerResponse(res), session, expected, batch, SESSION, {
    ...SETTINGS,
    keepAliveMs,
  });
  return { res, post, session, store };
}

describe('PostResponder in JSON mode', () => {
  it('answers a single request with one JSON object, its content type and its length in bytes', () => {
    const { res, post } = responder(1, false);
    expect(post.done).toBe(false);
    post.respond(r1);
    expect(post.done).toBe(true);
    expect(res.statusCode).toBe(200);
    expect(res.headers).toEqual({
      'mcp-session-id': 'sid-1',
      'content-type': 'application/json',
      'content-length': Buffer.byteLength(JSON.stringify(r1)),
    });
    expect(res.headers['content-length']).toBeGreaterThan(JSON.stringify(r1).length); // multi-byte text
    expect(JSON.parse(res.body)).toEqual(r1);
    expect(res.writableEnded).toBe(true);
  });

  it('answers a batch with one JSON array, in the order the responses came', () => {
    const { res, post } = responder(3, true);
    post.respond(r2);
    post.respond(failure);
    expect(res.headersSent).toBe(false);
    expect(post.done).toBe(false);
    post.respond(r1);
    expect(post.done).toBe(true);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toEqual([r2, failure, r1]);
  });

  it('answers a batch that owes one response with an array of one', () => {
    const { res, post } = responder(1, true);
    post.respond(r1);
    expect(JSON.parse(res.body)).toEqual([r1]);
  });

  it('writes nothing after the last response', () => {
    const { res, post } = responder(1, false);
    post.respond(r1);
    const body = res.body;
    expect(() => post.respond(r2)).not.toThrow();
    expect(post.send(progress)).toBe(false);
    expect(res.body).toBe(body);
    expect(res.headers['content-type']).toBe('application/json');
  });
});

describe('PostResponder switching to SSE', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('switches a single request to an event stream when a related message comes first, and ends after the response', () => {
    const { res, post } = responder(1, false);
    expect(post.streaming).toBe(false);
    expect(post.send(progress)).toBe(true);
    expect(post.streaming).toBe(true);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['mcp-session-id']).toBe('sid-1');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.chunks).toEqual([frame(progress, 'p1-1')]);
    expect(res.writableEnded).toBe(false);

    post.send(log);
    post.respond(r1);
    expect(post.done).toBe(true);
    expect(res.chunks).toEqual([frame(progress, 'p1-1'), frame(log, 'p1-2'), frame(r1, 'p1-3')]);
    expect(res.writableEnded).toBe(true);
  });

  it('re-sends responses already collected, then the related message, then later responses', () => {
    const { res, post } = responder(3, true);
    post.respond(r1);
    post.respond(failure);
    expect(res.headersSent).toBe(false);
    post.send(progress);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.chunks).toEqual([frame(r1, 'p1-1'), frame(failure, 'p1-2'), frame(progress, 'p1-3')]);
    expect(res.writableEnded).toBe(false);
    post.respond(r2);
    expect(res.chunks).toEqual([frame(r1, 'p1-1'), frame(failure, 'p1-2'), frame(progress, 'p1-3'), frame(r2, 'p1-4')]);
    expect(res.writableEnded).toBe(true);
  });

  it('sends each collected response once, however many related messages follow', () => {
    const { res, post } = responder(2, true);
    post.respond(r1);
    post.send(progress);
    post.send(log);
    post.respond(r2);
    expect(res.chunks).toEqual([frame(r1, 'p1-1'), frame(progress, 'p1-2'), frame(log, 'p1-3'), frame(r2, 'p1-4')]);
  });

  it('writes nothing after the last response on the stream', () => {
    const { res, post } = responder(1, false);
    post.send(progress);
    post.respond(r1);
    const chunks = [...res.chunks];
    expect(post.send(log)).toBe(false);
    post.respond(r2);
    expect(res.chunks).toEqual(chunks);
  });

  it('keeps the stream alive with comments until the last response, and leaves no timer behind', () => {
    jest.useFakeTimers();
    const { res, post } = responder(1, false, 1_000);
    post.send(progress);
    jest.advanceTimersByTime(1_000);
    expect(res.chunks).toEqual([frame(progress, 'p1-1'), ': keep-alive\n\n']);
    post.respond(r1);
    expect(jest.getTimerCount()).toBe(0);
    expect(res.chunks.at(-1)).toBe(frame(r1, 'p1-2'));
  });
});

describe('PostResponder on a real ServerResponse', () => {
  const server = useResponseServer();

  function post(): Promise<{ res: IncomingMessage; body: string }> {
    return new Promise((resolve, reject) => {
      httpRequest({ host: '127.0.0.1', port: server.port, path: '/', method: 'POST' }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ res, body: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      })
        .on('error', reject)
        .end(JSON.stringify(requestMessage(1, 'tools/call')));
    });
  }

  // BUG (src/http/responses/post-responder.ts, switchToStream): closeConnection detaches the connection,
  // which completes it; once its socket closes, pumpToConnection takes that for "the stream was
  // delivered in full" and onDelivered deletes the stream's kept events, including what the call sent
  // after the close (here its very result). Remove `.failing` once fixed.
  it('keeps for the resume what follows closeConnection, once the closed connection is gone', async () => {
    const { session } = makeSession('2025-11-25');
    let gone: Promise<void> = Promise.resolve();
    server.handle = (res) => {
      const responder = new PostResponder(res, session, 1, false, SESSION, SETTINGS);
      gone = new Promise((resolve) => res.once('close', () => setImmediate(resolve)));
      responder.send(progress); // p1-2
      expect(responder.closeConnection()).toBe(true);
      // The call goes on: this waits in the store for the client's Last-Event-ID.
      responder.send(log); // p1-3
      responder.respond(r1); // p1-4
    };
    const { body } = await post();
    expect(body).toBe(priming('p1-1') + frame(progress, 'p1-2') + 'retry: 1000\n\n');
    await gone;
    // The client saw p1-2 and nothing after it: the closed connection delivered nothing of the rest.
    const kept = await session.streams.stored('p1', 2);
    expect(kept.map((event) => JSON.parse(event.data) as unknown)).toEqual([log, r1]);
  });

  it('sends a JSON answer whose content-length matches the bytes on the wire', async () => {
    server.handle = (res) => new PostResponder(res, makeSession().session, 1, false, SESSION, SETTINGS).respond(r1);
    const { res, body } = await post();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['mcp-session-id']).toBe('sid-1');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body)).toEqual(r1);
  });

  it('sends an event stream that ends after the last response, then forgets its kept events', async () => {
    const { session, store } = makeSession();
    server.handle = (res) => {
      const responder = new PostResponder(res, session, 2, true, SESSION, SETTINGS);
      responder.respond(r1);
      responder.send(progress);
      setTimeout(() => responder.respond(r2), 10);
    };
    const { res, body } = await post();
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['mcp-session-id']).toBe('sid-1');
    expect(body).toBe(frame(r1, 'p1-1') + frame(progress, 'p1-2') + frame(r2, 'p1-3'));
    // The client got all of it: a resume could only replay what it has, so the store lets it go.
    for (let i = 0; i < 50 && store.size > 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(store.size).toBe(0);
  });

  it('opens the stream with a priming event on a 2025-11-25 session', async () => {
    const { session } = makeSession('2025-11-25');
    server.handle = (res) => {
      const responder = new PostResponder(res, session, 1, false, SESSION, SETTINGS);
      responder.send(progress);
      setTimeout(() => responder.respond(r1), 5);
    };
    const { body } = await post();
    expect(body).toBe(priming('p1-1') + frame(progress, 'p1-2') + frame(r1, 'p1-3'));
  });
});

describe('PostResponder with a response that cannot be serialised', () => {
  const internal = (id: string | number) => ({
    jsonrpc: '2.0',
    id,
    error: { code: -32603, message: 'Internal error' },
  });
  const cyclic = (): Record<string, unknown> => {
    const value: Record<string, unknown> = {};
    value.self = value;
    return value;
  };

  function withCallback(expected: number, batch: boolean) {
    const res = new FakeServerResponse();
    const onUnserializable = jest.fn<(error: unknown, response: unknown) => void>();
    const post = new PostResponder(asServerResponse(res), makeSession().session, expected, batch, SESSION, {
      ...SETTINGS,
      onUnserializable,
    });
    return { res, post, onUnserializable };
  }

  it('tells onUnserializable (error and response) and answers -32603 for that id, as valid JSON', () => {
    const { res, post, onUnserializable } = withCallback(1, false);
    const bad = successResponse('bad-1', { structuredContent: { n: 1n } });
    post.respond(bad);
    expect(post.done).toBe(true);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['content-length']).toBe(Buffer.byteLength(res.body));
    expect(JSON.parse(res.body)).toEqual(internal('bad-1'));
    expect(onUnserializable).toHaveBeenCalledTimes(1);
    const [error, response] = onUnserializable.mock.calls[0]!;
    expect(error).toBeInstanceOf(TypeError);
    expect(response).toBe(bad);
    expect(res.writableEnded).toBe(true);
  });

  it('keeps the other answers of a batch, in order', () => {
    const { res, post, onUnserializable } = withCallback(3, true);
    post.respond(r1);
    post.respond(successResponse(2, { structuredContent: cyclic() }));
    post.respond(r2);
    expect(JSON.parse(res.body)).toEqual([r1, internal(2), r2]);
    expect(onUnserializable).toHaveBeenCalledTimes(1);
  });

  it('answers -32603 on the event stream too, once it switched', () => {
    const { res, post, onUnserializable } = withCallback(2, true);
    post.send(progress);
    post.respond(successResponse(9, { n: 1n }));
    post.respond(r1);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.chunks).toEqual([
      frame(progress, 'p1-1'),
      `id: p1-2\nevent: message\ndata: ${JSON.stringify(internal(9))}\n\n`,
      frame(r1, 'p1-3'),
    ]);
    expect(onUnserializable).toHaveBeenCalledTimes(1);
    expect(res.writableEnded).toBe(true);
  });

  it('answers -32603 without a callback too', () => {
    const res = new FakeServerResponse();
    new PostResponder(asServerResponse(res), makeSession().session, 1, false, SESSION, SETTINGS).respond(
      successResponse(3, { n: 1n }),
    );
    expect(JSON.parse(res.body)).toEqual(internal(3));
  });

  it('does not call onUnserializable for good responses', () => {
    const { post, onUnserializable } = withCallback(2, true);
    post.respond(r1);
    post.respond(failure);
    expect(onUnserializable).not.toHaveBeenCalled();
  });
});

describe('PostResponder and the session stream', () => {
  afterEach(() => {
    jest.useRealTimers();
  });

  it('stays JSON as long as nothing but responses is sent', () => {
    const { res, post, session } = responder(2, true, 0, '2025-11-25');
    post.respond(r1);
    post.respond(r2);
    expect(post.streaming).toBe(false);
    expect(res.headers['content-type']).toBe('application/json');
    expect(JSON.parse(res.body)).toEqual([r1, r2]);
    // No stream was opened: the next one is still p1.
    expect(session.streams.openPostStream().id).toBe('p1');
  });

  it('opens with a priming event on a 2025-11-25 session, before anything else', () => {
    const { res, post } = responder(2, true, 0, '2025-11-25');
    post.respond(r1);
    post.send(progress);
    post.respond(r2);
    expect(res.chunks).toEqual([priming('p1-1'), frame(r1, 'p1-2'), frame(progress, 'p1-3'), frame(r2, 'p1-4')]);
  });

  it('never primes on an older session', () => {
    for (const version of ['2025-06-18', '2025-03-26'] as const) {
      const { res, post } = responder(1, false, 0, version);
      post.send(progress);
      post.respond(r1);
      expect(res.chunks).toEqual([frame(progress, 'p1-1'), frame(r1, 'p1-2')]);
    }
  });

  it('gives each POST of the session its own stream id', () => {
    const { session } = makeSession();
    const first = new FakeServerResponse();
    const second = new FakeServerResponse();
    const one = new PostResponder(asServerResponse(first), session, 1, false, SESSION, SETTINGS);
    const two = new PostResponder(asServerResponse(second), session, 1, false, SESSION, SETTINGS);
    one.send(progress);
    two.send(log);
    one.respond(r1);
    two.respond(r2);
    expect(first.chunks).toEqual([frame(progress, 'p1-1'), frame(r1, 'p1-3')]);
    expect(second.chunks).toEqual([frame(log, 'p2-2'), frame(r2, 'p2-4')]);
  });

  it.each(['2025-06-18', '2025-11-25'] as const)(
    'answers an event stream without events when every request was cancelled (%s: no priming either)',
    (version) => {
      const { res, post } = responder(2, true, 0, version);
      post.respond(undefined);
      expect(res.headersSent).toBe(false);
      post.respond(undefined);
      expect(post.done).toBe(true);
      expect(res.statusCode).toBe(200);
      expect(res.headers['content-type']).toBe('text/event-stream');
      expect(res.headers['mcp-session-id']).toBe('sid-1');
      expect(res.chunks).toEqual([]);
      expect(res.writableEnded).toBe(true);
    },
  );

  it('leaves a cancelled request out of a batch answer', () => {
    const { res, post } = responder(3, true);
    post.respond(r1);
    post.respond(undefined);
    post.respond(r2);
    expect(res.statusCode).toBe(200);
    expect(JSON.parse(res.body)).toEqual([r1, r2]);
  });

  it('ends the stream without a response for a cancelled request that owed the last one', () => {
    const { res, post } = responder(1, false);
    post.send(progress);
    post.respond(undefined);
    expect(res.chunks).toEqual([frame(progress, 'p1-1')]);
    expect(res.writableEnded).toBe(true);
  });

  it('sends nothing once the session ended, and its stream ends', () => {
    const { res, post, session } = responder(1, false);
    post.send(progress);
    session.end('deleted');
    expect(res.writableEnded).toBe(true);
    expect(post.send(log)).toBe(false);
    const ended = responder(1, false);
    ended.session.end('deleted');
    expect(ended.post.send(progress)).toBe(false);
    expect(ended.res.headersSent).toBe(false);
  });

  it('drops a message that cannot be serialised without switching to a stream, and tells the settings', () => {
    const res = new FakeServerResponse();
    const onUnserializableMessage = jest.fn<(message: JsonRpcMessage) => void>();
    const post = new PostResponder(asServerResponse(res), makeSession().session, 1, false, SESSION, {
      ...SETTINGS,
      onUnserializableMessage,
    });
    const bad = notificationMessage('notifications/message', { level: 'info', data: 1n as unknown as number });
    expect(post.send(bad)).toBe(false);
    expect(onUnserializableMessage).toHaveBeenCalledWith(bad);
    expect(post.streaming).toBe(false);
    post.respond(r1);
    expect(res.headers['content-type']).toBe('application/json');
  });

  it('counts what the socket holds back against the session’s outbox', () => {
    const res = new FakeServerResponse(1);
    const { session } = makeSession('2025-06-18', 2);
    const post = new PostResponder(asServerResponse(res), session, 1, false, SESSION, SETTINGS);
    post.send(progress); // written, and the socket is full
    post.send(log); // held back: 1
    post.send(log); // 2
    expect(session.ended).toBe(false);
    post.send(log); // 3 > 2
    expect(session.endedBecause).toBe('overflow');
  });
});

describe('PostResponder.closeConnection (SSE polling)', () => {
  it('writes retry with the configured delay and ends the connection; the stream goes on in the store', async () => {
    const { res, post, session } = responder(2, true, 0, '2025-11-25');
    post.respond(r1);
    expect(post.closeConnection()).toBe(true);
    expect(res.chunks).toEqual([priming('p1-1'), frame(r1, 'p1-2'), 'retry: 1000\n\n']);
    expect(res.writableEnded).toBe(true);
    expect(post.done).toBe(false);

    // What follows is kept for the client's return with Last-Event-ID.
    expect(post.send(progress)).toBe(true);
    post.respond(r2);
    expect(post.done).toBe(true);
    expect(res.chunks).toHaveLength(3);
    const replayed = await resumed(session, 'p1', 2);
    expect(replayed.map((event) => [event.seq, JSON.parse(event.data)])).toEqual([
      [3, progress],
      [4, r2],
    ]);
  });

  it('switches a JSON answer to a stream to close it, and takes the delay it is given', () => {
    const { res, post } = responder(1, false, 0, '2025-11-25');
    expect(post.closeConnection(250)).toBe(true);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.chunks).toEqual([priming('p1-1'), 'retry: 250\n\n']);
    expect(res.writableEnded).toBe(true);
  });

  it('does nothing a second time: no connection is attached any more', () => {
    const { res, post } = responder(1, false, 0, '2025-11-25');
    post.closeConnection();
    const chunks = [...res.chunks];
    expect(post.closeConnection()).toBe(false);
    expect(res.chunks).toEqual(chunks);
  });

  it('a resume while the calls run gets what came after, live, and the end', async () => {
    const { post, session } = responder(1, false, 0, '2025-11-25');
    post.send(progress); // p1-2 after the priming p1-1
    post.closeConnection();
    post.send(log); // p1-3, stored
    const events: McpStoredEvent[] = [];
    let completed = false;
    const live = session.streams.resume('p1', 2);
    expect(live).toBeDefined();
    live!.subscribe({ next: (event) => events.push(event), complete: () => (completed = true) });
    await new Promise((resolve) => setImmediate(resolve));
    post.respond(r1);
    expect(events.map((event) => [event.seq, JSON.parse(event.data)])).toEqual([
      [3, log],
      [4, r1],
    ]);
    expect(completed).toBe(true);
  });

  it('tells a connection that resumed the stream when to come back, and ends that connection', async () => {
    const { res, post, session } = responder(1, false, 0, '2025-11-25');
    post.send(progress);
    post.closeConnection(100);
    const written = [...res.chunks];
    const events: StreamEvent[] = [];
    let completed = false;
    session.streams
      .resume('p1', 2)!
      .subscribe({ next: (event) => events.push(event), complete: () => (completed = true) });
    await new Promise((resolve) => setImmediate(resolve));
    expect(post.closeConnection(300)).toBe(true);
    expect(events).toEqual([expect.objectContaining({ streamId: 'p1', retry: 300 })]);
    expect(completed).toBe(true);
    // The POST's own connection, long gone, got nothing more.
    expect(res.chunks).toEqual(written);
  });

  it.each(['2025-06-18', '2025-03-26', '2024-11-05'] as const)(
    'returns false on a %s session and leaves the answer as it was',
    (version) => {
      const { res, post } = responder(1, false, 0, version);
      expect(post.closeConnection(100)).toBe(false);
      expect(post.streaming).toBe(false);
      expect(res.headersSent).toBe(false);
      post.respond(r1);
      expect(res.headers['content-type']).toBe('application/json');
    },
  );

  it('returns false once every response went out, or the session ended', () => {
    const done = responder(1, false, 0, '2025-11-25');
    done.post.respond(r1);
    expect(done.post.closeConnection()).toBe(false);
    const ended = responder(1, false, 0, '2025-11-25');
    ended.session.end('deleted');
    expect(ended.post.closeConnection()).toBe(false);
    expect(ended.res.headersSent).toBe(false);
  });

  it('returns false when the connection was gone before the stream could open', () => {
    const { res, post } = responder(1, false, 0, '2025-11-25');
    res.destroy();
    expect(post.closeConnection()).toBe(false);
    expect(res.chunks).toEqual([]);
  });
});
