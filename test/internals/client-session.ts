import type { ClientSessionInit } from '../../src/session/client-session.js';
import { ClientSession } from '../../src/session/client-session.js';
import { InMemoryEventStore } from '../../src/session/in-memory-event-store.js';

/**
 * A 2025-era session for unit tests of what runs inside one (calls, streams, requests to the
 * client): a real `ClientSession` with a small in-memory event store, nothing ended, nothing
 * reported. Pass what the test is about.
 */
export function testSession(overrides: Partial<ClientSessionInit> = {}): ClientSession {
  return new ClientSession({
    id: 'session-1',
    protocolVersion: '2025-06-18',
    clientInfo: { name: 'client', version: '1.0.0' },
    clientCapabilities: {},
    outboxLimit: 100,
    logLevel: 'info',
    eventStore: new InMemoryEventStore({ maxEventsPerSession: 10, maxEventAgeMs: 60_000 }),
    now: 0,
    onEnd: () => undefined,
    onStoreError: () => undefined,
    onUnserializable: () => undefined,
    ...overrides,
  });
}
