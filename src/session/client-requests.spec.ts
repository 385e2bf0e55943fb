import { jest } from '@jest/globals';
import { getEventListeners } from 'node:events';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import type { JsonRpcMessage } from '../protocol/json-rpc.types.js';
import { ClientRequests, type ClientRequestOptions } from './client-requests.js';

const abortListeners = (signal: AbortSignal): number => getEventListeners(signal, 'abort').length;

/** What the requests put on their stream; `accept` decides whether the stream takes it. */
function channel(accept = true): { sent: JsonRpcMessage[]; send: ClientRequestOptions['send'] } {
  const sent: JsonRpcMessage[] = [];
  return {
    sent,
    send: (message) => {
      sent.push(message);
      return accept;
    },
  };
}

/** Settles a promise's outcome into a value a test can inspect synchronously after a flush. */
function outcome<T>(promise: Promise<T>): { value?: T; error?: unknown; settled: () => boolean } {
  const box: { value?: T; error?: unknown; done: boolean } = { done: false };
  promise.then(
    (value) => {
      box.value = value;
      box.done = true;
    },
    (error: unknown) => {
      box.error = error;
      box.done = true;
    },
  );
  return Object.assign(box, { settled: () => box.done });
}

const flush = async (): Promise<void> => {
  for (let i = 0; i < 5; i++) await Promise.resolve();
};

describe('ClientRequests', () => {
  beforeEach(() => {
    jest.useFakeTimers();
  });

  afterEach(() => {
    jest.useRealTimers();
  });

  it('sends a request with a server-side id and resolves with the result the client answers', async () => {
    const requests = new ClientRequests();
    const { sent, send } = channel();
    const pending = requests.request('roots/list', {}, { send, timeoutMs: 1_000 });
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 'mcp42-1', method: 'roots/list', params: {} }]);
    expect(requests.size).toBe(1);
    expect(jest.getTimerCount()).toBe(1);

    expect(requests.settle({ jsonrpc: '2.0', id: 'mcp42-1', result: { roots: [] } })).toBe(true);
    await expect(pending).resolves.toEqual({ roots: [] });
    expect(requests.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
    // Answered once only: a repeat finds nothing waiting.
    expect(requests.settle({ jsonrpc: '2.0', id: 'mcp42-1', result: { roots: [] } })).toBe(false);
  });

  it('numbers requests and settles each by its own id, whatever the order of the answers', async () => {
    const requests = new ClientRequests();
    const { sent, send } = channel();
    const first = requests.request('a', { n: 1 }, { send, timeoutMs: 1_000 });
    const second = requests.request('b', { n: 2 }, { send, timeoutMs: 1_000 });
    expect(sent.map((message) => ('id' in message ? message.id : undefined))).toEqual(['mcp42-1', 'mcp42-2']);
    expect(requests.settle({ jsonrpc: '2.0', id: 'mcp42-2', result: { which: 2 } })).toBe(true);
    expect(requests.size).toBe(1);
    expect(requests.settle({ jsonrpc: '2.0', id: 'mcp42-1', result: { which: 1 } })).toBe(true);
    await expect(first).resolves.toEqual({ which: 1 });
    await expect(second).resolves.toEqual({ which: 2 });
  });

  it('keeps ids apart between two sessions’ tables only by instance (each starts at 1)', () => {
    const one = new ClientRequests();
    const two = new ClientRequests();
    const a = channel();
    const b = channel();
    void one.request('x', {}, { send: a.send, timeoutMs: 1_000 }).catch(() => undefined);
    void two.request('x', {}, { send: b.send, timeoutMs: 1_000 }).catch(() => undefined);
    expect(two.settle({ jsonrpc: '2.0', id: 'mcp42-1', result: {} })).toBe(true);
    expect(one.size).toBe(1);
    one.rejectAll(new Error('cleanup'));
  });

  it('rejects with McpClientRequestError carrying the client’s code, message and data', async () => {
    const requests = new ClientRequests();
    const { send } = channel();
    const pending = outcome(requests.request('elicitation/create', {}, { send, timeoutMs: 1_000 }));
    expect(
      requests.settle({
        jsonrpc: '2.0',
        id: 'mcp42-1',
        error: { code: -1, message: 'User rejected the request', data: { why: 'busy' } },
      }),
    ).toBe(true);
    await flush();
    expect(pending.error).toBeInstanceOf(McpClientRequestError);
    // A tool that lets it escape fails with an isError result, not an internal error.
    expect(pending.error).toBeInstanceOf(McpToolError);
    const error = pending.error as McpClientRequestError;
    expect(error.code).toBe(-1);
    expect(error.data).toEqual({ why: 'busy' });
    expect(error.message).toBe('The client refused the request: User rejected the request');
    expect(requests.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('returns false for answers nobody waits for, and leaves the waiting ones alone', () => {
    const requests = new ClientRequests();
    const { send } = channel();
    void requests.request('roots/list', {}, { send, timeoutMs: 1_000 }).catch(() => undefined);
    expect(requests.settle({ jsonrpc: '2.0', id: 'mcp42-9', result: {} })).toBe(false);
    expect(requests.settle({ jsonrpc: '2.0', id: 1, result: {} })).toBe(false);
    expect(requests.settle({ jsonrpc: '2.0', id: null, error: { code: -32700, message: 'Parse error' } })).toBe(false);
    expect(requests.size).toBe(1);
    requests.rejectAll(new Error('cleanup'));
  });

  it('gives up after timeoutMs: rejects with -32001 and withdraws the request with notifications/cancelled', async () => {
    const requests = new ClientRequests();
    const { sent, send } = channel();
    const pending = outcome(requests.request('sampling/createMessage', {}, { send, timeoutMs: 500 }));
    jest.advanceTimersByTime(499);
    await flush();
    expect(pending.settled()).toBe(false);
    jest.advanceTimersByTime(1);
    await flush();
    expect(pending.error).toBeInstanceOf(McpClientRequestError);
    expect((pending.error as McpClientRequestError).code).toBe(-32001);
    expect((pending.error as Error).message).toBe('The client did not answer sampling/createMessage within 500 ms');
    expect(sent).toEqual([
      { jsonrpc: '2.0', id: 'mcp42-1', method: 'sampling/createMessage', params: {} },
      {
        jsonrpc: '2.0',
        method: 'notifications/cancelled',
        params: { requestId: 'mcp42-1', reason: 'no answer within 500 ms' },
      },
    ]);
    expect(requests.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
    // A late answer is ignored.
    expect(requests.settle({ jsonrpc: '2.0', id: 'mcp42-1', result: {} })).toBe(false);
  });

  it('does not keep the process alive with its timer', () => {
    jest.useRealTimers();
    const spy = jest.spyOn(globalThis, 'setTimeout');
    try {
      const requests = new ClientRequests();
      void requests.request('roots/list', {}, { send: channel().send, timeoutMs: 60_000 }).catch(() => undefined);
      const timer = spy.mock.results[0]!.value as NodeJS.Timeout;
      expect(timer.hasRef()).toBe(false);
      requests.rejectAll(new Error('cleanup'));
    } finally {
      spy.mockRestore();
    }
  });

  it('gives up when the signal aborts: rejects with its reason and withdraws the request', async () => {
    const requests = new ClientRequests();
    const { sent, send } = channel();
    const controller = new AbortController();
    const pending = outcome(
      requests.request('elicitation/create', { message: 'hi' }, { send, timeoutMs: 1_000, signal: controller.signal }),
    );
    expect(abortListeners(controller.signal)).toBe(1);
    const reason = new Error('the call was cancelled');
    controller.abort(reason);
    await flush();
    expect(pending.error).toBe(reason);
    expect(sent.at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'mcp42-1', reason: 'the call that sent this request was cancelled' },
    });
    expect(sent).toHaveLength(2);
    expect(requests.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
    expect(abortListeners(controller.signal)).toBe(0);
    // The timer was cleared: nothing more is sent when it would have fired.
    jest.advanceTimersByTime(5_000);
    expect(sent).toHaveLength(2);
  });

  it('does not send a request whose signal aborted already', async () => {
    const requests = new ClientRequests();
    const { sent, send } = channel();
    const controller = new AbortController();
    const reason = new Error('gone before asking');
    controller.abort(reason);
    await expect(
      requests.request('roots/list', {}, { send, timeoutMs: 1_000, signal: controller.signal }),
    ).rejects.toBe(reason);
    expect(sent).toEqual([]);
    expect(requests.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
    expect(abortListeners(controller.signal)).toBe(0);
  });

  it('fails at once, leaving nothing behind, when the request cannot be sent', async () => {
    const requests = new ClientRequests();
    const { sent, send } = channel(false);
    const controller = new AbortController();
    const pending = outcome(requests.request('roots/list', {}, { send, timeoutMs: 1_000, signal: controller.signal }));
    await flush();
    expect(pending.error).toBeInstanceOf(McpClientRequestError);
    expect((pending.error as McpClientRequestError).code).toBe(-32000);
    expect((pending.error as Error).message).toBe('roots/list could not be sent: the session is closed');
    expect(sent).toHaveLength(1);
    expect(requests.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
    expect(abortListeners(controller.signal)).toBe(0);
    // Nothing to withdraw later either.
    controller.abort(new Error('late'));
    jest.advanceTimersByTime(5_000);
    expect(sent).toHaveLength(1);
  });

  it('rejectAll fails every waiting request with the error and leaves no timer or listener', async () => {
    const requests = new ClientRequests();
    const { sent, send } = channel();
    const controller = new AbortController();
    const a = outcome(requests.request('a', {}, { send, timeoutMs: 1_000, signal: controller.signal }));
    const b = outcome(requests.request('b', {}, { send, timeoutMs: 2_000 }));
    expect(jest.getTimerCount()).toBe(2);
    const error = new Error('session ended');
    requests.rejectAll(error);
    await flush();
    expect(a.error).toBe(error);
    expect(b.error).toBe(error);
    expect(requests.size).toBe(0);
    expect(jest.getTimerCount()).toBe(0);
    expect(abortListeners(controller.signal)).toBe(0);
    // The session is gone: nothing is withdrawn on the wire.
    expect(sent).toHaveLength(2);
    controller.abort(new Error('late'));
    expect(sent).toHaveLength(2);
  });

  it('leaves no listener on a long-lived signal after many answered requests', async () => {
    const requests = new ClientRequests();
    const { send } = channel();
    const controller = new AbortController();
    for (let n = 1; n <= 20; n++) {
      const pending = requests.request('roots/list', {}, { send, timeoutMs: 1_000, signal: controller.signal });
      expect(abortListeners(controller.signal)).toBe(1);
      requests.settle({ jsonrpc: '2.0', id: `mcp42-${n}`, result: { roots: [] } });
      await pending;
      expect(abortListeners(controller.signal)).toBe(0);
    }
    expect(jest.getTimerCount()).toBe(0);
  });

  it('an abort after the answer changes nothing', async () => {
    const requests = new ClientRequests();
    const { sent, send } = channel();
    const controller = new AbortController();
    const pending = requests.request('roots/list', {}, { send, timeoutMs: 1_000, signal: controller.signal });
    requests.settle({ jsonrpc: '2.0', id: 'mcp42-1', result: { roots: [] } });
    controller.abort(new Error('late'));
    await expect(pending).resolves.toEqual({ roots: [] });
    expect(sent).toHaveLength(1);
  });

  it('refuses a request past maxWaiting with -32000, sending nothing, and takes one again once an answer came', async () => {
    const requests = new ClientRequests('mcp42-', 2);
    const { sent, send } = channel();
    const first = requests.request('roots/list', {}, { send, timeoutMs: 1_000 });
    const second = requests.request('roots/list', {}, { send, timeoutMs: 1_000 });
    const refused = requests.request('roots/list', {}, { send, timeoutMs: 1_000 });
    await expect(refused).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining('limits.outboxMessages'),
    });
    await expect(refused).rejects.toBeInstanceOf(McpClientRequestError);
    expect(sent).toHaveLength(2);
    expect(requests.size).toBe(2);
    expect(jest.getTimerCount()).toBe(2);

    requests.settle({ jsonrpc: '2.0', id: 'mcp42-1', result: { roots: [] } });
    await first;
    const third = requests.request('roots/list', {}, { send, timeoutMs: 1_000 });
    expect(sent).toHaveLength(3);
    requests.rejectAll(new Error('ended'));
    await expect(second).rejects.toThrow('ended');
    await expect(third).rejects.toThrow('ended');
  });
});
