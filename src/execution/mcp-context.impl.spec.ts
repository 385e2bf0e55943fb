import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { getEventListeners } from 'node:events';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import type { JsonRpcMessage, JsonRpcRequest } from '../protocol/json-rpc.types.js';
import type { LegacyProtocolVersion as ProtocolVersion } from '../protocol/protocol-version.js';
import type { ClientCapabilities, Meta } from '../protocol/mcp.types.js';
import type { CallChannel } from './call-channel.js';
import type { MessageContext } from './message-context.js';
import { ClientSession } from '../session/client-session.js';
import { JsonSchemaValidatorFactory } from '../schemas/json-schema.validator.js';
import { McpContextImpl } from './mcp-context.impl.js';
import { testSession } from '../../test/internals/client-session.js';

/** A POST's channel stand-in: keeps what the call sends and answers closeConnection as told. */
class FakeChannel implements CallChannel {
  readonly sent: JsonRpcMessage[] = [];
  readonly closeCalls: Array<number | undefined> = [];
  accepts = true;
  closes = true;

  send(message: JsonRpcMessage): boolean {
    this.sent.push(message);
    return this.accepts;
  }

  closeConnection(retryMs?: number): boolean {
    this.closeCalls.push(retryMs);
    return this.closes;
  }
}

interface Fixture {
  readonly ctx: McpContextImpl;
  readonly session: ClientSession;
  readonly channel: FakeChannel;
  readonly controller: AbortController;
  readonly debug: jest.Mock<(message: unknown) => void>;
}

function makeContext(
  options: {
    meta?: Meta;
    capabilities?: ClientCapabilities;
    protocolVersion?: ProtocolVersion;
    channel?: FakeChannel | null;
    httpRequest?: unknown;
    clientRequestTimeoutMs?: number;
  } = {},
): Fixture {
  const session = testSession({
    id: 'session-7',
    protocolVersion: options.protocolVersion ?? '2025-06-18',
    clientInfo: { name: 'inspector', version: '2.0.0' },
    clientCapabilities: options.capabilities ?? {},
  });
  const channel = options.channel === null ? undefined : (options.channel ?? new FakeChannel());
  const call: MessageContext = {
    transport: 'http',
    caller: session,
    session,
    httpRequest: options.httpRequest ?? { user: { sub: 'alice' } },
    headers: { 'x-trace': 'abc' },
    channel,
  };
  const controller = new AbortController();
  const logger = new Logger('test');
  const debug = jest.fn<(message: unknown) => void>();
  jest.spyOn(logger, 'debug').mockImplementation(debug);
  const ctx = new McpContextImpl(call, 'req-1', 'weather', options.meta, controller, {
    clientRequestTimeoutMs: options.clientRequestTimeoutMs ?? 60_000,
    validators: new JsonSchemaValidatorFactory(),
    logger,
  });
  return { ctx, session, channel: channel ?? new FakeChannel(), controller, debug };
}

/** The request the context sent last on its channel. */
function lastRequest(channel: FakeChannel): JsonRpcRequest {
  const request = channel.sent.at(-1) as JsonRpcRequest;
  if (!('id' in request) || !('method' in request)) throw new Error('no request was sent');
  return request;
}

async function rejection(promise: Promise<unknown>): Promise<McpClientRequestError> {
  const error = await promise.then(
    () => undefined,
    (rejected: unknown) => rejected,
  );
  if (!(error instanceof McpClientRequestError))
    throw new Error(`expected McpClientRequestError, got ${String(error)}`);
  return error;
}

const FORM = {
  message: 'Your name?',
  requestedSchema: { type: 'object' as const, properties: { name: { type: 'string' } } },
};
const SAMPLE = { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: 'hi' } }], maxTokens: 10 };

afterEach(() => {
  jest.useRealTimers();
  jest.restoreAllMocks();
});

describe('McpContextImpl: what it knows', () => {
  it('reads the call, session and request through', () => {
    const httpRequest = { user: { sub: 'alice' }, url: '/mcp' };
    const { ctx, controller } = makeContext({ meta: { progressToken: 't' }, httpRequest, capabilities: { roots: {} } });
    expect(ctx.sessionId).toBe('session-7');
    expect(ctx.protocolVersion).toBe('2025-06-18');
    expect(ctx.requestId).toBe('req-1');
    expect(ctx.name).toBe('weather');
    expect(ctx.clientInfo).toEqual({ name: 'inspector', version: '2.0.0' });
    expect(ctx.clientCapabilities).toEqual({ roots: {} });
    expect(ctx.meta).toEqual({ progressToken: 't' });
    expect(ctx.request).toBe(httpRequest);
    expect(ctx.headers).toEqual({ 'x-trace': 'abc' });
    expect(ctx.user).toEqual({ sub: 'alice' });
    expect(ctx.signal).toBe(controller.signal);
  });

  it('has no user without one on the request', () => {
    expect(makeContext({ httpRequest: {} }).ctx.user).toBeUndefined();
  });
});

describe('McpContextImpl.reportProgress', () => {
  it.each([
    ['a string token', 'tok-1'],
    ['a numeric token', 42],
    ['token 0', 0],
  ])('sends notifications/progress with %s', (_label, token) => {
    const { ctx, channel } = makeContext({ meta: { progressToken: token } });
    expect(ctx.reportProgress({ progress: 1, total: 10, message: 'one of ten' })).toBe(true);
    expect(channel.sent).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: token, progress: 1, total: 10, message: 'one of ten' },
      },
    ]);
  });

  it.each([
    ['no _meta', undefined],
    ['no token', { other: 1 }],
    ['an object token', { progressToken: { id: 1 } }],
    ['a null token', { progressToken: null }],
    ['a non-finite token', { progressToken: Number.POSITIVE_INFINITY }],
  ])('sends nothing with %s', (_label, meta) => {
    const { ctx, channel } = makeContext({ meta: meta as Meta | undefined });
    expect(ctx.reportProgress({ progress: 1 })).toBe(false);
    expect(channel.sent).toEqual([]);
  });

  it('leaves out a total that is not finite and a message that is not a string', () => {
    const { ctx, channel } = makeContext({ meta: { progressToken: 't' } });
    ctx.reportProgress({ progress: 1, total: Number.NaN, message: 5 as unknown as string });
    expect(channel.sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 't', progress: 1 } },
    ]);
  });

  it('drops reports whose progress does not strictly grow, or is not finite', () => {
    const { ctx, channel, debug } = makeContext({ meta: { progressToken: 't' } });
    expect(ctx.reportProgress({ progress: 0 })).toBe(true);
    expect(ctx.reportProgress({ progress: 0 })).toBe(false);
    expect(ctx.reportProgress({ progress: 0.5 })).toBe(true);
    expect(ctx.reportProgress({ progress: 0.25 })).toBe(false);
    expect(ctx.reportProgress({ progress: Number.NaN })).toBe(false);
    expect(ctx.reportProgress({ progress: Number.POSITIVE_INFINITY })).toBe(false);
    expect(ctx.reportProgress({ progress: 3 })).toBe(true);
    expect(channel.sent.map((message) => ('params' in message ? message.params!.progress : undefined))).toEqual([
      0, 0.5, 3,
    ]);
    expect(debug).toHaveBeenCalled();
  });

  it('drops everything once the call has its result', () => {
    const { ctx, channel } = makeContext({ meta: { progressToken: 't' } });
    ctx.reportProgress({ progress: 1 });
    ctx.finish();
    expect(ctx.reportProgress({ progress: 2 })).toBe(false);
    expect(channel.sent).toHaveLength(1);
  });

  it('returns what the channel says, and false without a channel', () => {
    const refused = new FakeChannel();
    refused.accepts = false;
    expect(makeContext({ meta: { progressToken: 't' }, channel: refused }).ctx.reportProgress({ progress: 1 })).toBe(
      false,
    );
    expect(makeContext({ meta: { progressToken: 't' }, channel: null }).ctx.reportProgress({ progress: 1 })).toBe(
      false,
    );
  });
});

describe('McpContextImpl.log', () => {
  it('sends notifications/message on the call’s channel, with or without a logger', () => {
    const { ctx, channel } = makeContext();
    expect(ctx.log('warning', { disk: 91 })).toBe(true);
    expect(ctx.log('error', 'down', 'db')).toBe(true);
    expect(channel.sent).toEqual([
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'warning', data: { disk: 91 } } },
      { jsonrpc: '2.0', method: 'notifications/message', params: { level: 'error', logger: 'db', data: 'down' } },
    ]);
  });

  it.each(['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'] as const)(
    'has the shorthand log.%s',
    (level) => {
      const { ctx, channel, session } = makeContext();
      session.logLevel = 'debug';
      expect(ctx.log[level]('data', 'component')).toBe(true);
      expect(channel.sent).toEqual([
        { jsonrpc: '2.0', method: 'notifications/message', params: { level, logger: 'component', data: 'data' } },
      ]);
    },
  );

  it('is the same function on every read', () => {
    const { ctx } = makeContext();
    expect(ctx.log).toBe(ctx.log);
  });

  it('sends nothing below the session’s level, and follows it as the client changes it', () => {
    const { ctx, channel, session } = makeContext();
    expect(ctx.log.debug('noise')).toBe(false);
    expect(ctx.log('debug', 'noise')).toBe(false);
    session.logLevel = 'error';
    expect(ctx.log.warning('still noise')).toBe(false);
    expect(ctx.log.critical('fire')).toBe(true);
    expect(channel.sent).toHaveLength(1);
  });

  it('sends nothing after the result, nor without a channel', () => {
    const { ctx, channel } = makeContext();
    ctx.finish();
    expect(ctx.log.error('late')).toBe(false);
    expect(channel.sent).toEqual([]);
    expect(makeContext({ channel: null }).ctx.log.error('nowhere')).toBe(false);
  });

  it('does not use the session’s standalone stream', () => {
    const { ctx, session } = makeContext();
    ctx.log.error('for the POST only');
    expect(session.undeliveredMessages).toBe(0);
  });
});

describe('McpContextImpl requests to the client', () => {
  it.each([
    ['elicit', (ctx: McpContextImpl) => ctx.elicit(FORM), 'elicitation/create', 'elicitation'],
    ['sample', (ctx: McpContextImpl) => ctx.sample(SAMPLE), 'sampling/createMessage', 'sampling'],
    ['listRoots', (ctx: McpContextImpl) => ctx.listRoots(), 'roots/list', 'roots'],
  ])(
    '%s fails with -32601 when the client did not declare the capability, sending nothing',
    async (_label, ask, method, capability) => {
      const { ctx, channel } = makeContext({ capabilities: { experimental: {} } });
      const error = await rejection(ask(ctx));
      expect(error.code).toBe(-32601);
      expect(error.message).toBe(`The client cannot take ${method}: it did not declare the "${capability}" capability`);
      expect(channel.sent).toEqual([]);
    },
  );

  it.each([
    ['tools', { ...SAMPLE, tools: [{ name: 'lookup', inputSchema: { type: 'object' as const } }] }, 'sampling.tools'],
    ['includeContext thisServer', { ...SAMPLE, includeContext: 'thisServer' as const }, 'sampling.context'],
    ['includeContext allServers', { ...SAMPLE, includeContext: 'allServers' as const }, 'sampling.context'],
  ])('sample with %s needs the client capability %s, sending nothing', async (_label, params, capability) => {
    const { ctx, channel } = makeContext({ capabilities: { sampling: {} } });
    const error = await rejection(ctx.sample(params as typeof SAMPLE));
    expect(error.code).toBe(-32601);
    expect(error.message).toBe(
      `The client cannot take sampling/createMessage: it did not declare the "${capability}" capability`,
    );
    expect(channel.sent).toEqual([]);
  });

  it('sample with tools and context is sent when the client declared both', () => {
    const { ctx, channel } = makeContext({ capabilities: { sampling: { tools: {}, context: {} } } });
    void ctx
      .sample({ ...SAMPLE, includeContext: 'thisServer', tools: [{ name: 'lookup', inputSchema: { type: 'object' } }] })
      .catch(() => undefined);
    expect(lastRequest(channel).method).toBe('sampling/createMessage');
    ctx.finish();
  });

  it.each([0, -1, 1.5, Number.NaN, Infinity, 2 ** 31])(
    'refuses timeoutMs %s with a RangeError, sending nothing',
    async (timeoutMs) => {
      const { ctx, channel } = makeContext({ capabilities: { roots: {}, elicitation: {}, sampling: {} } });
      for (const ask of [
        () => ctx.listRoots({ timeoutMs }),
        () => ctx.elicit(FORM, { timeoutMs }),
        () => ctx.sample(SAMPLE, { timeoutMs }),
      ]) {
        await expect(ask()).rejects.toThrow(RangeError);
      }
      expect(channel.sent).toEqual([]);
    },
  );

  it('takes the largest timeoutMs a timer honours (2^31 - 1)', () => {
    const { ctx, channel } = makeContext({ capabilities: { roots: {} } });
    void ctx.listRoots({ timeoutMs: 2 ** 31 - 1 }).catch(() => undefined);
    expect(lastRequest(channel).method).toBe('roots/list');
    ctx.finish();
  });

  it('a URL elicitation needs elicitation.url', async () => {
    const { ctx } = makeContext({ capabilities: { elicitation: {} } });
    const error = await rejection(
      ctx.elicit({ mode: 'url', message: 'Sign in', url: 'https://example.com', elicitationId: 'e1' }),
    );
    expect(error.code).toBe(-32601);
    expect(error.message).toContain('"elicitation.url"');
  });

  it('elicit sends elicitation/create on the call’s channel and resolves with the answer', async () => {
    const { ctx, channel, session } = makeContext({ capabilities: { elicitation: {} } });
    const pending = ctx.elicit(FORM);
    expect(lastRequest(channel)).toEqual({ jsonrpc: '2.0', id: 'mcp42-1', method: 'elicitation/create', params: FORM });
    session.settleClientRequest({
      jsonrpc: '2.0',
      id: 'mcp42-1',
      result: { action: 'accept', content: { name: 'Ada' } },
    });
    await expect(pending).resolves.toEqual({ action: 'accept', content: { name: 'Ada' } });
  });

  it('sample resolves with the client’s message', async () => {
    const { ctx, channel, session } = makeContext({ capabilities: { sampling: {} } });
    const pending = ctx.sample(SAMPLE);
    expect(lastRequest(channel).method).toBe('sampling/createMessage');
    const answer = { role: 'assistant', model: 'm-1', content: { type: 'text', text: 'hello' } };
    session.settleClientRequest({ jsonrpc: '2.0', id: lastRequest(channel).id, result: answer });
    await expect(pending).resolves.toEqual(answer);
  });

  it('listRoots resolves with the roots', async () => {
    const { ctx, channel, session } = makeContext({ capabilities: { roots: { listChanged: true } } });
    const pending = ctx.listRoots();
    expect(lastRequest(channel)).toMatchObject({ method: 'roots/list', params: {} });
    session.settleClientRequest({
      jsonrpc: '2.0',
      id: lastRequest(channel).id,
      result: { roots: [{ uri: 'file:///w' }] },
    });
    await expect(pending).resolves.toEqual({ roots: [{ uri: 'file:///w' }] });
  });

  it.each([
    [
      'elicit',
      { elicitation: {} },
      (ctx: McpContextImpl) => ctx.elicit(FORM),
      { action: 'maybe' },
      'action must be accept, decline or cancel',
    ],
    [
      'sample',
      { sampling: {} },
      (ctx: McpContextImpl) => ctx.sample(SAMPLE),
      { role: 'assistant', content: {} },
      'model must be a string',
    ],
    [
      'listRoots',
      { roots: {} },
      (ctx: McpContextImpl) => ctx.listRoots(),
      { roots: [{ name: 'x' }] },
      'roots[0] has no uri',
    ],
  ])('%s rejects a malformed answer with -32602', async (_label, capabilities, ask, result, problem) => {
    const { ctx, channel, session } = makeContext({ capabilities });
    const pending = ask(ctx);
    session.settleClientRequest({ jsonrpc: '2.0', id: lastRequest(channel).id, result });
    const error = await rejection(pending);
    expect(error.code).toBe(-32602);
    expect(error.message).toContain(`malformed result: ${problem}`);
  });

  it('passes the client’s error on', async () => {
    const { ctx, channel, session } = makeContext({ capabilities: { roots: {} } });
    const pending = ctx.listRoots();
    session.settleClientRequest({
      jsonrpc: '2.0',
      id: lastRequest(channel).id,
      error: { code: -32603, message: 'no' },
    });
    const error = await rejection(pending);
    expect(error.code).toBe(-32603);
  });

  it('refuses to ask once the call has its result, or without a channel (-32600)', async () => {
    const finished = makeContext({ capabilities: { roots: {} } });
    finished.ctx.finish();
    const late = await rejection(finished.ctx.listRoots());
    expect(late.code).toBe(-32600);
    expect(late.message).toBe('roots/list cannot be sent: the call already has its result');
    expect(finished.channel.sent).toEqual([]);
    expect((await rejection(makeContext({ capabilities: { roots: {} }, channel: null }).ctx.listRoots())).code).toBe(
      -32600,
    );
  });

  it('waits clientRequestTimeoutMs by default, or the timeout the call passes, then withdraws the request', async () => {
    jest.useFakeTimers();
    const { ctx, channel } = makeContext({ capabilities: { roots: {} }, clientRequestTimeoutMs: 1_000 });
    const byDefault = rejection(ctx.listRoots());
    const shorter = rejection(ctx.listRoots({ timeoutMs: 100 }));
    jest.advanceTimersByTime(100);
    expect((await shorter).code).toBe(-32001);
    expect(channel.sent.at(-1)).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 'mcp42-2', reason: 'no answer within 100 ms' },
    });
    jest.advanceTimersByTime(900);
    expect((await byDefault).code).toBe(-32001);
    expect(channel.sent.at(-1)).toMatchObject({ params: { requestId: 'mcp42-1' } });
  });

  it('withdraws the request when the call’s signal aborts, rejecting with its reason', async () => {
    const { ctx, channel, controller } = makeContext({ capabilities: { roots: {} } });
    const pending = ctx.listRoots();
    const reason = new Error('cancelled by the client');
    controller.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(channel.sent.at(-1)).toMatchObject({ method: 'notifications/cancelled', params: { requestId: 'mcp42-1' } });
  });

  it('withdraws the request when the signal the tool passes aborts, and leaves no listener on either signal', async () => {
    const { ctx, channel, controller, session } = makeContext({ capabilities: { roots: {} } });
    const own = new AbortController();
    const pending = ctx.listRoots({ signal: own.signal });
    const reason = new Error('the tool gave up');
    own.abort(reason);
    await expect(pending).rejects.toBe(reason);
    expect(channel.sent.at(-1)).toMatchObject({ method: 'notifications/cancelled' });
    expect(controller.signal.aborted).toBe(false);
    expect(session.pendingClientRequests).toBe(0);

    // An answered request leaves nothing on the call's signal, which lives as long as the call.
    const answered = ctx.listRoots({ signal: new AbortController().signal });
    session.settleClientRequest({ jsonrpc: '2.0', id: lastRequest(channel).id, result: { roots: [] } });
    await answered;
    const plain = ctx.listRoots();
    session.settleClientRequest({ jsonrpc: '2.0', id: lastRequest(channel).id, result: { roots: [] } });
    await plain;
    expect(getEventListeners(controller.signal, 'abort')).toHaveLength(0);
  });

  it('withdraws the requests a call left waiting when it gets its result, then sends nothing more', async () => {
    const { ctx, channel } = makeContext({ capabilities: { roots: {} } });
    const pending = rejection(ctx.listRoots({ timeoutMs: 60_000 }));
    ctx.finish();
    const error = await pending;
    expect(error).toBeInstanceOf(McpClientRequestError);
    expect(error.message).toMatch(/has its result/);
    // The request, then its withdrawal with the same id; nothing after that.
    expect(channel.sent).toHaveLength(2);
    const [request, withdrawal] = channel.sent as { id?: unknown; method: string; params?: { requestId?: unknown } }[];
    expect(withdrawal!.method).toBe('notifications/cancelled');
    expect(withdrawal!.params!.requestId).toBe(request!.id);
    expect(ctx.log.info('late')).toBe(false);
    expect(channel.sent).toHaveLength(2);
  });

  it('a request nobody awaits does not become an unhandled rejection when it is withdrawn', async () => {
    const { ctx } = makeContext({ capabilities: { roots: {} } });
    const unhandled = jest.fn();
    process.on('unhandledRejection', unhandled);
    try {
      void ctx.listRoots({ timeoutMs: 60_000 });
      ctx.finish();
      await new Promise((resolve) => setImmediate(resolve));
      expect(unhandled).not.toHaveBeenCalled();
    } finally {
      process.off('unhandledRejection', unhandled);
    }
  });

  it('fails at once when the channel refuses the request', async () => {
    const refused = new FakeChannel();
    refused.accepts = false;
    const { ctx } = makeContext({ capabilities: { roots: {} }, channel: refused });
    expect((await rejection(ctx.listRoots())).code).toBe(-32000);
  });
});

describe('McpContextImpl.closeConnection', () => {
  it('delegates to the channel with the delay, and returns its answer', () => {
    const { ctx, channel } = makeContext({ protocolVersion: '2025-11-25' });
    expect(ctx.closeConnection(300)).toBe(true);
    expect(ctx.closeConnection()).toBe(true);
    expect(channel.closeCalls).toEqual([300, undefined]);
    channel.closes = false;
    expect(ctx.closeConnection()).toBe(false);
  });

  it('does nothing after the result, or without a channel', () => {
    const { ctx, channel } = makeContext();
    ctx.finish();
    expect(ctx.closeConnection(10)).toBe(false);
    expect(channel.closeCalls).toEqual([]);
    expect(makeContext({ channel: null }).ctx.closeConnection()).toBe(false);
  });
});

describe('McpContextImpl.elicit: the answer is checked against the form it asked with', () => {
  const form = {
    message: 'Who are you?',
    requestedSchema: {
      type: 'object' as const,
      properties: { name: { type: 'string' }, age: { type: 'integer', minimum: 0 } },
      required: ['name'],
    },
  };

  async function answer(result: unknown): Promise<unknown> {
    const { ctx, session, channel } = makeContext({ capabilities: { elicitation: {} } });
    const pending = ctx.elicit(form);
    const request = channel.sent[0] as JsonRpcRequest;
    session.settleClientRequest({ jsonrpc: '2.0', id: request.id, result } as never);
    return pending;
  }

  it('resolves with an accepted form that matches', async () => {
    await expect(answer({ action: 'accept', content: { name: 'Ada', age: 36 } })).resolves.toEqual({
      action: 'accept',
      content: { name: 'Ada', age: 36 },
    });
  });

  it('refuses an accepted form that does not match, naming the problem (-32602)', async () => {
    const error = (await answer({ action: 'accept', content: { age: -1 } }).catch(
      (e: unknown) => e,
    )) as McpClientRequestError;
    expect(error).toBeInstanceOf(McpClientRequestError);
    expect(error.code).toBe(-32602);
    expect(error.message).toMatch(/requestedSchema/);
    expect(error.message).toMatch(/name/);
  });

  it('does not check declined or cancelled answers', async () => {
    await expect(answer({ action: 'decline' })).resolves.toEqual({ action: 'decline' });
    await expect(answer({ action: 'cancel' })).resolves.toEqual({ action: 'cancel' });
  });

  it('rejects before sending anything when the tool asks with a schema that does not compile', async () => {
    const { ctx, channel } = makeContext({ capabilities: { elicitation: {} } });
    await expect(
      ctx.elicit({ message: 'x', requestedSchema: { type: 'object', properties: { a: { type: 'nope' } } } }),
    ).rejects.toThrow();
    expect(channel.sent).toHaveLength(0);
  });
});
