import { JsonRpcError } from '../protocol/json-rpc.errors.js';
import { ItemStore } from './item-store.js';

interface Item {
  readonly key: string;
  readonly label?: string;
}

class DuplicateError extends Error {
  constructor(
    readonly existing: Item,
    readonly added: Item,
  ) {
    super(`duplicate ${added.key}`);
  }
}

interface Setup {
  readonly catalogue: ItemStore<Item>;
  /** How many times `changes` emitted so far. */
  readonly emissions: () => number;
}

function setup(...keys: string[]): Setup {
  const catalogue = new ItemStore<Item>(
    (item) => item.key,
    (existing, added) => new DuplicateError(existing, added),
  );
  for (const key of keys) catalogue.add({ key });
  let count = 0;
  catalogue.changes.subscribe(() => count++);
  return { catalogue, emissions: () => count };
}

/** Lets queued microtasks (the change notification) run. */
const settle = () => new Promise<void>((resolve) => setImmediate(resolve));

/** A catalogue holding `keys`, its initial burst already emitted (and not counted). */
async function watched(...keys: string[]): Promise<Setup> {
  const { catalogue, emissions } = setup(...keys);
  await settle();
  const baseline = emissions();
  expect(baseline).toBe(keys.length === 0 ? 0 : 1);
  return { catalogue, emissions: () => emissions() - baseline };
}

const keysOf = (items: readonly Item[]) => items.map((item) => item.key);

describe('ItemStore: add, get, has, remove', () => {
  it('starts empty', () => {
    const { catalogue } = setup();
    expect(catalogue.size).toBe(0);
    expect(catalogue.servedItems()).toEqual([]);
    expect(catalogue.has('a')).toBe(false);
    expect(catalogue.get('a')).toBeUndefined();
    expect(catalogue.isEnabled('a')).toBe(false);
  });

  it('serves added items by key', () => {
    const { catalogue } = setup();
    const a = { key: 'a', label: 'A' };
    catalogue.add(a);
    expect(catalogue.size).toBe(1);
    expect(catalogue.has('a')).toBe(true);
    expect(catalogue.isEnabled('a')).toBe(true);
    expect(catalogue.get('a')).toBe(a);
  });

  it('throws the onDuplicate error, built from the item there and the newcomer, and keeps the first', () => {
    const { catalogue } = setup();
    const first = { key: 'a', label: 'first' };
    const second = { key: 'a', label: 'second' };
    catalogue.add(first);
    let thrown: unknown;
    try {
      catalogue.add(second);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBeInstanceOf(DuplicateError);
    expect((thrown as DuplicateError).existing).toBe(first);
    expect((thrown as DuplicateError).added).toBe(second);
    expect((thrown as Error).message).toBe('duplicate a');
    expect(catalogue.size).toBe(1);
    expect(catalogue.get('a')).toBe(first);
  });

  it('refuses a duplicate of a disabled item too', () => {
    const { catalogue } = setup('a');
    catalogue.disable('a');
    expect(() => catalogue.add({ key: 'a' })).toThrow(DuplicateError);
    expect(catalogue.isEnabled('a')).toBe(false);
  });

  it('throws whatever error onDuplicate builds', () => {
    const catalogue = new ItemStore<Item>(
      (item) => item.key,
      (existing) => new JsonRpcError(-32602, `taken: ${existing.key}`),
    );
    catalogue.add({ key: 'x' });
    expect(() => catalogue.add({ key: 'x' })).toThrow(new JsonRpcError(-32602, 'taken: x'));
  });

  // `add` looks the key up by the item found (`if (existing)`), so a falsy item does not count as taken.
  it('refuses a duplicate key even when the item there is falsy', () => {
    const catalogue = new ItemStore<number>(String, () => new Error('taken'));
    catalogue.add(0);
    expect(() => catalogue.add(0)).toThrow('taken');
  });

  it('removes an item: true once, then false', () => {
    const { catalogue } = setup('a', 'b');
    expect(catalogue.remove('a')).toBe(true);
    expect(catalogue.remove('a')).toBe(false);
    expect(catalogue.has('a')).toBe(false);
    expect(catalogue.get('a')).toBeUndefined();
    expect(catalogue.size).toBe(1);
    expect(keysOf(catalogue.servedItems())).toEqual(['b']);
  });

  it('removes a disabled item, and lets its key be added again, enabled', () => {
    const { catalogue } = setup('a');
    catalogue.disable('a');
    expect(catalogue.remove('a')).toBe(true);
    expect(catalogue.has('a')).toBe(false);
    const again = { key: 'a', label: 'again' };
    catalogue.add(again);
    expect(catalogue.isEnabled('a')).toBe(true);
    expect(catalogue.get('a')).toBe(again);
  });

  it('returns false for removing, disabling or enabling an unknown key', () => {
    const { catalogue } = setup('a');
    expect(catalogue.remove('zz')).toBe(false);
    expect(catalogue.disable('zz')).toBe(false);
    expect(catalogue.enable('zz')).toBe(false);
    expect(catalogue.has('zz')).toBe(false);
  });

  it('does not resolve prototype member names as keys', () => {
    const { catalogue } = setup('a');
    for (const key of ['__proto__', 'constructor', 'toString']) {
      expect(catalogue.has(key)).toBe(false);
      expect(catalogue.get(key)).toBeUndefined();
    }
  });
});

describe('ItemStore: disable and enable', () => {
  it('hides a disabled item from get and servedItems, but it still exists', () => {
    const { catalogue } = setup('a', 'b', 'c');
    expect(catalogue.disable('b')).toBe(true);
    expect(catalogue.get('b')).toBeUndefined();
    expect(catalogue.has('b')).toBe(true);
    expect(catalogue.isEnabled('b')).toBe(false);
    expect(catalogue.size).toBe(3);
    expect(keysOf(catalogue.servedItems())).toEqual(['a', 'c']);
  });

  it('serves an enabled item again, at its registration position', () => {
    const { catalogue } = setup('a', 'b', 'c');
    catalogue.disable('a');
    expect(keysOf(catalogue.servedItems())).toEqual(['b', 'c']);
    expect(catalogue.enable('a')).toBe(true);
    expect(catalogue.get('a')).toEqual({ key: 'a' });
    expect(keysOf(catalogue.servedItems())).toEqual(['a', 'b', 'c']);
  });

  it('returns true for a no-op disable or enable of an existing item', () => {
    const { catalogue } = setup('a');
    expect(catalogue.enable('a')).toBe(true);
    expect(catalogue.disable('a')).toBe(true);
    expect(catalogue.disable('a')).toBe(true);
    expect(catalogue.isEnabled('a')).toBe(false);
  });
});

describe('ItemStore: servedItems', () => {
  it('lists the served items in registration order', () => {
    const { catalogue } = setup('zeta', 'alpha', 'mid');
    expect(keysOf(catalogue.servedItems())).toEqual(['zeta', 'alpha', 'mid']);
  });

  it('returns the same frozen snapshot until something changes', () => {
    const { catalogue } = setup('a', 'b');
    const first = catalogue.servedItems();
    expect(Object.isFrozen(first)).toBe(true);
    expect(catalogue.servedItems()).toBe(first);
    expect(() => (first as Item[]).push({ key: 'x' })).toThrow(TypeError);
  });

  it.each([
    ['add', (c: ItemStore<Item>) => c.add({ key: 'c' }), ['a', 'b', 'c']],
    ['remove', (c: ItemStore<Item>) => c.remove('a'), ['b']],
    ['disable', (c: ItemStore<Item>) => c.disable('b'), ['a']],
  ] as const)('prepares a new snapshot after %s, leaving the old one as it was', (_label, change, expected) => {
    const { catalogue } = setup('a', 'b');
    const before = catalogue.servedItems();
    change(catalogue);
    const after = catalogue.servedItems();
    expect(after).not.toBe(before);
    expect(keysOf(after)).toEqual(expected);
    expect(keysOf(before)).toEqual(['a', 'b']);
  });

  it('prepares a new snapshot after enable', () => {
    const { catalogue } = setup('a', 'b');
    catalogue.disable('a');
    const before = catalogue.servedItems();
    catalogue.enable('a');
    expect(catalogue.servedItems()).not.toBe(before);
    expect(keysOf(catalogue.servedItems())).toEqual(['a', 'b']);
  });

  it('keeps the snapshot after no-op changes', () => {
    const { catalogue } = setup('a');
    const before = catalogue.servedItems();
    catalogue.enable('a');
    catalogue.remove('missing');
    catalogue.disable('missing');
    expect(() => catalogue.add({ key: 'a' })).toThrow(DuplicateError);
    expect(catalogue.servedItems()).toBe(before);
  });

  it('puts a removed then re-added key at the end', () => {
    const { catalogue } = setup('a', 'b', 'c');
    catalogue.remove('a');
    catalogue.add({ key: 'a' });
    expect(keysOf(catalogue.servedItems())).toEqual(['b', 'c', 'a']);
  });
});

describe('ItemStore: page', () => {
  const all = () => true;

  it('pages the served items with cursors until the end', async () => {
    const { catalogue } = setup('a', 'b', 'c', 'd', 'e');
    const first = await catalogue.page(undefined, 2, all);
    expect(keysOf(first.page)).toEqual(['a', 'b']);
    expect(typeof first.nextCursor).toBe('string');
    const second = await catalogue.page(first.nextCursor, 2, all);
    expect(keysOf(second.page)).toEqual(['c', 'd']);
    const last = await catalogue.page(second.nextCursor, 2, all);
    expect(last).toStrictEqual({ page: [{ key: 'e' }] });
  });

  it('leaves out disabled items', async () => {
    const { catalogue } = setup('a', 'b', 'c');
    catalogue.disable('b');
    expect(await catalogue.page(undefined, 10, all)).toStrictEqual({ page: [{ key: 'a' }, { key: 'c' }] });
  });

  it('leaves out items the caller may not see, filling the page with later ones', async () => {
    const { catalogue } = setup('a', 'b', 'c', 'd', 'e');
    const seen: string[] = [];
    const visible = async (item: Item) => {
      seen.push(item.key);
      return item.key !== 'b' && item.key !== 'c';
    };
    const first = await catalogue.page(undefined, 2, visible);
    expect(keysOf(first.page)).toEqual(['a', 'd']);
    const second = await catalogue.page(first.nextCursor, 2, visible);
    expect(second).toStrictEqual({ page: [{ key: 'e' }] });
    expect(seen).toEqual(['a', 'b', 'c', 'd', 'e']);
  });

  it('never asks about disabled items', async () => {
    const { catalogue } = setup('a', 'b');
    catalogue.disable('a');
    const asked: string[] = [];
    await catalogue.page(undefined, 10, (item) => (asked.push(item.key), true));
    expect(asked).toEqual(['b']);
  });

  it('gives an empty last page when nothing is visible', async () => {
    const { catalogue } = setup('a', 'b');
    expect(await catalogue.page(undefined, 10, () => false)).toStrictEqual({ page: [] });
  });

  it('continues a cursor after the list changed', async () => {
    const { catalogue } = setup('a', 'b', 'c', 'd');
    const first = await catalogue.page(undefined, 2, all);
    expect(keysOf(first.page)).toEqual(['a', 'b']);
    catalogue.remove('a');
    catalogue.add({ key: 'e' });
    const second = await catalogue.page(first.nextCursor, 2, all);
    expect(keysOf(second.page)).toEqual(['c', 'd']);
    const third = await catalogue.page(second.nextCursor, 2, all);
    expect(third).toStrictEqual({ page: [{ key: 'e' }] });
  });

  it('continues where a removed cursor item was', async () => {
    const { catalogue } = setup('a', 'b', 'c', 'd');
    const first = await catalogue.page(undefined, 2, all);
    catalogue.remove('b');
    expect(keysOf((await catalogue.page(first.nextCursor, 2, all)).page)).toEqual(['c', 'd']);
  });

  it('refuses a cursor it did not issue with -32602', async () => {
    const { catalogue } = setup('a');
    const refusal = catalogue.page('not-a-cursor', 2, all);
    await expect(refusal).rejects.toBeInstanceOf(JsonRpcError);
    await expect(refusal).rejects.toMatchObject({ code: -32602, message: 'Invalid params: invalid cursor' });
  });

  it('refuses a page size that is not a positive integer', async () => {
    const { catalogue } = setup('a');
    await expect(catalogue.page(undefined, 0, all)).rejects.toThrow(
      new TypeError('pageSize must be a positive integer, got 0'),
    );
  });
});

describe('ItemStore: changes', () => {
  it('emits nothing when nothing changes', async () => {
    const { emissions } = await watched();
    await settle();
    expect(emissions()).toBe(0);
  });

  it('emits after the burst, not during it', async () => {
    const { catalogue, emissions } = await watched();
    catalogue.add({ key: 'a' });
    expect(emissions()).toBe(0);
    await Promise.resolve();
    expect(emissions()).toBe(1);
  });

  it('emits exactly once for a burst of many changes', async () => {
    const { catalogue, emissions } = await watched('a', 'b', 'c');
    catalogue.add({ key: 'd' });
    catalogue.disable('a');
    catalogue.disable('b');
    catalogue.enable('a');
    catalogue.remove('c');
    for (let index = 0; index < 10; index++) catalogue.add({ key: `n${index}` });
    await settle();
    expect(emissions()).toBe(1);
  });

  it('emits once per burst, for successive bursts', async () => {
    const { catalogue, emissions } = await watched('a');
    catalogue.disable('a');
    await settle();
    catalogue.enable('a');
    await settle();
    catalogue.remove('a');
    await settle();
    expect(emissions()).toBe(3);
  });

  it('emits once for a change that is undone within the burst', async () => {
    const { catalogue, emissions } = await watched('a');
    catalogue.disable('a');
    catalogue.enable('a');
    await settle();
    expect(emissions()).toBe(1);
  });

  it('does not emit for no-op enable and disable', async () => {
    const { catalogue, emissions } = await watched('a', 'b');
    catalogue.disable('b');
    await settle();
    expect(emissions()).toBe(1);
    expect(catalogue.enable('a')).toBe(true);
    expect(catalogue.disable('b')).toBe(true);
    await settle();
    expect(emissions()).toBe(1);
  });

  it('does not emit for operations on unknown keys, nor for a refused duplicate', async () => {
    const { catalogue, emissions } = await watched('a');
    catalogue.remove('x');
    catalogue.enable('x');
    catalogue.disable('x');
    expect(() => catalogue.add({ key: 'a' })).toThrow(DuplicateError);
    await settle();
    expect(emissions()).toBe(0);
  });

  it('does not emit when a disabled item is removed: the served set is unchanged', async () => {
    const { catalogue, emissions } = await watched('a', 'b');
    catalogue.disable('a');
    await settle();
    expect(emissions()).toBe(1);
    catalogue.remove('a');
    await settle();
    expect(emissions()).toBe(1);
    expect(keysOf(catalogue.servedItems())).toEqual(['b']);
  });

  it('shows the whole burst to subscribers when it emits', async () => {
    const { catalogue } = await watched('a');
    const seen: string[][] = [];
    catalogue.changes.subscribe(() => seen.push(keysOf(catalogue.servedItems())));
    catalogue.add({ key: 'b' });
    catalogue.disable('a');
    catalogue.add({ key: 'c' });
    await settle();
    expect(seen).toEqual([['b', 'c']]);
  });

  it('tells every subscriber', async () => {
    const { catalogue, emissions } = await watched();
    let other = 0;
    catalogue.changes.subscribe(() => other++);
    catalogue.add({ key: 'a' });
    await settle();
    expect(emissions()).toBe(1);
    expect(other).toBe(1);
  });

  it('exposes an observable, not the subject', () => {
    const { catalogue } = setup();
    expect('next' in catalogue.changes).toBe(false);
  });
});

describe('ItemStore: complete', () => {
  it('completes the changes stream and emits nothing afterwards', async () => {
    const { catalogue } = setup();
    let nexts = 0;
    let completed = 0;
    catalogue.changes.subscribe({ next: () => nexts++, complete: () => completed++ });
    catalogue.complete();
    expect(completed).toBe(1);
    catalogue.add({ key: 'a' });
    await settle();
    expect(nexts).toBe(0);
    expect(catalogue.get('a')).toEqual({ key: 'a' });
  });

  it('drops a burst still pending when it completes', async () => {
    const { catalogue, emissions } = setup();
    catalogue.add({ key: 'a' });
    catalogue.complete();
    await settle();
    expect(emissions()).toBe(0);
  });

  it('completes late subscribers at once', () => {
    const { catalogue } = setup();
    catalogue.complete();
    let completed = false;
    catalogue.changes.subscribe({ complete: () => (completed = true) });
    expect(completed).toBe(true);
  });
});
