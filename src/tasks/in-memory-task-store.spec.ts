import { InMemoryTaskStore } from './in-memory-task-store.js';
import type { TaskRecord } from './task-record.js';

const CAPS = { perOwner: 2, total: 3, maxTtlMs: 60_000 };

function task(taskId: string, owner = 'principal:alice', now = 0): TaskRecord {
  return {
    taskId,
    owner,
    era: 'modern',
    tool: 'report',
    status: 'working',
    createdAt: now,
    lastUpdatedAt: now,
    ttlMs: 1_000,
    pollIntervalMs: 100,
    expiresAt: now + 1_000,
  };
}

describe('InMemoryTaskStore', () => {
  let now = 0;
  let store: InMemoryTaskStore;
  beforeEach(() => {
    now = 0;
    store = new InMemoryTaskStore(() => now);
  });
  afterEach(() => store.close());

  it('caps unfinished tasks per owner, and frees a place when one finishes', async () => {
    expect(await store.create(task('a'), CAPS)).toBeUndefined();
    expect(await store.create(task('b'), CAPS)).toBeUndefined();
    expect(await store.create(task('c'), CAPS)).toBe('owner-full');
    expect(await store.create(task('c', 'principal:bob'), CAPS)).toBeUndefined();
    await store.update('a', (current) => ({ ...current, status: 'completed' }));
    // Full in all now: three kept, finished ones included.
    expect(await store.create(task('d'), CAPS)).toBe('full');
  });

  it('never changes a task its change leaves alone, and says when there is no task', async () => {
    await store.create(task('a'), CAPS);
    const kept = await store.update('a', () => undefined);
    expect(kept?.status).toBe('working');
    expect(await store.update('nope', (current) => current)).toBeUndefined();
  });

  it('forgets a task at its expiresAt, and gives its places back', async () => {
    await store.create(task('a'), CAPS);
    await store.create(task('b'), CAPS);
    now = 999;
    expect(await store.get('a')).toBeDefined();
    now = 1_000;
    expect(await store.get('a')).toBeUndefined();
    expect(await store.create(task('c', 'principal:alice', 1_000), CAPS)).toBeUndefined();
    expect(await store.create(task('d', 'principal:alice', 1_000), CAPS)).toBeUndefined();
    expect(store.size).toBe(2);
  });

  it('lists an owner’s tasks oldest first, in pages after a task', async () => {
    for (const id of ['a', 'b']) await store.create(task(id), CAPS);
    await store.create(task('x', 'principal:bob'), CAPS);
    expect(await store.list('principal:alice', undefined, 1)).toMatchObject({ tasks: [{ taskId: 'a' }], more: true });
    expect(await store.list('principal:alice', 'a', 1)).toMatchObject({ tasks: [{ taskId: 'b' }], more: false });
    expect(await store.list('principal:carol', undefined, 10)).toStrictEqual({ tasks: [], more: false });
  });
});
