/**
 * What the server sends the client while a call runs, over real HTTP with raw requests: progress,
 * log messages, cancellation (and its races), timeouts, requests to the client (elicitation,
 * sampling, roots), which stream carries what, and the runtime tool registry's list_changed news.
 */
import { McpModule, McpSessionRegistry, McpToolRegistry } from '../../../src/index.js';
import { InteractionProbe, InteractionTools, RuntimeEchoArgs } from '../../fixtures/interaction.tools.js';
import { unmarked, useRawApp, type RawSession } from '../../utils/raw-http-client.js';
import type { HttpStream, RpcMessage } from '../../utils/sse-reader.js';
import { onlyText } from '../../utils/tool-results.js';
import { delay, nextTurn } from '../../utils/wait.js';
import { type ClientSession as McpSession } from '../../internals/index.js';

const CLIENT_REQUEST_TIMEOUT_MS = 300;

/** The text of the only content block of the tool result `message` carries. */
const resultText = (message: RpcMessage | undefined): string => onlyText(message?.result ?? {});

describe('server → client interaction over raw HTTP (e2e)', () => {
  // Ending the sessions after each test aborts whatever a failed test left running, and keeps later
  // list_changed counts exact.
  const app = useRawApp({
    imports: [
      McpModule.forRoot({
        name: 'interaction-e2e',
        version: '1.0.0',
        sessions: { clientRequestTimeoutMs: CLIENT_REQUEST_TIMEOUT_MS },
      }),
    ],
    providers: [InteractionTools, InteractionProbe],
  });
  const { client, syncGet } = app;
  let probe: InteractionProbe;
  /** The public registry, as host code reaches sessions. */
  let registry: McpSessionRegistry;

  beforeAll(() => {
    probe = app.get(InteractionProbe);
    registry = app.get(McpSessionRegistry);
  });

  afterEach(() => {
    probe.reset();
  });

  const initialize = (capabilities: object = {}, protocolVersion = '2025-06-18'): Promise<RawSession> =>
    client.initialize({ capabilities, protocolVersion });

  /** POSTs a message; resolves when the answer starts (JSON answers: when they are complete). */
  const post = (session: RawSession, body: unknown): Promise<HttpStream> => client.post(session, body);

  /** POSTs a message and reads the whole answer. */
  const send = (session: RawSession, body: unknown): Promise<HttpStream> => client.send(session, body);

  function call(
    session: RawSession,
    id: string | number,
    name: string,
    args: Record<string, unknown> = {},
    meta?: Record<string, unknown>,
  ): Promise<HttpStream> {
    const params = meta === undefined ? { name, arguments: args } : { name, arguments: args, _meta: meta };
    return post(session, { jsonrpc: '2.0', id, method: 'tools/call', params });
  }

  const cancel = (session: RawSession, requestId: unknown, reason?: string): Promise<HttpStream> =>
    send(session, {
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: reason === undefined ? { requestId } : { requestId, reason },
    });

  /** A POST whose every request was cancelled: an event stream that ends without events, not even a priming one. */
  function expectEmptyEventStream(res: HttpStream): void {
    expect(res.status).toBe(200);
    expect(res.headers['content-type']).toMatch(/^text\/event-stream\b/);
    expect(res.text).toBe('');
  }

  const ping = (session: RawSession, id: string | number = 'ping'): Promise<HttpStream> =>
    send(session, { jsonrpc: '2.0', id, method: 'ping' });

  const openGet = (session: RawSession): Promise<HttpStream> => client.openGet(session);

  const live = (session: RawSession): McpSession => app.live(session);

  const progressOf = (stream: HttpStream): Record<string, unknown>[] =>
    stream.withMethod('notifications/progress').map((message) => message.params!);

  describe('progress', () => {
    it('sends notifications/progress with a string token, every one before the result, on the POST stream', async () => {
      const session = await initialize();
      const res = await call(session, 1, 'progress_steps', { steps: 3 }, { progressToken: 'tok-1' });
      await res.untilEnd();

      expect(res.status).toBe(200);
      expect(res.isEventStream).toBe(true);
      expect(res.headers['mcp-session-id']).toBe(session.id);
      expect(res.messages.map((message) => message.method ?? `response ${String(message.id)}`)).toEqual([
        'notifications/progress',
        'notifications/progress',
        'notifications/progress',
        'response 1',
      ]);
      expect(progressOf(res)).toEqual([
        { progressToken: 'tok-1', progress: 1, total: 3, message: 'step 1' },
        { progressToken: 'tok-1', progress: 2, total: 3, message: 'step 2' },
        { progressToken: 'tok-1', progress: 3, total: 3, message: 'step 3' },
      ]);
      const [response] = res.responses;
      expect(response!.result!.isError).toBeUndefined();
      expect(resultText(response)).toBe('done after 3 steps (token "tok-1")');
      // Every event of a POST stream carries an id of that stream, for Last-Event-ID.
      expect(res.events.every((event) => /^p\d+-\d+$/.test(event.id ?? ''))).toBe(true);
    });

    it.each([42, 0, -1.5])('echoes the numeric progress token %p as a number', async (token) => {
      const session = await initialize();
      const res = await call(session, 'n', 'progress_steps', { steps: 2 }, { progressToken: token });
      await res.untilEnd();

      expect(res.isEventStream).toBe(true);
      expect(progressOf(res).map((params) => params.progressToken)).toEqual([token, token]);
      expect(res.responses.map((message) => message.id)).toEqual(['n']);
    });

    it('opens the POST stream of a 2025-11-25 session with a priming event, then gives every event an id', async () => {
      const session = await initialize({}, '2025-11-25');
      const res = await call(session, 1, 'progress_steps', { steps: 2 }, { progressToken: 'p' });
      await res.untilEnd();

      const [priming, ...rest] = res.events;
      expect(priming).toEqual({ id: expect.stringMatching(/^p\d+-\d+$/) as unknown, data: '' });
      expect(rest).toHaveLength(3);
      expect(rest.every((event) => event.event === 'message' && /^p\d+-\d+$/.test(event.id ?? ''))).toBe(true);
      expect(res.messages.map((message) => message.method ?? 'response')).toEqual([
        'notifications/progress',
        'notifications/progress',
        'response',
      ]);
    });

    it('sends no progress without a token, and the answer stays plain JSON', async () => {
      const session = await initialize();
      const res = await send(session, {
        jsonrpc: '2.0',
        id: 2,
        method: 'tools/call',
        params: { name: 'progress_steps', arguments: { steps: 3 } },
      });

      expect(res.status).toBe(200);
      expect(res.isJson).toBe(true);
      expect(JSON.parse(res.text)).toMatchObject({ jsonrpc: '2.0', id: 2, result: { content: [{ type: 'text' }] } });
      expect(resultText(res.messages[0])).toBe('done after 3 steps (token null)');
      expect((await probe.whenObserved({ tool: 'progress_steps', requestId: 2 })).sent).toEqual([false, false, false]);
    });

    it('answers with JSON when a call that has a token sends nothing, and switches to SSE only when it does', async () => {
      const session = await initialize();
      const quiet = await call(session, 'quiet', 'progress_steps', { steps: 0 }, { progressToken: 'unused' });
      await quiet.untilEnd();
      expect(quiet.isJson).toBe(true);
      expect(quiet.messages.map((message) => message.id)).toEqual(['quiet']);

      const chatty = await call(session, 'chatty', 'progress_steps', { steps: 1 }, { progressToken: 'used' });
      await chatty.untilEnd();
      expect(chatty.isEventStream).toBe(true);
      expect(chatty.messages.map((message) => message.method ?? 'response')).toEqual([
        'notifications/progress',
        'response',
      ]);
    });

    it('drops progress that does not grow (repeated, smaller, NaN)', async () => {
      const session = await initialize();
      const res = await call(session, 3, 'progress_steps', { steps: 3, regress: true }, { progressToken: 'r' });
      await res.untilEnd();

      expect(progressOf(res).map((params) => params.progress)).toEqual([1, 2, 3]);
      expect(progressOf(res).every((params) => params.message !== 'same again' && params.message !== 'backwards')).toBe(
        true,
      );
      const observed = await probe.whenObserved({ tool: 'progress_steps', requestId: 3 });
      expect(observed.sent).toEqual([true, false, false, false, true, false, false, false, true, false, false, false]);
    });

    it('sends nothing for a call once it has its result, on no stream', async () => {
      const session = await initialize();
      const get = await openGet(session);
      const res = await call(session, 4, 'progress_steps', { steps: 2, late: true }, { progressToken: 'late' });
      await res.untilEnd();
      expect(res.messages.at(-1)?.id).toBe(4);

      const late = await probe.whenObserved({ tool: 'progress_steps:late', requestId: 4 });
      expect(late.sent).toEqual([false, false]);
      await syncGet(session, get, 1);
      expect(unmarked(get)).toEqual([]);
      expect(progressOf(res).map((params) => params.progress)).toEqual([1, 2]);
    });
  });

  describe('logging', () => {
    it('declares the logging capability', async () => {
      const session = await initialize();
      expect(session.initializeResult.capabilities).toEqual({
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        logging: {},
      });
    });

    it('answers logging/setLevel with an empty result, and an unknown or missing level with -32602', async () => {
      const session = await initialize();
      const ok = await send(session, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'error' } });
      expect(ok.status).toBe(200);
      expect(JSON.parse(ok.text)).toEqual({ jsonrpc: '2.0', id: 1, result: {} });

      for (const params of [{ level: 'verbose' }, { level: 'INFO' }, { level: 3 }, {}]) {
        const bad = await send(session, { jsonrpc: '2.0', id: 2, method: 'logging/setLevel', params });
        expect(bad.status).toBe(200);
        expect(bad.messages[0]).toMatchObject({ jsonrpc: '2.0', id: 2, error: { code: -32602 } });
      }
      // The refused levels left the one set before in place.
      expect(live(session).logLevel).toBe('error');
    });

    it('sends info and above by default: debug is not sent before logging/setLevel', async () => {
      const session = await initialize();
      const res = await call(session, 1, 'log_levels');
      await res.untilEnd();

      expect(res.isEventStream).toBe(true);
      const logs = res.withMethod('notifications/message').map((message) => message.params!);
      expect(logs.map((params) => params.level)).toEqual([
        'info',
        'notice',
        'warning',
        'error',
        'critical',
        'alert',
        'emergency',
      ]);
      expect(logs[0]).toEqual({ level: 'info', logger: 'interaction', data: { text: 'info message' } });
      expect(resultText(res.responses[0])).toBe('info,notice,warning,error,critical,alert,emergency');
    });

    it('does not send messages below the level the client set', async () => {
      const session = await initialize();
      await send(session, { jsonrpc: '2.0', id: 1, method: 'logging/setLevel', params: { level: 'warning' } });
      const warning = await call(session, 2, 'log_levels');
      await warning.untilEnd();
      expect(warning.withMethod('notifications/message').map((message) => message.params!.level)).toEqual([
        'warning',
        'error',
        'critical',
        'alert',
        'emergency',
      ]);

      await send(session, { jsonrpc: '2.0', id: 3, method: 'logging/setLevel', params: { level: 'debug' } });
      const debug = await call(session, 4, 'log_levels');
      await debug.untilEnd();
      expect(debug.withMethod('notifications/message')).toHaveLength(8);
    });
  });

  describe('cancellation', () => {
    it('ignores a cancellation that arrives after the result: no error, the session goes on', async () => {
      const session = await initialize();
      const get = await openGet(session);
      const done = await send(session, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'progress_steps', arguments: { steps: 1 } },
      });
      expect(done.messages[0]!.result).toBeDefined();

      const late = await cancel(session, 1, 'too late');
      expect(late.status).toBe(202);
      expect(late.text).toBe('');
      const pong = await ping(session);
      expect(JSON.parse(pong.text)).toEqual({ jsonrpc: '2.0', id: 'ping', result: {} });
      await syncGet(session, get, 1);
      expect(unmarked(get)).toEqual([]);
    });

    it('ignores a cancellation of an id not running yet: a later call with that id runs normally', async () => {
      const session = await initialize();
      const early = await cancel(session, 7, 'before it started');
      expect(early.status).toBe(202);

      const res = await send(session, {
        jsonrpc: '2.0',
        id: 7,
        method: 'tools/call',
        params: { name: 'progress_steps', arguments: { steps: 1 } },
      });
      expect(res.status).toBe(200);
      expect(res.messages[0]).toMatchObject({ id: 7, result: { content: [{ type: 'text' }] } });
      expect(res.messages[0]!.result!.isError).toBeUndefined();
      expect((await probe.whenObserved({ tool: 'progress_steps', requestId: 7 })).aborted).toBe(false);
    });

    it('aborts a running call with kind "cancelled" and never answers it: the POST gets an empty event stream', async () => {
      const session = await initialize();
      const pending = call(session, 5, 'wait_for_cancel');
      await probe.whenStarted({ tool: 'wait_for_cancel', requestId: 5 });
      expect(live(session).isRunning(5)).toBe(true);

      expect((await cancel(session, 5, 'user clicked stop')).status).toBe(202);
      const observed = await probe.whenObserved({ tool: 'wait_for_cancel', requestId: 5 });
      expect(observed).toMatchObject({ aborted: true, reasonKind: 'cancelled' });
      expect(observed.reasonMessage).toContain('user clicked stop');

      const res = await pending;
      await res.untilEnd();
      expectEmptyEventStream(res);
      expect(live(session).runningCalls).toBe(0);
      expect((await ping(session)).status).toBe(200);
    });

    it('in a 2025-03-26 batch of two calls, answers only the call that was not cancelled', async () => {
      const session = await initialize({}, '2025-03-26');
      const pending = post(session, [
        { jsonrpc: '2.0', id: 'a', method: 'tools/call', params: { name: 'wait_for_cancel', arguments: {} } },
        { jsonrpc: '2.0', id: 'b', method: 'tools/call', params: { name: 'progress_steps', arguments: { steps: 1 } } },
      ]);
      await probe.whenStarted({ tool: 'wait_for_cancel', requestId: 'a' });
      await probe.whenObserved({ tool: 'progress_steps', requestId: 'b' });
      expect((await cancel(session, 'a')).status).toBe(202);

      const res = await pending;
      await res.untilEnd();
      expect(res.status).toBe(200);
      const body = JSON.parse(res.text) as RpcMessage[];
      expect(Array.isArray(body)).toBe(true);
      expect(body.map((message) => message.id)).toEqual(['b']);
      expect(resultText(body[0])).toBe('done after 1 steps (token null)');
      expect((await probe.whenObserved({ tool: 'wait_for_cancel', requestId: 'a' })).reasonKind).toBe('cancelled');
    });

    it('in a 2025-03-26 batch whose every call is cancelled, answers an empty event stream', async () => {
      const session = await initialize({}, '2025-03-26');
      const pending = post(session, [
        { jsonrpc: '2.0', id: 'x', method: 'tools/call', params: { name: 'wait_for_cancel', arguments: {} } },
        { jsonrpc: '2.0', id: 'y', method: 'tools/call', params: { name: 'wait_for_cancel', arguments: {} } },
      ]);
      await probe.whenStarted({ tool: 'wait_for_cancel', requestId: 'x' });
      await probe.whenStarted({ tool: 'wait_for_cancel', requestId: 'y' });
      expect(
        (
          await send(session, [
            { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'x' } },
            { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 'y' } },
          ])
        ).status,
      ).toBe(202);

      const res = await pending;
      await res.untilEnd();
      expectEmptyEventStream(res);
    });

    it('when the result and the cancellation cross, the client gets the result or nothing, never an error', async () => {
      const session = await initialize();
      const outcomes: string[] = [];
      for (let round = 0; round < 8; round++) {
        const key = `cross-${round}`;
        const id = 100 + round;
        const pending = call(session, id, 'hold', { key, quiet: true });
        await probe.whenStarted({ tool: 'hold', requestId: id });
        // The release and the cancellation race; the offsets (fixed on purpose: 0 to 3 ms) move which
        // one the server sees first.
        const cancelling = cancel(session, id, 'crossing');
        await delay(round % 4);
        probe.release(key);
        expect((await cancelling).status).toBe(202);

        const res = await pending;
        await res.untilEnd();
        if (String(res.headers['content-type']).startsWith('text/event-stream')) {
          expectEmptyEventStream(res);
          outcomes.push('nothing');
        } else {
          expect(res.status).toBe(200);
          const messages = res.messages;
          expect(messages).toHaveLength(1);
          expect(messages[0]!.id).toBe(id);
          expect(messages[0]!.error).toBeUndefined();
          expect(messages[0]!.result!.isError).toBeUndefined();
          expect(resultText(messages[0])).toBe(`released ${key}`);
          outcomes.push('result');
        }
      }
      expect(outcomes).toHaveLength(8);
      expect(live(session).runningCalls).toBe(0);
      expect((await ping(session)).status).toBe(200);
    });

    it('gives two concurrent calls of one session each only its own progress notifications', async () => {
      const session = await initialize();
      const [alpha, beta] = await Promise.all([
        call(session, 'A', 'concurrent_progress', { key: 'alpha', steps: 4, parties: 2 }, { progressToken: 'tok-a' }),
        call(session, 'B', 'concurrent_progress', { key: 'beta', steps: 4, parties: 2 }, { progressToken: 77 }),
      ]);
      await Promise.all([alpha!.untilEnd(), beta!.untilEnd()]);

      expect(progressOf(alpha!)).toEqual(
        [1, 2, 3, 4].map((n) => ({ progressToken: 'tok-a', progress: n, total: 4, message: `alpha ${n}` })),
      );
      expect(progressOf(beta!)).toEqual(
        [1, 2, 3, 4].map((n) => ({ progressToken: 77, progress: n, total: 4, message: `beta ${n}` })),
      );
      expect(alpha!.responses.map((message) => message.id)).toEqual(['A']);
      expect(beta!.responses.map((message) => message.id)).toEqual(['B']);
      // Both calls were running at once: each started before the other finished.
      expect(probe.starts.filter((start) => start.tool === 'concurrent_progress')).toHaveLength(2);
      expect(probe.observations.filter((o) => o.tool === 'concurrent_progress').map((o) => o.sent)).toEqual([
        [true, true, true, true],
        [true, true, true, true],
      ]);
    });

    it('ignores cancellations of unknown ids, and malformed ones, leaving running calls alone', async () => {
      const session = await initialize();
      const pending = call(session, 9, 'wait_for_cancel');
      await probe.whenStarted({ tool: 'wait_for_cancel', requestId: 9 });

      for (const requestId of ['9', 'nope', 10, null, { id: 9 }]) {
        expect((await cancel(session, requestId)).status).toBe(202);
      }
      const noParams = await send(session, { jsonrpc: '2.0', method: 'notifications/cancelled' });
      expect(noParams.status).toBe(202);
      expect((await ping(session)).status).toBe(200);
      expect(live(session).isRunning(9)).toBe(true);
      expect(probe.observationsOf({ tool: 'wait_for_cancel' })).toEqual([]);

      await cancel(session, 9);
      const res = await pending;
      await res.untilEnd();
      expectEmptyEventStream(res);
    });

    it('ignores a cancellation sent on another session, even for the same request id', async () => {
      const owner = await initialize();
      const stranger = await initialize();
      const pending = call(owner, 5, 'wait_for_cancel');
      await probe.whenStarted({ tool: 'wait_for_cancel', requestId: 5 });

      expect((await cancel(stranger, 5)).status).toBe(202);
      expect((await ping(owner)).status).toBe(200);
      expect(live(owner).isRunning(5)).toBe(true);
      expect(probe.observationsOf({ tool: 'wait_for_cancel' })).toEqual([]);

      await cancel(owner, 5);
      await (await pending).untilEnd();
    });
  });

  describe('timeouts and session end', () => {
    it('answers a call past its tool timeoutMs with an isError result saying it timed out (signal kind "timeout")', async () => {
      const session = await initialize();
      const res = await send(session, {
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'slow_ignoring_signal', arguments: { sleepMs: 1500 } },
      });

      expect(res.status).toBe(200);
      expect(res.messages[0]!.result!.isError).toBe(true);
      expect(resultText(res.messages[0])).toMatch(/timed out/);
      const observed = await probe.whenObserved({ tool: 'slow_ignoring_signal', requestId: 1 });
      expect(observed).toMatchObject({ aborted: true, reasonKind: 'timeout' });
    });

    it('aborts a running call with kind "session-ended" when the client ends the session (DELETE)', async () => {
      const session = await initialize();
      const pending = call(session, 3, 'wait_for_cancel');
      await probe.whenStarted({ tool: 'wait_for_cancel', requestId: 3 });

      const del = await client.open('DELETE', { 'mcp-session-id': session.id, 'mcp-protocol-version': '2025-06-18' });
      await del.untilEnd();
      expect(del.status).toBe(204);
      const observed = await probe.whenObserved({ tool: 'wait_for_cancel', requestId: 3 });
      expect(observed).toMatchObject({ aborted: true, reasonKind: 'session-ended' });

      // The POST is not left hanging: it says the call was aborted.
      const res = await pending;
      await res.untilEnd();
      expect(res.status).toBe(200);
      const [reply] = res.messages;
      expect(reply).toMatchObject({ id: 3, result: { isError: true } });
      expect(resultText(reply)).toMatch(/was aborted.*session ended/);
    });
  });

  describe('requests to the client', () => {
    const cases = [
      {
        feature: 'elicitation',
        capabilities: { elicitation: {} },
        tool: 'ask_user',
        args: { message: 'Who are you?' },
        method: 'elicitation/create',
        params: {
          message: 'Who are you?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
        },
        answer: { action: 'accept', content: { name: 'Ada' } },
        text: 'action=accept content={"name":"Ada"}',
      },
      {
        feature: 'sampling',
        capabilities: { sampling: {} },
        tool: 'ask_model',
        args: { prompt: 'Say hi' },
        method: 'sampling/createMessage',
        params: { messages: [{ role: 'user', content: { type: 'text', text: 'Say hi' } }], maxTokens: 64 },
        answer: { role: 'assistant', model: 'test-model', content: { type: 'text', text: 'hi!' } },
        text: 'model=test-model text=hi!',
      },
      {
        feature: 'roots',
        capabilities: { roots: { listChanged: true } },
        tool: 'list_client_roots',
        args: {},
        method: 'roots/list',
        params: {},
        answer: { roots: [{ uri: 'file:///work/a', name: 'a' }, { uri: 'file:///work/b' }] },
        text: 'roots: file:///work/a file:///work/b',
      },
    ] as const;

    it.each(cases)(
      '$feature: the request arrives on the call POST stream (not the GET stream), the answer gets 202 and resolves the tool',
      async ({ capabilities, tool, args, method, params, answer, text }) => {
        const session = await initialize(capabilities);
        const get = await openGet(session);
        const res = await call(session, 1, tool, args);
        const request = await res.nextMessage((message) => message.method === method);
        expect(request.id).toMatch(/^mcp42-\d+$/);
        expect(request.params ?? {}).toEqual(params);
        expect(live(session).pendingClientRequests).toBe(1);

        const ack = await send(session, { jsonrpc: '2.0', id: request.id, result: answer });
        expect(ack.status).toBe(202);
        expect(ack.text).toBe('');
        await res.untilEnd();
        expect(res.responses).toHaveLength(1);
        expect(res.responses[0]!.id).toBe(1);
        expect(res.responses[0]!.result!.isError).toBeUndefined();
        expect(resultText(res.responses[0])).toBe(text);
        expect((await probe.whenObserved({ tool, requestId: 1 })).clientResult).toEqual(answer);
        expect(live(session).pendingClientRequests).toBe(0);

        await syncGet(session, get, 1);
        expect(unmarked(get)).toEqual([]);
      },
    );

    it.each(cases)(
      '$feature: an error answer reaches the tool as McpClientRequestError; uncaught, it is an isError result',
      async ({ capabilities, tool, args, method }) => {
        const session = await initialize(capabilities);
        const res = await call(session, 1, tool, args);
        const request = await res.nextMessage((message) => message.method === method);
        const ack = await send(session, {
          jsonrpc: '2.0',
          id: request.id,
          error: { code: -32042, message: 'the user said no' },
        });
        expect(ack.status).toBe(202);
        await res.untilEnd();

        const [reply] = res.responses;
        expect(reply!.error).toBeUndefined();
        expect(reply!.result!.isError).toBe(true);
        expect(resultText(reply)).toContain('the user said no');
        const observed = await probe.whenObserved({ tool, requestId: 1 });
        expect(observed.error).toMatchObject({
          name: 'McpClientRequestError',
          isClientRequestError: true,
          code: -32042,
        });
      },
    );

    it.each(cases)(
      '$feature: without the capability, the tool fails with an isError result naming it, and nothing is sent',
      async ({ feature, tool, args }) => {
        const session = await initialize({});
        const res = await call(session, 1, tool, args);
        await res.untilEnd();

        expect(res.isJson).toBe(true);
        const [reply] = res.messages;
        expect(reply!.result!.isError).toBe(true);
        expect(resultText(reply)).toContain(`"${feature}" capability`);
        expect((await probe.whenObserved({ tool, requestId: 1 })).error).toMatchObject({
          isClientRequestError: true,
          code: -32601,
        });
      },
    );

    it('refuses a malformed answer: the tool gets McpClientRequestError (-32602) naming the problem', async () => {
      const session = await initialize({ elicitation: {} });
      const res = await call(session, 1, 'ask_user', { message: 'Name?' });
      const request = await res.nextMessage((message) => message.method === 'elicitation/create');
      expect((await send(session, { jsonrpc: '2.0', id: request.id, result: { action: 'maybe' } })).status).toBe(202);
      await res.untilEnd();

      const [reply] = res.responses;
      expect(reply!.result!.isError).toBe(true);
      expect(resultText(reply)).toMatch(/malformed result: action must be accept, decline or cancel/);
      expect((await probe.whenObserved({ tool: 'ask_user', requestId: 1 })).error).toMatchObject({
        isClientRequestError: true,
        code: -32602,
      });
    });

    it('takes a 2025-03-26 client answer sent as a batch of responses (202)', async () => {
      const session = await initialize({ roots: {} }, '2025-03-26');
      const res = await call(session, 1, 'list_client_roots');
      const request = await res.nextMessage((message) => message.method === 'roots/list');
      const ack = await send(session, [
        { jsonrpc: '2.0', id: request.id, result: { roots: [{ uri: 'file:///batched' }] } },
        { jsonrpc: '2.0', id: 'mcp42-unknown', result: {} },
      ]);
      expect(ack.status).toBe(202);
      expect(ack.text).toBe('');
      await res.untilEnd();
      expect(resultText(res.responses[0])).toBe('roots: file:///batched');
    });

    it('ignores answers to unknown ids (202) while the real request keeps waiting', async () => {
      const session = await initialize({ elicitation: {} });
      const res = await call(session, 1, 'ask_user', { message: 'Name?' });
      const request = await res.nextMessage((message) => message.method === 'elicitation/create');

      for (const stray of [
        { jsonrpc: '2.0', id: 'mcp42-999', result: { action: 'accept', content: { name: 'Mallory' } } },
        { jsonrpc: '2.0', id: 12345, error: { code: -1, message: 'stray' } },
      ]) {
        const ack = await send(session, stray);
        expect(ack.status).toBe(202);
        expect(ack.text).toBe('');
      }
      expect(live(session).pendingClientRequests).toBe(1);
      expect(probe.observationsOf({ tool: 'ask_user' })).toEqual([]);

      await send(session, { jsonrpc: '2.0', id: request.id, result: { action: 'decline' } });
      await res.untilEnd();
      expect(resultText(res.responses[0])).toBe('action=decline content=null');
    });

    it('withdraws an unanswered request after clientRequestTimeoutMs with notifications/cancelled, and the tool gets an error', async () => {
      const session = await initialize({ elicitation: {} });
      const res = await call(session, 1, 'ask_user', { message: 'Anyone?' });
      const request = await res.nextMessage((message) => message.method === 'elicitation/create');
      await res.untilEnd(CLIENT_REQUEST_TIMEOUT_MS + 2000);

      const methods = res.messages.map((message) => message.method ?? 'response');
      expect(methods).toEqual(['elicitation/create', 'notifications/cancelled', 'response']);
      const withdrawn = res.withMethod('notifications/cancelled')[0]!;
      expect(withdrawn.params!.requestId).toBe(request.id);
      expect(typeof withdrawn.params!.reason).toBe('string');
      const [reply] = res.responses;
      expect(reply!.result!.isError).toBe(true);
      expect(resultText(reply)).toContain(`within ${CLIENT_REQUEST_TIMEOUT_MS} ms`);
      expect((await probe.whenObserved({ tool: 'ask_user', requestId: 1 })).error).toMatchObject({
        isClientRequestError: true,
        code: -32001,
      });

      // An answer that comes too late is ignored like any unknown one.
      const late = await send(session, { jsonrpc: '2.0', id: request.id, result: { action: 'accept' } });
      expect(late.status).toBe(202);
    });

    it('lets a call wait less than clientRequestTimeoutMs for its own request (timeoutMs option)', async () => {
      const session = await initialize({ elicitation: {} });
      const res = await call(session, 1, 'ask_user', { message: 'Quick!', timeoutMs: 50 });
      await res.untilEnd();

      expect(res.withMethod('notifications/cancelled')).toHaveLength(1);
      expect(resultText(res.responses[0])).toContain('within 50 ms');
    });

    it('ignores an answer POSTed on another session, even for the same request id', async () => {
      const asker = await initialize({ elicitation: {} });
      const stranger = await initialize({ elicitation: {} });
      const res = await call(asker, 1, 'ask_user', { message: 'Name?' });
      const request = await res.nextMessage((message) => message.method === 'elicitation/create');

      const hijack = await send(stranger, {
        jsonrpc: '2.0',
        id: request.id,
        result: { action: 'accept', content: { name: 'Mallory' } },
      });
      expect(hijack.status).toBe(202);
      expect(live(asker).pendingClientRequests).toBe(1);

      await send(asker, { jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { name: 'Ada' } } });
      await res.untilEnd();
      expect(resultText(res.responses[0])).toBe('action=accept content={"name":"Ada"}');
    });

    it('accepts notifications/roots/list_changed with 202, tells host code through rootsChanged, and the session goes on', async () => {
      const session = await initialize({ roots: { listChanged: true } });
      const told: string[] = [];
      const subscription = registry.rootsChanged.subscribe((handle) => told.push(handle.id));
      try {
        const ack = await send(session, { jsonrpc: '2.0', method: 'notifications/roots/list_changed' });
        expect(ack.status).toBe(202);
        expect(ack.text).toBe('');
        expect(told).toEqual([session.id]);
        expect(registry.get(session.id)?.id).toBe(session.id);
        expect(registry.list().map((handle) => handle.id)).toContain(session.id);
      } finally {
        subscription.unsubscribe();
      }
      expect((await ping(session)).status).toBe(200);
    });

    it('withdraws the request of a call the client cancels, and the call is not answered', async () => {
      const session = await initialize({ elicitation: {} });
      const res = await call(session, 8, 'ask_user', { message: 'Never mind' });
      const request = await res.nextMessage((message) => message.method === 'elicitation/create');
      expect((await cancel(session, 8)).status).toBe(202);
      await res.untilEnd();

      expect(res.messages.map((message) => message.method ?? 'response')).toEqual([
        'elicitation/create',
        'notifications/cancelled',
      ]);
      expect(res.withMethod('notifications/cancelled')[0]!.params!.requestId).toBe(request.id);
      expect((await probe.whenObserved({ tool: 'ask_user', requestId: 8 })).reasonKind).toBe('cancelled');
      expect(live(session).pendingClientRequests).toBe(0);
    });
  });

  describe('which stream carries what', () => {
    it("sends a call's messages on its POST stream only, and host messages (notifyAll, logAll, session.log) on the GET stream only", async () => {
      const session = await initialize();
      const get = await openGet(session);
      const res = await call(session, 1, 'hold', { key: 'h' }, { progressToken: 'h-tok' });
      await res.waitFor((stream) => stream.messages.length >= 2);
      expect(res.messages.map((message) => message.method)).toEqual([
        'notifications/progress',
        'notifications/message',
      ]);

      expect(registry.notifyAll('notifications/resources/list_changed')).toBe(1);
      expect(registry.logAll('warning', { from: 'host' }, 'host')).toBe(1);
      expect(live(session).log('error', 'from the session')).toBe(true);
      // Below the session's level: not sent anywhere.
      expect(live(session).log('debug', 'too chatty')).toBe(false);
      await get.waitFor((stream) => stream.messages.length >= 3);
      probe.release('h');
      await res.untilEnd();

      expect(res.messages.map((message) => message.method ?? 'response')).toEqual([
        'notifications/progress',
        'notifications/message',
        'notifications/progress',
        'response',
      ]);
      await syncGet(session, get, 1);
      expect(unmarked(get)).toEqual([
        { jsonrpc: '2.0', method: 'notifications/resources/list_changed' },
        {
          jsonrpc: '2.0',
          method: 'notifications/message',
          params: { level: 'warning', logger: 'host', data: { from: 'host' } },
        },
        { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', data: 'from the session' } },
      ]);
    });
  });

  describe('runtime tool registry', () => {
    let tools: McpToolRegistry;

    beforeAll(() => {
      tools = app.get(McpToolRegistry);
    });

    afterEach(() => {
      for (const name of ['runtime_echo', 'runtime_other']) tools.remove(name);
    });

    const listNames = async (session: RawSession): Promise<string[]> => {
      const res = await send(session, { jsonrpc: '2.0', id: 'list', method: 'tools/list' });
      return ((res.messages[0]!.result!.tools ?? []) as { name: string }[]).map((tool) => tool.name);
    };

    const callRuntime = async (session: RawSession): Promise<RpcMessage> => {
      const res = await send(session, {
        jsonrpc: '2.0',
        id: 'rt',
        method: 'tools/call',
        params: { name: 'runtime_echo', arguments: { text: 'hi' } },
      });
      return res.messages[0]!;
    };

    it('serves a tool added at run time; disabling hides and refuses it, enabling restores it, removing drops it', async () => {
      const session = await initialize();
      tools.add(
        { name: 'runtime_echo', description: 'Echoes at run time', input: RuntimeEchoArgs },
        (args: RuntimeEchoArgs) => `runtime says ${args.text}`,
      );
      expect(await listNames(session)).toContain('runtime_echo');
      const called = await callRuntime(session);
      expect(called.result!.isError).toBeUndefined();
      expect(resultText(called)).toBe('runtime says hi');

      expect(tools.disable('runtime_echo')).toBe(true);
      expect(tools.isEnabled('runtime_echo')).toBe(false);
      expect(await listNames(session)).not.toContain('runtime_echo');
      const refused = await callRuntime(session);
      expect(refused.result!.isError).toBe(true);
      expect(resultText(refused)).toBe('Unknown tool: runtime_echo');

      expect(tools.enable('runtime_echo')).toBe(true);
      expect(await listNames(session)).toContain('runtime_echo');

      expect(tools.remove('runtime_echo')).toBe(true);
      expect(tools.remove('runtime_echo')).toBe(false);
      expect(await listNames(session)).not.toContain('runtime_echo');
      expect(resultText(await callRuntime(session))).toBe('Unknown tool: runtime_echo');
    });

    it('sends one notifications/tools/list_changed per burst to sessions with a GET stream, and queues none for the others', async () => {
      const connected = await initialize();
      const disconnected = await initialize();
      const get = await openGet(connected);
      await syncGet(connected, get, 0);

      // One burst: three changes in one tick.
      tools.add({ name: 'runtime_echo', description: 'One' }, () => 'one');
      tools.add({ name: 'runtime_other', description: 'Two' }, () => 'two');
      tools.disable('runtime_other');
      await nextTurn();
      await syncGet(connected, get, 1);
      expect(unmarked(get)).toEqual([{ jsonrpc: '2.0', method: 'notifications/tools/list_changed' }]);
      expect(live(disconnected).undeliveredMessages).toBe(0);

      // A second burst: one more notification.
      tools.remove('runtime_echo');
      tools.remove('runtime_other');
      await nextTurn();
      await syncGet(connected, get, 2);
      expect(get.withMethod('notifications/tools/list_changed')).toHaveLength(2);
      expect(live(disconnected).undeliveredMessages).toBe(0);

      // The session that was not listening finds nothing waiting when it connects.
      const late = await openGet(disconnected);
      await syncGet(disconnected, late, 3);
      expect(unmarked(late)).toEqual([]);
    });
  });
});
