import type { InstanceMessage } from '../interfaces/mcp-shared-state.interface.js';
import { instanceMessageOf } from './instance-message.js';

describe('instanceMessageOf', () => {
  const valid: InstanceMessage[] = [
    { kind: 'client-response', sessionId: 's', response: { jsonrpc: '2.0', id: 'mcp42-abc-1', result: {} } },
    { kind: 'cancel-call', sessionId: 's', requestId: 7, reason: 'user' },
    { kind: 'cancel-call', sessionId: 's', requestId: 'r' },
    { kind: 'session-ended', sessionId: 's' },
    { kind: 'session-changed', sessionId: 's' },
    { kind: 'stream-released', sessionId: 's' },
    { kind: 'roots-changed', sessionId: 's' },
    { kind: 'notify-connected', method: 'notifications/tools/list_changed' },
    { kind: 'notify-connected', method: 'notifications/x', params: { a: 1 } },
    { kind: 'log-all', level: 'info', data: { n: 1 }, logger: 'app' },
    { kind: 'resource-updated', uri: 'weather://cities' },
    { kind: 'standalone-many', ids: ['s1', 's2'], data: '{"jsonrpc":"2.0","method":"m"}' },
  ];

  it.each(valid.map((message) => [message.kind, message] as const))('takes a well-formed %s', (_kind, message) => {
    // As it arrives: parsed from JSON.
    const arrived = JSON.parse(JSON.stringify(message)) as object;
    expect(instanceMessageOf(arrived)).toEqual(message);
  });

  it.each([
    ['a kind of another version (0.x)', { t: 'resp', s: 's', m: {} }],
    ['an unknown kind', { kind: 'reboot' }],
    ['a kind from the prototype', { kind: 'toString' }],
    ['a response without its session', { kind: 'client-response', response: { id: 1 } }],
    ['a response that is not an object', { kind: 'client-response', sessionId: 's', response: 'ok' }],
    ['a cancellation with an object id', { kind: 'cancel-call', sessionId: 's', requestId: {} }],
    ['a cancellation with a reason that is not text', { kind: 'cancel-call', sessionId: 's', requestId: 1, reason: 3 }],
    ['a log of an unknown level', { kind: 'log-all', level: 'verbose', data: 1 }],
    ['a notification with list params', { kind: 'notify-connected', method: 'm', params: [1] }],
    ['an update without a URI', { kind: 'resource-updated' }],
    ['a fan-out whose ids are not all text', { kind: 'standalone-many', ids: ['s1', 2], data: '{}' }],
    ['a fan-out without its message', { kind: 'standalone-many', ids: ['s1'] }],
  ])('ignores %s', (_label, value) => {
    expect(instanceMessageOf(value)).toBeUndefined();
  });
});
