import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { testSession } from '../../test/internals/client-session.js';
import { McpCallAbortedError } from '../errors/mcp-call-aborted.error.js';
import { McpToolError } from '../errors/mcp-tool.error.js';
import { resolveMcpOptions } from '../mcp-options.defaults.js';
import { RequestCancelledError } from '../protocol/dispatcher.js';
import { JsonRpcError } from '../protocol/json-rpc.errors.js';
import type { RequestId } from '../protocol/json-rpc.types.js';
import type { ClientSession } from '../session/client-session.js';
import type { CallAnswers, CallStand } from './call-answers.js';
import { CallLifecycle } from './call-lifecycle.js';
import { GUARD_DEADLINE_MS } from './guard-clock.js';
import type { MessageContext } from './message-context.js';
import type { ExecutionArgs, Invocation } from './invocation.js';
import type { PipelineTarget } from './pipeline-target.js';
import type { CallCandidate, RunningCall } from './running-call.js';
import type { ItemRequest } from './item-request.js';
import type { ServedHandler } from './served-handler.js';
import { nextTurn } from '../../test/utils/wait.js';
import { testLifecycle } from '../../test/internals/lifecycle.js';

/** What the test's kind answers: the answers record what they were asked, so the test reads them. */
type Answer =
  | { readonly value: unknown }
  | { readonly failed: unknown; readonly stand: CallStand; readonly reported: boolean }
  | { readonly aborted: unknown; readonly stand: CallStand }
  | { readonly invalid: readonly string[] | undefined }
  | { readonly denied: true };

/** What the test's kind answers when no candidate may serve. */
const DENIED = { denied: true } as const;
const denied = (): Answer => DENIED;

const logger = new Logger('McpTest');
const answers: CallAnswers<Answer> = {
  logger,
  failed: (error, stand, reported) => ({ failed: error, stand, reported }),
  aborted: (reason, stand) => ({ aborted: reason, stand }),
};

/** A pipeline standing in for Nest's, recording what reached it. */
interface FakeTarget extends PipelineTarget {
  /** The invocations its guards were asked with. */
  readonly asked: Invocation[];
  readonly executed: Invocation[];
}

function fakeTarget(
  options: {
    guard?: (invocation: Invocation) => Promise<boolean>;
    execute?: (invocation: Invocation) => Promise<unknown>;
    reportsErrors?: boolean;
  } = {},
): FakeTarget {
  const asked: Invocation[] = [];
  const executed: Invocation[] = [];
  return {
    asked,
    executed,
    guarded: true,
    canActivate: (args: ExecutionArgs) => {
      asked.push(args[3]);
      return options.guard ? options.guard(args[3]) : Promise.resolve(true);
    },
    execute: (args: ExecutionArgs) => {
      executed.push(args[3]);
      return options.execute ? options.execute(args[3]) : Promise.resolve(`value of ${args[3].name}`);
    },
    reportsErrors: options.reportsErrors ?? true,
  };
}

function handlerOf(target: PipelineTarget, timeoutMs?: number, owner = 'Items.method'): ServedHandler {
  return { owner, timeoutMs, target: () => target };
}

function candidate(
  handler: ServedHandler,
  item: ItemRequest,
  extra: Partial<CallCandidate<Answer>> = {},
): CallCandidate<Answer> {
  return { handler, item, raw: { as: 'sent' }, map: (value) => ({ value }), ...extra };
}

interface Fixture {
  readonly lifecycle: CallLifecycle;
  readonly session: ClientSession;
  readonly call: MessageContext;
  readonly errors: jest.Mock<(...args: unknown[]) => void>;
  readonly debugs: jest.Mock<(...args: unknown[]) => void>;
  /** Runs `work` as request `id` of the test's kind, about the prompt `p`. */
  run(work: (running: RunningCall<Answer>) => Promise<Answer>, id?: RequestId): Promise<Answer>;
}

function setup(): Fixture {
  const errors = jest.fn<(...args: unknown[]) => void>();
  const debugs = jest.fn<(...args: unknown[]) => void>();
  jest.spyOn(Logger.prototype, 'error').mockImplementation(errors);
  jest.spyOn(Logger.prototype, 'debug').mockImplementation(debugs);
  const options = resolveMcpOptions({ name: 'lifecycle-test', version: '1.0.0', auth: { scopesOf: () => ['read'] } });
  const { lifecycle } = testLifecycle(options);
  const session = testSession();
  const call: MessageContext = {
    transport: 'http',
    caller: session,
    session,
    httpRequest: { user: { sub: 'alice' } },
    headers: {},
  };
  return {
    lifecycle,
    session,
    call,
    errors,
    debugs,
    run: (work, id = 1) =>
      lifecycle.run(answers, call, id, { kind: 'prompt', name: 'p', meta: { progressToken: 't' } }, work),
  };
}

const PROMPT: ItemRequest = { kind: 'prompt', name: 'p' };
const flush = async (): Promise<void> => {
  for (let turn = 0; turn < 5; turn++) await nextTurn();
};

afterEach(() => {
  jest.restoreAllMocks();
  jest.useRealTimers();
});

describe('CallLifecycle.run: a running call of the session', () => {
  it('registers the request under its id while it runs, and forgets it when answered', async () => {
    const f = setup();
    let runningThen = false;
    const answer = await f.run(async () => {
      runningThen = f.session.isRunning(7);
      return { value: 'done' };
    }, 7);
    expect(answer).toEqual({ value: 'done' });
    expect(runningThen).toBe(true);
    expect(f.session.isRunning(7)).toBe(false);
  });

  it('refuses a request whose id a running request holds, before anything runs, and leaves that one running', async () => {
    const f = setup();
    let release!: () => void;
    const first = f.run(() => new Promise((resolve) => (release = () => resolve({ value: 'first' }))), 'dup');
    const work = jest.fn(() => Promise.resolve<Answer>({ value: 'second' }));
    await expect(f.run(work, 'dup')).rejects.toThrow(
      new JsonRpcError(-32600, 'Invalid Request: request id "dup" is already in use by a running request'),
    );
    expect(work).not.toHaveBeenCalled();
    expect(f.session.isRunning('dup')).toBe(true);
    release();
    expect(await first).toEqual({ value: 'first' });
  });

  it('gives the work a handler context for the request: its id, the name it arrived with, its _meta and signal', async () => {
    const f = setup();
    let seen: RunningCall<Answer> | undefined;
    const answer = await f.run(async (running) => {
      seen = running;
      return { value: null };
    });
    // Asserted out here: inside the work, a failing expect would be answered as a failure, and lost.
    expect(answer).toEqual({ value: null });
    expect(seen!.context.requestId).toBe(1);
    expect(seen!.context.name).toBe('p');
    expect(seen!.context.meta).toEqual({ progressToken: 't' });
    expect(seen!.context.signal).toBe(seen!.signal);
  });

  it('answers a cancelled request with nothing at all, at once, whatever its work does later', async () => {
    const f = setup();
    let late!: (error: unknown) => void;
    const answer = f.run(() => new Promise((_resolve, reject) => (late = reject)), 'c1');
    await flush();
    expect(f.session.cancelCall('c1', 'changed my mind')).toBe(true);
    await expect(answer).rejects.toEqual(new RequestCancelledError('c1'));
    expect(f.session.isRunning('c1')).toBe(false);
    // The work failing afterwards is noted, quietly: nobody else hears of it.
    late(new Error('gave up late'));
    await flush();
    expect(f.debugs.mock.calls.map(([line]) => String(line))).toContain(
      'Prompt p failed after its request was aborted: Error: gave up late',
    );
    expect(f.errors).not.toHaveBeenCalled();
  });

  it('does not note a late McpToolError: a failure meant for the model, not a fault', async () => {
    const f = setup();
    let late!: (error: unknown) => void;
    const answer = f.run(() => new Promise((_resolve, reject) => (late = reject)), 'c2');
    await flush();
    f.session.cancelCall('c2');
    await expect(answer).rejects.toBeInstanceOf(RequestCancelledError);
    late(new McpToolError('no such city'));
    await flush();
    expect(f.debugs.mock.calls.map(([line]) => String(line))).not.toContainEqual(
      expect.stringContaining('failed after its request was aborted'),
    );
  });

  it('answers the end of the session through the kind, naming where the request stood', async () => {
    const f = setup();
    const answer = f.run(() => new Promise(() => undefined));
    await flush();
    f.session.end('deleted');
    const aborted = (await answer) as { aborted: McpCallAbortedError; stand: CallStand };
    expect(aborted.aborted).toBeInstanceOf(McpCallAbortedError);
    expect(aborted.aborted.kind).toBe('session-ended');
    // Nothing admitted the caller yet: the stand names the request only, no handler.
    expect(aborted.stand).toEqual({ item: { kind: 'prompt', name: 'p', meta: { progressToken: 't' } } });
  });

  it('answers a failure of the kind’s own work through the kind, not reported by Nest', async () => {
    const f = setup();
    const failure = new Error('lookup broke');
    const answer = (await f.run(() => Promise.reject(failure))) as { failed: unknown; reported: boolean };
    expect(answer.failed).toBe(failure);
    expect(answer.reported).toBe(false);
  });

  it('finishes the handler context with the answer: nothing more goes out for it', async () => {
    const f = setup();
    const channel = {
      sent: [] as unknown[],
      send: (message: unknown) => channel.sent.push(message) > 0,
      closeConnection: () => false,
    };
    const call: MessageContext = { ...f.call, channel };
    let context!: RunningCall<Answer>['context'];
    let sentWhileRunning: boolean | undefined;
    const answer = await f.lifecycle.run(
      answers,
      call,
      1,
      { kind: 'prompt', name: 'p', meta: { progressToken: 't' } },
      async (running) => {
        context = running.context;
        sentWhileRunning = context.reportProgress({ progress: 1 });
        return { value: 'x' };
      },
    );
    expect(answer).toEqual({ value: 'x' });
    expect(sentWhileRunning).toBe(true);
    expect(context.reportProgress({ progress: 2 })).toBe(false);
    expect(channel.sent).toHaveLength(1);
  });
});

describe('RunningCall.serve: admission, arguments, handler, mapping', () => {
  it('runs the phases in order: guards on the arguments as sent, then the check, then the handler on the checked ones', async () => {
    const f = setup();
    const order: string[] = [];
    const target = fakeTarget({
      guard: async (invocation) => {
        order.push(`guard ${JSON.stringify(invocation.arguments)} ${invocation.phase}`);
        return true;
      },
      execute: async (invocation) => {
        order.push(`handler ${JSON.stringify(invocation.arguments)}`);
        return 'rendered';
      },
    });
    const answer = await f.run(
      (running) =>
        running.serve(
          [
            candidate(handlerOf(target), PROMPT, {
              arguments: {
                check: async (raw) => {
                  order.push(`check ${JSON.stringify(raw)}`);
                  return { ok: true, value: { checked: true } };
                },
                invalid: (problems) => ({ invalid: problems }),
              },
              map: (value) => {
                order.push(`map ${String(value)}`);
                return { value };
              },
            }),
          ],
          denied,
        ) as Promise<Answer>,
    );
    expect(answer).toEqual({ value: 'rendered' });
    expect(order).toEqual([
      'guard {"as":"sent"} call',
      'check {"as":"sent"}',
      'handler {"checked":true}',
      'map rendered',
    ]);
  });

  it('gives guards and the handler the invocation of the item: kind, name, uri, session, request, context and scopes', async () => {
    const f = setup();
    const target = fakeTarget();
    await f.run(
      (running) =>
        running.serve(
          [candidate(handlerOf(target), { kind: 'resource', name: 'readme', uri: 'docs://readme' })],
          denied,
        ) as Promise<Answer>,
    );
    const [guarded] = target.asked;
    expect(guarded).toMatchObject({ phase: 'call', kind: 'resource', name: 'readme', uri: 'docs://readme' });
    expect(guarded!.session).toBe(f.session);
    expect(guarded!.request).toBe(f.call.httpRequest);
    expect(guarded!.grantedScopes()).toEqual(['read']);
    expect(guarded!.context?.name).toBe('readme');
    expect(target.executed[0]!.context).toBe(guarded!.context);
  });

  it('asks no guard of an item that has none: it is admitted at once', async () => {
    const f = setup();
    const unguarded = { ...fakeTarget(), guarded: false };
    const answer = await f.run((running) => running.serve([candidate(handlerOf(unguarded), PROMPT)], denied));
    expect(answer).toEqual({ value: 'value of p' });
    expect(unguarded.asked).toEqual([]);
    expect(unguarded.executed).toHaveLength(1);
  });

  it('serves with the first candidate whose guards admit; the denied ones before it are passed over', async () => {
    const f = setup();
    const refusing = fakeTarget({ guard: () => Promise.resolve(false) });
    const admitted = fakeTarget();
    const after = fakeTarget();
    const answer = await f.run(
      (running) =>
        running.serve(
          [
            candidate(handlerOf(refusing), { kind: 'resourceTemplate', name: 'hidden', uri: 'u://1' }),
            candidate(handlerOf(admitted), { kind: 'resourceTemplate', name: 'open', uri: 'u://1' }),
            candidate(handlerOf(after), { kind: 'resourceTemplate', name: 'later', uri: 'u://1' }),
          ],
          denied,
        ) as Promise<Answer>,
    );
    expect(answer).toEqual({ value: 'value of open' });
    expect(refusing.executed).toEqual([]);
    expect(after.asked).toEqual([]);
    expect(f.debugs.mock.calls.map(([line]) => String(line))).toContain(
      'Resource template hidden denied by its guards',
    );
  });

  it('answers DENIED when no candidate admits, and when one cannot be prepared for the caller (logged with its stack)', async () => {
    const f = setup();
    const broken = new Error('no REQUEST for a durable tree');
    const unbuildable: ServedHandler = { owner: 'Scoped.item', target: () => Promise.reject(broken) };
    let served: unknown;
    await f.run(async (running) => {
      served = await running.serve(
        [
          candidate(unbuildable, PROMPT),
          candidate(handlerOf(fakeTarget({ guard: () => Promise.resolve(false) })), PROMPT),
        ],
        denied,
      );
      return { value: null };
    });
    expect(served).toBe(DENIED);
    expect(f.errors.mock.calls).toEqual([
      ['Prompt p (Scoped.item) could not be prepared; answered as if it did not exist', broken.stack],
    ]);
  });

  it('answers refused arguments with the candidate’s own answer, the handler never run', async () => {
    const f = setup();
    const target = fakeTarget();
    const answer = await f.run(
      (running) =>
        running.serve(
          [
            candidate(handlerOf(target), PROMPT, {
              arguments: {
                check: () => Promise.resolve({ ok: false, problems: ['city: must be a string'] }),
                invalid: (problems) => ({ invalid: problems }),
              },
            }),
          ],
          denied,
        ) as Promise<Answer>,
    );
    expect(answer).toEqual({ invalid: ['city: must be a string'] });
    expect(target.executed).toEqual([]);
  });

  it('answers arguments that cannot be read at all (the check throws) as invalid without problems', async () => {
    const f = setup();
    const answer = await f.run(
      (running) =>
        running.serve(
          [
            candidate(handlerOf(fakeTarget()), PROMPT, {
              arguments: {
                check: () => Promise.reject(new RangeError('Maximum call stack size exceeded')),
                invalid: (problems) => ({ invalid: problems }),
              },
            }),
          ],
          denied,
        ) as Promise<Answer>,
    );
    expect(answer).toEqual({ invalid: undefined });
    expect(f.debugs.mock.calls.map(([line]) => String(line))).toContain(
      'Arguments of Prompt p could not be validated: RangeError: Maximum call stack size exceeded',
    );
  });

  it('answers a failing handler through the kind, with the admitted item, its handler and whether Nest logged it', async () => {
    const f = setup();
    const failure = new Error('database down');
    const handler = handlerOf(fakeTarget({ execute: () => Promise.reject(failure), reportsErrors: true }));
    const answer = await f.run((running) => running.serve([candidate(handler, PROMPT)], denied) as Promise<Answer>);
    expect(answer).toEqual({ failed: failure, stand: { item: PROMPT, handler }, reported: true });
  });

  it('answers a failing mapping through the kind as not reported: Nest never saw it', async () => {
    const f = setup();
    const failure = new TypeError('not a prompt message');
    const handler = handlerOf(fakeTarget({ reportsErrors: true }));
    const answer = await f.run(
      (running) =>
        running.serve(
          [
            candidate(handler, PROMPT, {
              map: () => {
                throw failure;
              },
            }),
          ],
          denied,
        ) as Promise<Answer>,
    );
    expect(answer).toEqual({ failed: failure, stand: { item: PROMPT, handler }, reported: false });
  });

  it('runs no handler for a request cancelled while its arguments were checked', async () => {
    const f = setup();
    let checked!: () => void;
    const target = fakeTarget();
    const answer = f.run(
      (running) =>
        running.serve(
          [
            candidate(handlerOf(target), PROMPT, {
              arguments: {
                check: (raw) => new Promise((resolve) => (checked = () => resolve({ ok: true, value: raw }))),
                invalid: (problems) => ({ invalid: problems }),
              },
            }),
          ],
          denied,
        ) as Promise<Answer>,
      'mid-check',
    );
    await flush();
    f.session.cancelCall('mid-check');
    await expect(answer).rejects.toBeInstanceOf(RequestCancelledError);
    checked();
    await flush();
    expect(target.asked).toHaveLength(1);
    expect(target.executed).toEqual([]);
  });

  it('names the context after each candidate it tries, before its guards run', async () => {
    const f = setup();
    const names: string[] = [];
    const target = fakeTarget({
      guard: async (invocation) => {
        names.push(invocation.context!.name);
        return invocation.name !== 'first';
      },
    });
    await f.run(async (running) => {
      await running.serve(
        [
          candidate(handlerOf(target), { kind: 'resourceTemplate', name: 'first', uri: 'u://x' }),
          candidate(handlerOf(target), { kind: 'resourceTemplate', name: 'second', uri: 'u://x' }),
        ],
        denied,
      );
      return { value: null };
    });
    expect(names).toEqual(['first', 'second']);
  });

  it('asks admitsToSee as a listing would: the list phase, no arguments, no context', async () => {
    const f = setup();
    const target = fakeTarget();
    let seen = false;
    await f.run(async (running) => {
      seen = await running.admitsToSee(handlerOf(target), PROMPT);
      return { value: null };
    });
    expect(seen).toBe(true);
    expect(target.asked[0]).toMatchObject({ phase: 'list', arguments: undefined, context: undefined });
  });
});

describe('RunningCall.serve: deadlines and timeouts', () => {
  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
  });

  afterEach(() => {
    jest.clearAllTimers();
  });

  it('treats guards that do not answer within the guard deadline as a denial, and says so', async () => {
    const f = setup();
    const hung = fakeTarget({ guard: () => new Promise<boolean>(() => undefined) });
    let served: unknown;
    const answer = f.run(async (running) => {
      served = await running.serve([candidate(handlerOf(hung), PROMPT)], denied);
      return { value: null };
    });
    await flush();
    jest.advanceTimersByTime(GUARD_DEADLINE_MS);
    await answer;
    expect(served).toBe(DENIED);
    expect(f.errors.mock.calls.map(([line]) => String(line))).toEqual([
      'The guards of Prompt p did not answer in time',
    ]);
  });

  it('bounds the guards by the item’s timeoutMs when it is shorter: a slow guard never reveals a hidden item', async () => {
    const f = setup();
    const slow = fakeTarget({ guard: () => new Promise<boolean>(() => undefined) });
    let served: unknown;
    const answer = f.run(async (running) => {
      served = await running.serve([candidate(handlerOf(slow, 50), PROMPT)], denied);
      return { value: null };
    });
    await flush();
    jest.advanceTimersByTime(50);
    // Denied, not timed out: the caller learns nothing the unknown item would not tell it.
    expect(await answer).toEqual({ value: null });
    expect(served).toBe(DENIED);
  });

  it('starts the item’s timeoutMs once the guards admit, and answers past it as a timeout naming the item', async () => {
    const f = setup();
    let admit!: (verdict: boolean) => void;
    const target = fakeTarget({
      guard: () => new Promise<boolean>((resolve) => (admit = resolve)),
      execute: () => new Promise(() => undefined),
    });
    const handler = handlerOf(target, 100);
    const answer = f.run((running) => running.serve([candidate(handler, PROMPT)], denied) as Promise<Answer>);
    await flush();
    jest.advanceTimersByTime(90); // the guards' time is not the handler's
    admit(true);
    await flush();
    jest.advanceTimersByTime(99);
    await flush();
    expect(target.executed).toHaveLength(1);
    jest.advanceTimersByTime(1);
    const aborted = (await answer) as { aborted: McpCallAbortedError; stand: CallStand };
    expect(aborted.aborted.kind).toBe('timeout');
    expect(aborted.aborted.message).toBe('Prompt p timed out after 100 ms');
    expect(aborted.stand).toEqual({ item: PROMPT, handler });
    expect(jest.getTimerCount()).toBe(0);
  });

  it('leaves no timer behind a request that is answered in time', async () => {
    const f = setup();
    const answer = await f.run(
      (running) => running.serve([candidate(handlerOf(fakeTarget(), 3_600_000), PROMPT)], denied) as Promise<Answer>,
    );
    expect(answer).toEqual({ value: 'value of p' });
    // The guard clock's one timer of the application is all that is left, and it goes by itself.
    expect(jest.getTimerCount()).toBeLessThanOrEqual(1);
    jest.advanceTimersByTime(GUARD_DEADLINE_MS);
    expect(jest.getTimerCount()).toBe(0);
  });

  it('logs neither the abort itself nor a cancelled request’s hung guard as an error', async () => {
    const f = setup();
    const hung = fakeTarget({ guard: () => new Promise<boolean>(() => undefined) });
    let late!: () => void;
    const check = new Promise<void>((resolve) => (late = resolve));
    const answer = f.run(
      (running) =>
        running.serve(
          [
            candidate(handlerOf(hung), PROMPT),
            candidate(handlerOf(fakeTarget()), PROMPT, {
              arguments: {
                check: async (raw) => (await check, { ok: true, value: raw }),
                invalid: () => ({ invalid: [] }),
              },
            }),
          ],
          denied,
        ) as Promise<Answer>,
      'quiet',
    );
    await flush();
    f.session.cancelCall('quiet');
    await expect(answer).rejects.toBeInstanceOf(RequestCancelledError);
    jest.advanceTimersByTime(GUARD_DEADLINE_MS);
    late();
    await flush();
    expect(f.errors).not.toHaveBeenCalled();
    const debugs = f.debugs.mock.calls.map(([line]) => String(line));
    expect(debugs).toContain('The guards of Prompt p did not answer in time');
    expect(debugs).not.toContainEqual(expect.stringContaining('failed after its request was aborted'));
  });

  // A request cancelled while its guards decide is answered at once, but its work goes on: when the
  // guards admit afterwards, nothing may start the item's timeout (an hour here, at most 24 days),
  // nor run the handler.
  it('starts nothing for a request cancelled while its guards decided, once they admit', async () => {
    const f = setup();
    let admit!: (verdict: boolean) => void;
    const target = fakeTarget({ guard: () => new Promise<boolean>((resolve) => (admit = resolve)) });
    const answer = f.run(
      (running) => running.serve([candidate(handlerOf(target, 3_600_000), PROMPT)], denied) as Promise<Answer>,
      'late',
    );
    await flush();
    f.session.cancelCall('late');
    await expect(answer).rejects.toBeInstanceOf(RequestCancelledError);
    admit(true);
    await flush();
    jest.advanceTimersByTime(GUARD_DEADLINE_MS);
    expect(jest.getTimerCount()).toBe(0);
    expect(target.executed).toEqual([]);
  });
});
