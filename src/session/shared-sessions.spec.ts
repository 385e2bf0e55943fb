import { jest } from '@jest/globals';
import { Logger } from '@nestjs/common';
import type { McpState, SharedState, SharedStateHooks } from '../interfaces/mcp-shared-state.interface.js';
import { resolveMcpOptions } from '../mcp-options.defaults.js';
import { SharedSessions } from './shared-sessions.js';

/** A shared state that only hands its hooks over: the messages of the test are all there is. */
function fakeState(): { state: McpState; hooks: () => SharedStateHooks } {
  let captured: SharedStateHooks | undefined;
  const port = {
    replicaId: 'abcdefghijkl',
    available: true,
    start: (hooks: SharedStateHooks) => {
      captured = hooks;
      return Promise.resolve();
    },
    stop: () => Promise.resolve(),
  } as unknown as SharedState;
  return {
    state: { kind: 'mcp42.state', available: true, port },
    hooks: () => captured!,
  };
}

describe('SharedSessions: messages from other instances', () => {
  afterEach(() => jest.restoreAllMocks());

  it('acts on the kinds it knows, and says once that another kind arrived (another version on the key prefix)', async () => {
    const warn = jest.spyOn(Logger.prototype, 'warn').mockImplementation(() => undefined);
    const { state, hooks } = fakeState();
    const options = resolveMcpOptions({
      name: 'shared',
      version: '1.0.0',
      state: { shared: state, secret: 'a shared secret of at least 32 bytes, for the test' },
    });
    const sessions = new SharedSessions(options);
    const ended: string[] = [];
    sessions.bind({
      onEnd: () => undefined,
      onStoreError: () => undefined,
      onUnserializable: () => undefined,
      onRootsChanged: () => undefined,
    });
    sessions.on('session-ended', (message) => ended.push(message.sessionId));
    await sessions.onModuleInit();
    try {
      hooks().onMessage({ kind: 'session-ended', sessionId: 's1' });
      hooks().onMessage({ t: 'resp', s: 's1', m: {} });
      hooks().onMessage({ t: 'end', s: 's2' });
      expect(ended).toEqual(['s1']);
      const lines = warn.mock.calls
        .map(([line]) => String(line))
        .filter((line) => line.includes('does not understand'));
      expect(lines).toEqual([expect.stringMatching(/another version of mcp42 using the same Redis key prefix/)]);
    } finally {
      await sessions.onApplicationShutdown();
    }
  });
});
