import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import { testSession } from '../../test/internals/client-session.js';
import { resolveMcpOptions } from '../mcp-options.defaults.js';
import { GuardClock, GUARD_DEADLINE_MS } from './guard-clock.js';
import { ItemVisibility } from './item-visibility.js';
import type { MessageContext } from './message-context.js';
import type { ExecutionArgs, Invocation } from './invocation.js';
import type { ServedHandler } from './served-handler.js';

function handler(verdict: (invocation: Invocation) => Promise<boolean>): ServedHandler {
  return {
    owner: 'Items.method',
    target: () => ({
      guarded: true,
      canActivate: (args: ExecutionArgs) => verdict(args[3]),
      execute: () => Promise.resolve('unused'),
      reportsErrors: true,
    }),
  };
}

describe('ItemVisibility.isVisible', () => {
  let errors: jest.Mock<(...args: unknown[]) => void>;
  let visibility: ItemVisibility;
  const session = testSession();
  const call: MessageContext = {
    transport: 'http',
    caller: session,
    session,
    httpRequest: { user: { scope: 'a b' } },
    headers: {},
  };

  beforeEach(() => {
    jest.useFakeTimers({ doNotFake: ['nextTick', 'setImmediate', 'queueMicrotask'] });
    errors = jest.fn();
    jest.spyOn(Logger.prototype, 'error').mockImplementation(errors);
    visibility = new ItemVisibility(resolveMcpOptions({ name: 'visibility', version: '1.0.0' }), new GuardClock());
  });

  afterEach(() => {
    jest.clearAllTimers();
    jest.useRealTimers();
    jest.restoreAllMocks();
  });

  it('asks the guards in the list phase, with no arguments or context, and the caller’s scopes', async () => {
    let seen: Invocation | undefined;
    const visible = await visibility.isVisible(
      handler(async (invocation) => {
        seen = invocation;
        return true;
      }),
      { kind: 'tool', name: 'quick' },
      call,
    );
    expect(visible).toBe(true);
    expect(seen).toMatchObject({
      phase: 'list',
      kind: 'tool',
      name: 'quick',
      arguments: undefined,
      context: undefined,
    });
    expect(seen!.grantedScopes()).toEqual(['a', 'b']);
    expect(errors).not.toHaveBeenCalled();
  });

  it('leaves out, with an error line, an item whose guards have not answered by the guard deadline', async () => {
    const verdict = visibility.isVisible(
      handler(() => new Promise<boolean>(() => undefined)),
      { kind: 'tool', name: 'hung' },
      call,
    );
    await Promise.resolve();
    jest.advanceTimersByTime(GUARD_DEADLINE_MS);
    expect(await verdict).toBe(false);
    expect(errors.mock.calls.map(([line]) => String(line))).toEqual([
      'The guards of Tool hung did not answer in time; it is left out',
    ]);
  });

  it('leaves out, with its stack, an item whose request-scoped provider cannot be built for the caller', async () => {
    const failure = new Error('no REQUEST');
    const broken: ServedHandler = { owner: 'Scoped.item', target: () => Promise.reject(failure) };
    expect(await visibility.isVisible(broken, { kind: 'prompt', name: 'p' }, call)).toBe(false);
    expect(errors.mock.calls).toEqual([
      ['Prompt p (Scoped.item) could not be prepared for listing; it is left out', failure.stack],
    ]);
  });

  it('gives the items of one listing one deadline in all, however late each is asked', async () => {
    const clock = new GuardClock();
    visibility = new ItemVisibility(resolveMcpOptions({ name: 'visibility', version: '1.0.0' }), clock);
    const hung = handler(() => new Promise<boolean>(() => undefined));
    const listing = clock.deadline(GUARD_DEADLINE_MS);
    const first = visibility.isVisible(hung, { kind: 'tool', name: 'first' }, call, listing.passed);
    await Promise.resolve();
    jest.advanceTimersByTime(GUARD_DEADLINE_MS - 1_000);
    // Asked in a later turn of the page, 9 s into the listing: it gets what is left, 1 s.
    const second = visibility.isVisible(hung, { kind: 'tool', name: 'second' }, call, listing.passed);
    await Promise.resolve();
    jest.advanceTimersByTime(1_000);
    expect(await first).toBe(false);
    expect(await second).toBe(false);
    expect(errors.mock.calls.map(([line]) => String(line))).toEqual([
      'The guards of Tool first did not answer in time; it is left out',
      'The guards of Tool second did not answer in time; it is left out',
    ]);
    listing.cancel();
  });
});
