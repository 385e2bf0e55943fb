import { jest } from '@jest/globals';
import { request as httpRequest, type IncomingMessage } from 'node:http';
import { asServerResponse, FakeServerResponse } from '../../test/utils/fake-server-response.js';
import { useResponseServer } from '../../test/utils/response-server.js';
import { errorResponse, invalidRequest } from '../protocol/json-rpc.errors.js';
import { notificationMessage, requestMessage, successResponse } from '../protocol/json-rpc.codec.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.types.js';
import { PostResponder } from './post-responder.js';

const frame = (message: JsonRpcMessage): string => `event: message\ndata: ${JSON.stringify(message)}\n\n`;
const SESSION = { 'mcp-session-id': 'sid-1' };

const r1 = successResponse(1, { content: [{ type: 'text', text: 'héllo ☀' }] });
const r2 = successResponse('two', {});
const failure = errorResponse(null, invalidRequest('jsonrpc must be "2.0"'));
const progress = notificationMessage('notifications/progress', { progressToken: 't', progress: 1 });
const log = notificationMessage('notifications/message', { level: 'info', data: 'x' });

function responder(
  expected: number,
  batch: boolean,
  keepAliveMs = 0,
): { res: FakeServerResponse; post: PostResponder } {
  const res = new FakeServerResponse();
  return { res, post: new PostResponder(asServerResponse(res), expected, batch, SESSION, keepAliveMs) };
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
    expect(() => post.sendRelated(progress)).not.toThrow();
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
    post.sendRelated(progress);
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['mcp-session-id']).toBe('sid-1');
    expect(res.headers['content-length']).toBeUndefined();
    expect(res.chunks).toEqual([frame(progress)]);
    expect(res.writableEnded).toBe(false);

    post.sendRelated(log);
    post.respond(r1);
    expect(post.done).toBe(true);
    expect(res.chunks).toEqual([frame(progress), frame(log), frame(r1)]);
    expect(res.writableEnded).toBe(true);
  });

  it('re-sends responses already collected, then the related message, then later responses', () => {
    const { res, post } = responder(3, true);
    post.respond(r1);
    post.respond(failure);
    expect(res.headersSent).toBe(false);
    post.sendRelated(progress);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.chunks).toEqual([frame(r1), frame(failure), frame(progress)]);
    expect(res.writableEnded).toBe(false);
    post.respond(r2);
    expect(res.chunks).toEqual([frame(r1), frame(failure), frame(progress), frame(r2)]);
    expect(res.writableEnded).toBe(true);
  });

  it('sends each collected response once, however many related messages follow', () => {
    const { res, post } = responder(2, true);
    post.respond(r1);
    post.sendRelated(progress);
    post.sendRelated(log);
    post.respond(r2);
    expect(res.chunks).toEqual([frame(r1), frame(progress), frame(log), frame(r2)]);
  });

  it('writes nothing after the last response on the stream', () => {
    const { res, post } = responder(1, false);
    post.sendRelated(progress);
    post.respond(r1);
    const chunks = [...res.chunks];
    post.sendRelated(log);
    post.respond(r2);
    expect(res.chunks).toEqual(chunks);
  });

  it('keeps the stream alive with comments until the last response, and leaves no timer behind', () => {
    jest.useFakeTimers();
    const { res, post } = responder(1, false, 1_000);
    post.sendRelated(progress);
    jest.advanceTimersByTime(1_000);
    expect(res.chunks).toEqual([frame(progress), ': keep-alive\n\n']);
    post.respond(r1);
    expect(jest.getTimerCount()).toBe(0);
    expect(res.chunks.at(-1)).toBe(frame(r1));
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

  it('sends a JSON answer whose content-length matches the bytes on the wire', async () => {
    server.handle = (res) => new PostResponder(res, 1, false, SESSION, 0).respond(r1);
    const { res, body } = await post();
    expect(res.statusCode).toBe(200);
    expect(res.headers['content-type']).toBe('application/json');
    expect(res.headers['mcp-session-id']).toBe('sid-1');
    expect(Number(res.headers['content-length'])).toBe(Buffer.byteLength(body));
    expect(JSON.parse(body)).toEqual(r1);
  });

  it('sends an event stream that ends after the last response', async () => {
    server.handle = (res) => {
      const responder = new PostResponder(res, 2, true, SESSION, 0);
      responder.respond(r1);
      responder.sendRelated(progress);
      setTimeout(() => responder.respond(r2), 10);
    };
    const { res, body } = await post();
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.headers['mcp-session-id']).toBe('sid-1');
    expect(body).toBe(frame(r1) + frame(progress) + frame(r2));
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
    const post = new PostResponder(asServerResponse(res), expected, batch, SESSION, 0, onUnserializable);
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
    post.sendRelated(progress);
    post.respond(successResponse(9, { n: 1n }));
    post.respond(r1);
    expect(res.headers['content-type']).toBe('text/event-stream');
    expect(res.chunks).toEqual([
      frame(progress),
      `event: message\ndata: ${JSON.stringify(internal(9))}\n\n`,
      frame(r1),
    ]);
    expect(onUnserializable).toHaveBeenCalledTimes(1);
    expect(res.writableEnded).toBe(true);
  });

  it('answers -32603 without a callback too', () => {
    const res = new FakeServerResponse();
    new PostResponder(asServerResponse(res), 1, false, SESSION, 0).respond(successResponse(3, { n: 1n }));
    expect(JSON.parse(res.body)).toEqual(internal(3));
  });

  it('does not call onUnserializable for good responses', () => {
    const { post, onUnserializable } = withCallback(2, true);
    post.respond(r1);
    post.respond(failure);
    expect(onUnserializable).not.toHaveBeenCalled();
  });
});
