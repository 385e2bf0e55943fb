import { jest } from '@jest/globals';
import { request as httpRequest, type ClientRequest, type IncomingMessage } from 'node:http';
import { Subject } from 'rxjs';
import { asServerResponse, FakeServerResponse } from '../../../test/utils/fake-server-response.js';
import { useResponseServer } from '../../../test/utils/response-server.js';
import type { McpStoredEvent } from '../../interfaces/mcp-event-store.interface.js';
import { SseWriter } from './sse.writer.js';
import { pumpToConnection, type PumpHooks } from './stream-pump.js';

/**
 * A fake response that also knows when everything it was given left: Node sets `writableFinished`
 * once the last byte after `end()` was flushed, and only then emits 'finish' before 'close'.
 */
class FinishingResponse extends FakeServerResponse {
  writableFinished = false;

  override end(chunk?: string): this {
    super.end(chunk);
    if (!this.writableNeedDrain) this.writableFinished = true;
    return this;
  }

  /** The connection closes after an orderly end (as opposed to `destroy()`, the client going away). */
  close(): void {
    this.emit('close');
  }
}

function hooks(): { hooks: PumpHooks; delivered: jest.Mock<() => void>; closed: jest.Mock<() => void> } {
  const delivered = jest.fn<() => void>();
  const closed = jest.fn<() => void>();
  return { hooks: { onDelivered: delivered, onClose: closed }, delivered, closed };
}

function pumped(res: FakeServerResponse, given: PumpHooks = {}): Subject<McpStoredEvent> {
  const events = new Subject<McpStoredEvent>();
  const writer = new SseWriter(asServerResponse(res), 0);
  writer.open();
  pumpToConnection(events, writer, asServerResponse(res), given);
  return events;
}

describe('pumpToConnection', () => {
  it('writes a priming event as an id with empty data, and messages with their id', () => {
    const res = new FinishingResponse();
    const events = pumped(res);
    events.next({ streamId: 'g', seq: 1, data: '' });
    events.next({ streamId: 'g', seq: 2, data: '{"jsonrpc":"2.0","method":"a"}' });
    events.next({ streamId: 'p3', seq: 7, data: '{"jsonrpc":"2.0","id":1,"result":{}}' });
    expect(res.chunks).toEqual([
      'id: g-1\ndata: \n\n',
      'id: g-2\nevent: message\ndata: {"jsonrpc":"2.0","method":"a"}\n\n',
      'id: p3-7\nevent: message\ndata: {"jsonrpc":"2.0","id":1,"result":{}}\n\n',
    ]);
    expect(res.writableEnded).toBe(false);
  });

  it('writes a retry event as a lone retry field, and the stream goes on', () => {
    const res = new FinishingResponse();
    const events = pumped(res);
    events.next({ streamId: 'p1', seq: 4, data: '', retry: 250 } as McpStoredEvent);
    events.next({ streamId: 'p1', seq: 5, data: '{}' });
    expect(res.chunks).toEqual(['retry: 250\n\n', 'id: p1-5\nevent: message\ndata: {}\n\n']);
  });

  it('ends the response, without reporting delivery, when the stream errors (a catch-up that failed)', () => {
    const res = new FinishingResponse();
    const { hooks: given, delivered } = hooks();
    const events = pumped(res, given);
    events.next({ streamId: 'g', seq: 1, data: '{}' });
    events.error(new TypeError('bad replay'));
    expect(res.writableEnded).toBe(true);
    expect(res.endCalls).toBe(1);
    expect(delivered).not.toHaveBeenCalled();
  });

  it('ends the response when the stream completes', () => {
    const res = new FinishingResponse();
    const events = pumped(res);
    events.next({ streamId: 'p1', seq: 1, data: '{}' });
    events.complete();
    expect(res.writableEnded).toBe(true);
    expect(res.endCalls).toBe(1);
  });

  it('calls onDelivered, then onClose, when the stream completed and every byte left before the close', () => {
    const res = new FinishingResponse();
    const { hooks: given, delivered, closed } = hooks();
    const events = pumped(res, given);
    events.next({ streamId: 'p1', seq: 1, data: '{}' });
    events.complete();
    expect(delivered).not.toHaveBeenCalled();
    res.close();
    expect(delivered).toHaveBeenCalledTimes(1);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(delivered.mock.invocationCallOrder[0]!).toBeLessThan(closed.mock.invocationCallOrder[0]!);
  });

  it('does not call onDelivered when the connection closes before the stream completed', () => {
    const res = new FinishingResponse();
    const { hooks: given, delivered, closed } = hooks();
    const events = pumped(res, given);
    events.next({ streamId: 'g', seq: 1, data: '{}' });
    res.destroy();
    expect(delivered).not.toHaveBeenCalled();
    expect(closed).toHaveBeenCalledTimes(1);
    // The subscription ended with the connection: the stream goes on without it.
    expect(events.observed).toBe(false);
    events.next({ streamId: 'g', seq: 2, data: '{}' });
    events.complete();
    expect(res.chunks).toHaveLength(1);
    expect(delivered).not.toHaveBeenCalled();
  });

  it('does not call onDelivered when the stream completed but the client did not take it all', () => {
    const res = new FinishingResponse(1); // every write fills the socket
    const { hooks: given, delivered, closed } = hooks();
    const events = pumped(res, given);
    events.next({ streamId: 'p1', seq: 1, data: '{}' });
    events.next({ streamId: 'p1', seq: 2, data: '{}' }); // held back
    events.complete();
    res.destroy();
    expect(res.writableFinished).toBe(false);
    expect(delivered).not.toHaveBeenCalled();
    expect(closed).toHaveBeenCalledTimes(1);
  });

  it('unsubscribes at once, and reports the close, on a connection already gone', () => {
    const res = new FinishingResponse();
    res.destroy();
    const { hooks: given, delivered, closed } = hooks();
    const events = new Subject<McpStoredEvent>();
    pumpToConnection(events, new SseWriter(asServerResponse(res), 0), asServerResponse(res), given);
    expect(events.observed).toBe(false);
    expect(closed).toHaveBeenCalledTimes(1);
    expect(delivered).not.toHaveBeenCalled();
    expect(res.listenerCount('close')).toBe(0);
  });

  it('works without hooks', () => {
    const res = new FinishingResponse();
    const events = pumped(res);
    events.complete();
    expect(() => res.close()).not.toThrow();
  });
});

describe('pumpToConnection on a real ServerResponse', () => {
  const server = useResponseServer();
  let client: ClientRequest | undefined;

  afterEach(() => {
    client?.destroy();
    client = undefined;
  });

  function get(): Promise<IncomingMessage> {
    return new Promise((resolve, reject) => {
      client = httpRequest({ host: '127.0.0.1', port: server.port, path: '/', agent: false }, resolve);
      client.on('error', reject).end();
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

  it('delivers every event, ends, and reports delivery once the client got it all', async () => {
    const events = new Subject<McpStoredEvent>();
    const reported: string[] = [];
    let closed: () => void = () => undefined;
    const closedPromise = new Promise<void>((resolve) => (closed = resolve));
    server.handle = (res) => {
      const writer = new SseWriter(res, 0);
      writer.open();
      pumpToConnection(events, writer, res, {
        onDelivered: () => reported.push('delivered'),
        onClose: () => {
          reported.push('closed');
          closed();
        },
      });
      events.next({ streamId: 'p1', seq: 1, data: '' });
      events.next({ streamId: 'p1', seq: 2, data: '{"n":2}' });
      setTimeout(() => {
        events.next({ streamId: 'p1', seq: 3, data: '{"n":3}' });
        events.complete();
      }, 5);
    };
    const res = await get();
    expect(res.headers['content-type']).toBe('text/event-stream');
    const body = await readAll(res);
    expect(body).toBe(
      'id: p1-1\ndata: \n\n' +
        'id: p1-2\nevent: message\ndata: {"n":2}\n\n' +
        'id: p1-3\nevent: message\ndata: {"n":3}\n\n',
    );
    await closedPromise;
    expect(reported).toEqual(['delivered', 'closed']);
  });

  it('unsubscribes when the client disconnects, without reporting delivery', async () => {
    const events = new Subject<McpStoredEvent>();
    const reported: string[] = [];
    let closed: () => void = () => undefined;
    const closedPromise = new Promise<void>((resolve) => (closed = resolve));
    server.handle = (res) => {
      const writer = new SseWriter(res, 0);
      writer.open();
      pumpToConnection(events, writer, res, {
        onDelivered: () => reported.push('delivered'),
        onClose: () => {
          reported.push('closed');
          closed();
        },
      });
      events.next({ streamId: 'g', seq: 1, data: '{"n":1}' });
    };
    const res = await get();
    await new Promise<void>((resolve) => res.once('data', () => resolve()));
    expect(events.observed).toBe(true);
    client!.destroy();
    await closedPromise;
    expect(events.observed).toBe(false);
    expect(reported).toEqual(['closed']);
  });
});
