import 'reflect-metadata';
import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import type { McpContext } from '../interfaces/mcp-context.interface.js';
import { resolveMcpOptions } from '../mcp-options.defaults.js';
import { RequestCancelledError } from '../protocol/dispatcher.js';
import { JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { CallToolResult } from '../protocol/mcp.types.js';
import type { MessageContext } from '../execution/message-context.js';
import { ClientSession } from '../session/client-session.js';
import { McpToolRegistry, type McpToolHandler } from '../registries/tool.registry.js';
import { Schemas } from '../schemas/schemas.js';
import { ToolCaller } from './tool.caller.js';
import { ToolStore } from './tool.store.js';
import { delay, until } from '../../test/utils/wait.js';
import { testSession } from '../../test/internals/client-session.js';
import { testToolCaller } from '../../test/internals/lifecycle.js';

/** A promise the test settles by hand. */
function deferred<T = unknown>(): {
  promise: Promise<T>;
  resolve: (value: T) => void;
  reject: (error: unknown) => void;
} {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

interface Fixture {
  readonly caller: ToolCaller;
  readonly registry: McpToolRegistry;
  readonly session: ClientSession;
  readonly call: MessageContext;
  /** Every `endCall` of the session, with whether its controller is the one `beginCall` gave. */
  readonly ended: Array<{ id: RequestId; own: boolean }>;
  /** The contexts the handlers got, in call order. */
  readonly contexts: McpContext[];
  readonly errors: jest.Mock<(...args: unknown[]) => void>;
  readonly debugs: jest.Mock<(...args: unknown[]) => void>;
  add(name: string, handler: McpToolHandler, timeoutMs?: number): jest.Mock<McpToolHandler>;
}

function setup(): Fixture {
  const errors = jest.fn<(...args: unknown[]) => void>();
  const debugs = jest.fn<(...args: unknown[]) => void>();
  jest.spyOn(Logger.prototype, 'error').mockImplementation(errors);
  jest.spyOn(Logger.prototype, 'debug').mockImplementation(debugs);
  const options = resolveMcpOptions({ name: 'caller-test', version: '1.0.0' });
  const schemas = new Schemas();
  const store = new ToolStore(schemas);
  const registry = new McpToolRegistry(store);
  const caller = testToolCaller(store, options, schemas);
  const session = testSession({ logLevel: 'debug' });
  const controllers = new Map<RequestId, AbortController>();
  const ended: Array<{ id: RequestId; own: boolean }> = [];
  const begin = session.beginCall.bind(session);
  const end = session.endCall.bind(session);
  jest.spyOn(session, 'beginCall').mockImplementation((id) => {
    const controller = begin(id);
    controllers.set(id, controller);
    return controller;
  });
  jest.spyOn(session, 'endCall').mockImplementation((id, controller) => {
    ended.push({ id, own: controllers.get(id) === controller });
    end(id, controller);
  });
  const contexts: McpContext[] = [];
  const call: MessageContext = { transport: 'http', caller: session, session, httpRequest: {}, headers: {} };
  return {
    caller,
    registry,
    session,
    call,
    ended,
    contexts,
    errors,
    debugs,
    add(name, handler, timeoutMs) {
      const mock = jest.fn<McpToolHandler>((args, context) => {
        contexts.push(context);
        return handler(args, context);
      });
      registry.add({ name, description: `${name} tool`, timeoutMs }, mock);
      return mock;
    },
  };
}

const text = (result: CallToolResult): string =>
  result.content.map((block) => ('text' in block ? block.text : '')).join('');

afterEach(() => {
  jest.restoreAllMocks();
});

describe('ToolCaller: outcomes', () => {
  it('runs the handler with its context and maps its value', async () => {
    const f = setup();
    const handler = f.add('echo', () => 'hello');
    const result = await callTool(f.caller, { name: 'echo', arguments: {} }, f.call, 'r1');
    expect(result).toEqual({ content: [{ type: 'text', text: 'hello' }] });
    expect(handler).toHaveBeenCalledTimes(1);
    const context = f.contexts[0]!;
    expect(context.requestId).toBe('r1');
    expect(context.name).toBe('echo');
    expect(context.sessionId).toBe('session-1');
    expect(context.signal.aborted).toBe(false);
    expect(f.ended).toEqual([{ id: 'r1', own: true }]);
    expect(f.session.isRunning('r1')).toBe(false);
  });

  it('answers an unknown or disabled tool with an isError result, leaving no call registered', async () => {
    const f = setup();
    const handler = f.add('hidden', () => 'x');
    f.registry.disable('hidden');
    for (const name of ['nope', 'hidden']) {
      expect(await callTool(f.caller, { name }, f.call, 1)).toEqual({
        content: [{ type: 'text', text: `Unknown tool: ${name}` }],
        isError: true,
      });
    }
    expect(handler).not.toHaveBeenCalled();
    // Registered and released at once, like any call: an id in use is refused alike for every tool name.
    expect(f.session.isRunning(1)).toBe(false);
  });

  it('refuses a request id already used by a running call, leaving that call alone', async () => {
    const f = setup();
    const gate = deferred<string>();
    f.add('slow', () => gate.promise);
    const first = callTool(f.caller, { name: 'slow' }, f.call, 7);
    const error = await callTool(f.caller, { name: 'slow' }, f.call, 7).then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32600);
    expect(f.session.isRunning(7)).toBe(true);
    gate.resolve('done');
    expect(text(await first)).toBe('done');
  });

  it('turns an McpToolError, McpClientRequestError included, into an isError result with its message', async () => {
    const f = setup();
    f.add('picky', () => {
      throw new McpToolError('city not found');
    });
    f.add('asks', async () => {
      throw new McpClientRequestError('The client refused the request: no', -1);
    });
    expect(await callTool(f.caller, { name: 'picky' }, f.call, 1)).toEqual({
      content: [{ type: 'text', text: 'city not found' }],
      isError: true,
    });
    expect(await callTool(f.caller, { name: 'asks' }, f.call, 2)).toEqual({
      content: [{ type: 'text', text: 'The client refused the request: no' }],
      isError: true,
    });
    expect(f.errors).not.toHaveBeenCalled();
    expect(f.ended).toEqual([
      { id: 1, own: true },
      { id: 2, own: true },
    ]);
  });

  it('answers any other failure with an internal error that says nothing, and logs it', async () => {
    const f = setup();
    f.add('broken', () => {
      throw new Error('database password is hunter2');
    });
    const error = await callTool(f.caller, { name: 'broken' }, f.call, 3).then(
      () => undefined,
      (rejected: unknown) => rejected,
    );
    expect(error).toBeInstanceOf(JsonRpcError);
    expect((error as JsonRpcError).code).toBe(-32603);
    expect((error as JsonRpcError).message).not.toContain('hunter2');
    expect(f.errors).toHaveBeenCalled();
    expect(f.ended).toEqual([{ id: 3, own: true }]);
  });

  it('refuses arguments a tool without input does not take, without calling it', async () => {
    const f = setup();
    const handler = f.add('noargs', () => 'x');
    const result = await callTool(f.caller, { name: 'noargs', arguments: { surprise: 1 } }, f.call, 4);
    expect(result.isError).toBe(true);
    expect(text(result)).toContain('surprise');
    expect(handler).not.toHaveBeenCalled();
    expect(f.ended).toEqual([{ id: 4, own: true }]);
  });

  it('finishes the context with the result: nothing more goes out for the call', async () => {
    const f = setup();
    f.add('quick', () => 'ok');
    await callTool(f.caller, { name: 'quick', _meta: { progressToken: 'p' } }, { ...f.call, channel: undefined }, 5);
    const context = f.contexts[0]!;
    expect(context.reportProgress({ progress: 1 })).toBe(false);
    expect(context.log.error('late')).toBe(false);
    expect(context.closeConnection()).toBe(false);
  });
});

describe('ToolCaller: cancellation', () => {
  it('never starts a handler whose call was cancelled before it started, and answers nothing', async () => {
    const f = setup();
    const handler = f.add('never', () => 'x');
    const pending = callTool(f.caller, { name: 'never' }, f.call, 'c1');
    // Registered synchronously: a cancellation right after the request finds the call.
    expect(f.session.cancelCall('c1', 'changed my mind')).toBe(true);
    await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
    await expect(pending).rejects.toMatchObject({ requestId: 'c1' });
    expect(handler).not.toHaveBeenCalled();
    expect(f.ended).toEqual([{ id: 'c1', own: true }]);
  });

  it('answers nothing for a call cancelled while it runs, even when the handler resolves later', async () => {
    const f = setup();
    const gate = deferred<string>();
    f.add('slow', () => gate.promise);
    const pending = callTool(f.caller, { name: 'slow' }, f.call, 'c2');
    await until(() => f.contexts.length === 1, 'the handler to run');
    f.session.cancelCall('c2');
    await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
    const reason = f.contexts[0]!.signal.reason as McpCallAbortedError;
    expect(reason).toBeInstanceOf(McpCallAbortedError);
    expect(reason.kind).toBe('cancelled');
    gate.resolve('too late');
    await delay(0);
    expect(f.ended).toEqual([{ id: 'c2', own: true }]);
    expect(f.session.isRunning('c2')).toBe(false);
  });

  it('answers nothing for a cancelled call whose handler stops by throwing the signal’s reason', async () => {
    const f = setup();
    f.add('obedient', (_args, context) => {
      return new Promise((_resolve, reject) =>
        context.signal.addEventListener('abort', () => reject(context.signal.reason as Error)),
      );
    });
    const pending = callTool(f.caller, { name: 'obedient' }, f.call, 'c3');
    await until(() => f.contexts.length === 1, 'the handler to run');
    f.session.cancelCall('c3');
    await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
    expect(f.errors).not.toHaveBeenCalled();
  });
});

describe('ToolCaller: timeoutMs and session end', () => {
  it('answers a call past timeoutMs with a "timed out" error result while a handler that ignores its signal runs on', async () => {
    const f = setup();
    const gate = deferred<string>();
    let finished = false;
    f.add(
      'stubborn',
      async () => {
        const value = await gate.promise;
        finished = true;
        return value;
      },
      20,
    );
    const result = await callTool(f.caller, { name: 'stubborn' }, f.call, 't1');
    expect(result).toEqual({ content: [{ type: 'text', text: 'Tool stubborn timed out after 20 ms' }], isError: true });
    expect(finished).toBe(false);
    const reason = f.contexts[0]!.signal.reason as McpCallAbortedError;
    expect(reason.kind).toBe('timeout');
    expect(f.ended).toEqual([{ id: 't1', own: true }]);
    gate.resolve('eventually');
    await delay(0);
    expect(finished).toBe(true);
  });

  it('answers "timed out" too when the handler stops by throwing the signal’s reason', async () => {
    const f = setup();
    f.add(
      'obedient',
      (_args, context) =>
        new Promise((_resolve, reject) =>
          context.signal.addEventListener('abort', () => reject(context.signal.reason as Error)),
        ),
      10,
    );
    const result = await callTool(f.caller, { name: 'obedient' }, f.call, 't2');
    expect(text(result)).toBe('Tool obedient timed out after 10 ms');
    expect(f.errors).not.toHaveBeenCalled();
  });

  it('clears the timer of a call that finished in time', async () => {
    const f = setup();
    f.add('fast', () => 'quick', 15);
    expect(text(await callTool(f.caller, { name: 'fast' }, f.call, 't3'))).toBe('quick');
    await delay(30);
    expect(f.contexts[0]!.signal.aborted).toBe(false);
  });

  it('answers a call whose session ended with an "aborted" error result', async () => {
    const f = setup();
    const gate = deferred<string>();
    f.add('long', () => gate.promise);
    const pending = callTool(f.caller, { name: 'long' }, f.call, 's1');
    await until(() => f.contexts.length === 1, 'the handler to run');
    f.session.end('deleted');
    expect(await pending).toEqual({
      content: [{ type: 'text', text: 'Tool long was aborted: MCP session ended (deleted)' }],
      isError: true,
    });
    expect((f.contexts[0]!.signal.reason as McpCallAbortedError).kind).toBe('session-ended');
    expect(f.ended).toEqual([{ id: 's1', own: true }]);
    gate.resolve('ignored');
  });

  it('leaves no unhandled rejection when a handler fails after its call was answered, and notes it', async () => {
    const f = setup();
    const gate = deferred<string>();
    f.add('doomed', () => gate.promise, 10);
    const result = await callTool(f.caller, { name: 'doomed' }, f.call, 'l1');
    expect(result.isError).toBe(true);
    // Jest fails the test on an unhandled rejection: the wait below gives one the time to surface.
    gate.reject(new Error('failed long after the answer'));
    await delay(10);
    expect(f.debugs.mock.calls.map((args) => String(args[0]))).toContainEqual(
      expect.stringContaining('Tool doomed failed after its request was aborted'),
    );
    expect(f.errors).not.toHaveBeenCalled();
  });

  it('leaves no unhandled rejection when a cancelled call’s handler fails later', async () => {
    const f = setup();
    const gate = deferred<string>();
    f.add('doomed', () => gate.promise);
    const pending = callTool(f.caller, { name: 'doomed' }, f.call, 'l2');
    await until(() => f.contexts.length === 1, 'the handler to run');
    f.session.cancelCall('l2');
    await expect(pending).rejects.toBeInstanceOf(RequestCancelledError);
    gate.reject(new McpToolError('not worth a line'));
    await delay(10);
    expect(f.errors).not.toHaveBeenCalled();
  });
});

/** A 2025 session's tool call: never an `input_required` round, so its answer is a `CallToolResult`. */
function callTool(caller: ToolCaller, ...args: Parameters<ToolCaller['call']>): Promise<CallToolResult> {
  return caller.call(...args) as Promise<CallToolResult>;
}
