import { jest } from '@jest/globals';
import { ErrorCode, JsonRpcError } from './json-rpc.errors.js';
import { type Page, PagedList, paginate } from './pagination.js';

interface Item {
  readonly name: string;
}

const keyOf = (item: Item): string => item.name;
const itemsNamed = (...names: string[]): Item[] => names.map((name) => ({ name }));
const numbered = (count: number): Item[] => Array.from({ length: count }, (_, index) => ({ name: `tool-${index}` }));
const namesOf = (page: Page<Item>): string[] => page.page.map(keyOf);

/** Builds a cursor the way a client forging one would. */
const forge = (payload: unknown): string => Buffer.from(JSON.stringify(payload), 'utf8').toString('base64url');

type Pager = (items: readonly Item[], cursor: string | undefined, pageSize: number) => Page<Item>;

const PAGERS: ReadonlyArray<[string, Pager]> = [
  ['paginate', (items, cursor, pageSize) => paginate(items, keyOf, cursor, pageSize)],
  ['PagedList', (items, cursor, pageSize) => new PagedList(items, keyOf).page(cursor, pageSize)],
];

/** Follows nextCursor to the end, as a client does. */
function walk(pager: Pager, items: readonly Item[], pageSize: number): Page<Item>[] {
  const pages = [pager(items, undefined, pageSize)];
  while (pages.at(-1)!.nextCursor !== undefined) {
    pages.push(pager(items, pages.at(-1)!.nextCursor, pageSize));
    if (pages.length > items.length + 1) throw new Error('pagination does not end');
  }
  return pages;
}

function expectInvalidCursor(action: () => unknown): void {
  let thrown: unknown;
  try {
    action();
  } catch (error) {
    thrown = error;
  }
  expect(thrown).toBeInstanceOf(JsonRpcError);
  expect((thrown as JsonRpcError).code).toBe(ErrorCode.InvalidParams);
  expect((thrown as JsonRpcError).message).toBe('Invalid params: invalid cursor');
}

describe.each(PAGERS)('%s', (_name, pager) => {
  describe('walking an unchanged list', () => {
    it('serves an empty list as one empty last page', () => {
      expect(pager([], undefined, 10)).toEqual({ page: [] });
    });

    it('serves one item as one last page', () => {
      const page = pager(itemsNamed('only'), undefined, 10);
      expect(namesOf(page)).toEqual(['only']);
      expect(page).not.toHaveProperty('nextCursor');
    });

    it.each([
      [1, 1],
      [5, 1],
      [5, 2],
      [5, 5],
      [5, 6],
      [6, 3],
      [9, 3],
      [10, 4],
      [1000, 7],
      [1000, 1000],
      [1000, 999],
    ])('serves %i items in pages of %i, each exactly once and in order', (count, pageSize) => {
      const items = numbered(count);
      const pages = walk(pager, items, pageSize);

      expect(pages.flatMap(namesOf)).toEqual(items.map(keyOf));
      expect(pages).toHaveLength(Math.ceil(count / pageSize));
      pages.slice(0, -1).forEach((page) => expect(page.page).toHaveLength(pageSize));
      expect(pages.at(-1)).not.toHaveProperty('nextCursor');
      pages.slice(0, -1).forEach((page) => expect(typeof page.nextCursor).toBe('string'));
    });

    it('ends an exact multiple without a trailing empty page', () => {
      const first = pager(numbered(6), undefined, 3);
      const second = pager(numbered(6), first.nextCursor, 3);
      expect(namesOf(second)).toEqual(['tool-3', 'tool-4', 'tool-5']);
      expect(second).not.toHaveProperty('nextCursor');
    });

    it('lets the page size change between pages', () => {
      const items = numbered(10);
      const first = pager(items, undefined, 2);
      const second = pager(items, first.nextCursor, 5);
      const third = pager(items, second.nextCursor, 100);
      expect([...namesOf(first), ...namesOf(second), ...namesOf(third)]).toEqual(items.map(keyOf));
      expect(third).not.toHaveProperty('nextCursor');
    });

    it('serves items with repeated keys exactly once', () => {
      const items = itemsNamed('a', 'dup', 'dup', 'dup', 'b', 'dup');
      for (const pageSize of [1, 2, 3, 4]) {
        expect(walk(pager, items, pageSize).flatMap(namesOf)).toEqual(items.map(keyOf));
      }
    });

    it('serves the items themselves, in a fresh array', () => {
      const items = numbered(3);
      const page = pager(items, undefined, 2);
      expect(page.page[0]).toBe(items[0]);
      page.page.pop();
      expect(items).toHaveLength(3);
    });

    it('answers the same cursor with the same page every time', () => {
      const items = numbered(10);
      const { nextCursor } = pager(items, undefined, 3);
      expect(pager(items, nextCursor, 3)).toEqual(pager(items, nextCursor, 3));
    });
  });

  describe('cursors', () => {
    it('are unpadded base64url', () => {
      const { nextCursor } = pager(itemsNamed('?>?>', 'b', 'c'), undefined, 1);
      expect(nextCursor).toMatch(/^[A-Za-z0-9_-]+$/);
    });

    it('carry a versioned payload naming the last item served', () => {
      const { nextCursor } = pager(numbered(10), undefined, 4);
      expect(JSON.parse(Buffer.from(nextCursor!, 'base64url').toString('utf8'))).toEqual({
        v: 1,
        k: 'tool-3',
        i: 3,
      });
    });

    it('are accepted when forged with the same payload', () => {
      expect(namesOf(pager(numbered(5), forge({ v: 1, k: 'tool-1', i: 1 }), 2))).toEqual(['tool-2', 'tool-3']);
    });

    it('are accepted with the payload members in another order', () => {
      expect(namesOf(pager(numbered(5), forge({ i: 0, k: 'tool-0', v: 1 }), 1))).toEqual(['tool-1']);
    });

    it.each([
      ['a key made of emoji', '🛠️ tools/weather'],
      ['CJK', '天気予報'],
      ['combining marks', 'café'],
      ['quotes and backslashes', 'say "hi" \\ bye'],
      ['a lone surrogate', 'broken\ud800name'],
      ['control characters', 'line\nbreak\u0000nul'],
      ['an empty key', ''],
    ])('round-trip %s', (_label, key) => {
      const items = itemsNamed('first', key, 'last');
      const { nextCursor } = pager(items, undefined, 2);
      expect(namesOf(pager(items, nextCursor, 2))).toEqual(['last']);
      // A cursor resolved by key, not by position, proves the key itself survived the round trip.
      expect(namesOf(pager(itemsNamed('new', 'first', key, 'last'), nextCursor, 2))).toEqual(['last']);
    });

    it('round-trip a long key', () => {
      const long = 'x'.repeat(10_000);
      const items = itemsNamed(long, 'after');
      const { nextCursor } = pager(items, undefined, 1);
      expect(namesOf(pager(itemsNamed('new', long, 'after'), nextCursor, 1))).toEqual(['after']);
    });
  });

  describe('a list that changed between pages', () => {
    const original = itemsNamed('a', 'b', 'c', 'd', 'e', 'f');
    const cursorAfterB = (): string => pager(original, undefined, 2).nextCursor!;

    it('continues after the last item served when it was removed', () => {
      expect(namesOf(pager(itemsNamed('a', 'c', 'd', 'e', 'f'), cursorAfterB(), 2))).toEqual(['c', 'd']);
    });

    it('continues after the last item served when items before it were removed', () => {
      expect(namesOf(pager(itemsNamed('b', 'c', 'd', 'e', 'f'), cursorAfterB(), 2))).toEqual(['c', 'd']);
    });

    it('skips nothing but the removed item when an item after the cursor is removed', () => {
      expect(namesOf(pager(itemsNamed('a', 'b', 'd', 'e', 'f'), cursorAfterB(), 2))).toEqual(['d', 'e']);
    });

    it('serves an item inserted after the cursor', () => {
      expect(namesOf(pager(itemsNamed('a', 'b', 'new', 'c', 'd', 'e', 'f'), cursorAfterB(), 2))).toEqual(['new', 'c']);
    });

    it('does not repeat items when one is inserted before the cursor', () => {
      expect(namesOf(pager(itemsNamed('new', 'a', 'b', 'c', 'd', 'e', 'f'), cursorAfterB(), 2))).toEqual(['c', 'd']);
    });

    it('follows the last item served to where it moved', () => {
      expect(namesOf(pager(itemsNamed('a', 'c', 'd', 'b', 'e', 'f'), cursorAfterB(), 2))).toEqual(['e', 'f']);
    });

    it('continues at the stored index clamped to the list when the named item is gone', () => {
      expect(namesOf(pager(itemsNamed('a', 'x', 'y', 'z'), cursorAfterB(), 2))).toEqual(['x', 'y']);
      expect(pager(itemsNamed('a'), cursorAfterB(), 2)).toEqual({ page: [] });
      expect(pager([], cursorAfterB(), 2)).toEqual({ page: [] });
    });

    it('ends when the items after the cursor were all removed', () => {
      expect(pager(itemsNamed('a', 'b'), cursorAfterB(), 2)).toEqual({ page: [] });
    });

    it('serves every item once when the list grows at its end while walked', () => {
      const items = numbered(5);
      const served: string[] = [];
      let page = pager(items, undefined, 2);
      served.push(...namesOf(page));
      while (page.nextCursor !== undefined) {
        if (items.length < 8) items.push({ name: `late-${items.length}` });
        page = pager(items, page.nextCursor, 2);
        served.push(...namesOf(page));
      }
      expect(served).toEqual(items.map(keyOf));
      expect(items).toHaveLength(8);
    });
  });

  describe('invalid cursors', () => {
    const items = numbered(10);

    it.each([
      ['the empty string', ''],
      ['garbage', '!!!not a cursor!!!'],
      ['whitespace', ' '],
      ['a cursor with whitespace around it', ` ${forge({ v: 1, k: 'tool-1', i: 1 })} `],
      ['base64 padding', 'eyJ2IjoxLCJrIjoiYWIiLCJpIjowfQ=='],
      ['the standard base64 alphabet', 'eyJ2IjoxLCJrIjoifn5+PyIsImkiOjB9'],
      ['an impossible base64 length', 'A'],
      ['base64 of text that is not JSON', Buffer.from('hello world').toString('base64url')],
      ['base64 of bytes that are not UTF-8', Buffer.from([0x7b, 0xff, 0xfe, 0x7d]).toString('base64url')],
      ['JSON null', forge(null)],
      ['a JSON number', forge(42)],
      ['a JSON string', forge('tool-1')],
      ['a JSON array', forge([1, 'tool-1', 1])],
      ['an empty object', forge({})],
      ['a missing version', forge({ k: 'tool-1', i: 1 })],
      ['version 2', forge({ v: 2, k: 'tool-1', i: 1 })],
      ['version 0', forge({ v: 0, k: 'tool-1', i: 1 })],
      ['a string version', forge({ v: '1', k: 'tool-1', i: 1 })],
      ['a missing key', forge({ v: 1, i: 1 })],
      ['a numeric key', forge({ v: 1, k: 1, i: 1 })],
      ['a null key', forge({ v: 1, k: null, i: 1 })],
      ['a missing index', forge({ v: 1, k: 'tool-1' })],
      ['a string index', forge({ v: 1, k: 'tool-1', i: '1' })],
      ['a negative index', forge({ v: 1, k: 'tool-1', i: -1 })],
      ['a fractional index', forge({ v: 1, k: 'tool-1', i: 1.5 })],
      ['an index beyond safe integers', forge({ v: 1, k: 'tool-1', i: 2 ** 53 })],
      ['an exponent index', forge({ v: 1, k: 'tool-1', i: 1e300 })],
      ['an extra member', forge({ v: 1, k: 'tool-1', i: 1, admin: true })],
    ])('rejects %s', (_label, cursor) => {
      expectInvalidCursor(() => pager(items, cursor, 3));
    });

    it('accepts the payloads of the two cursors above in unpadded base64url', () => {
      expect(namesOf(pager(itemsNamed('ab', 'next'), 'eyJ2IjoxLCJrIjoiYWIiLCJpIjowfQ', 3))).toEqual(['next']);
      expect(namesOf(pager(itemsNamed('~~~?', 'next'), 'eyJ2IjoxLCJrIjoifn5-PyIsImkiOjB9', 3))).toEqual(['next']);
    });

    it.each([null, 42, {}, ['cursor']])('rejects the non-string %p', (cursor) => {
      expectInvalidCursor(() => pager(items, cursor as unknown as string, 3));
    });

    it('accepts a huge but safe index, as a cursor from a list that has since shrunk', () => {
      expect(pager(items, forge({ v: 1, k: 'gone', i: Number.MAX_SAFE_INTEGER }), 3)).toEqual({ page: [] });
      expect(namesOf(pager(items, forge({ v: 1, k: 'tool-7', i: Number.MAX_SAFE_INTEGER }), 3))).toEqual([
        'tool-8',
        'tool-9',
      ]);
    });
  });

  describe('page size', () => {
    it.each([0, -1, 1.5, Number.NaN, Number.POSITIVE_INFINITY, 2 ** 53])('rejects %p with a TypeError', (size) => {
      expect(() => pager(numbered(3), undefined, size)).toThrow(TypeError);
      expect(() => pager(numbered(3), undefined, size)).toThrow(/pageSize must be a positive integer/);
    });

    it('is checked before the cursor', () => {
      expect(() => pager(numbered(3), 'garbage!', 0)).toThrow(TypeError);
    });
  });
});

describe('cursors across both forms', () => {
  it('are interchangeable between paginate and PagedList', () => {
    const items = numbered(9);
    const paged = new PagedList(items, keyOf);
    const first = paginate(items, keyOf, undefined, 3);
    const second = paged.page(first.nextCursor, 3);
    const third = paginate(items, keyOf, second.nextCursor, 3);
    expect([...namesOf(first), ...namesOf(second), ...namesOf(third)]).toEqual(items.map(keyOf));
    expect(paged.page(undefined, 3)).toEqual(first);
  });
});

describe('PagedList', () => {
  it('reports its size', () => {
    expect(new PagedList(numbered(4), keyOf).size).toBe(4);
    expect(new PagedList([], keyOf).size).toBe(0);
  });

  it('keeps the items it was built with when the source array changes', () => {
    const items = numbered(4);
    const paged = new PagedList(items, keyOf);
    items.splice(0, 4, { name: 'other' });
    expect(namesOf(paged.page(undefined, 10))).toEqual(['tool-0', 'tool-1', 'tool-2', 'tool-3']);
  });

  it('computes keys once, then at most twice per page', () => {
    const keys = jest.fn(keyOf);
    const paged = new PagedList(numbered(1000), keys);
    expect(keys).toHaveBeenCalledTimes(1000);

    keys.mockClear();
    let page = paged.page(undefined, 10);
    while (page.nextCursor !== undefined) page = paged.page(page.nextCursor, 10);
    expect(keys.mock.calls.length).toBeLessThanOrEqual(2 * 100);
  });

  it('finds a moved or removed item without scanning the list', () => {
    const keys = jest.fn(keyOf);
    const paged = new PagedList(numbered(1000), keys);
    keys.mockClear();
    expect(namesOf(paged.page(forge({ v: 1, k: 'tool-500', i: 3 }), 2))).toEqual(['tool-501', 'tool-502']);
    expect(namesOf(paged.page(forge({ v: 1, k: 'gone', i: 3 }), 2))).toEqual(['tool-3', 'tool-4']);
    expect(keys.mock.calls.length).toBeLessThanOrEqual(4);
  });
});

describe('paginate', () => {
  it('computes at most two keys for a page of an unchanged list', () => {
    const items = numbered(1000);
    const { nextCursor } = paginate(items, keyOf, undefined, 10);
    const keys = jest.fn(keyOf);
    paginate(items, keys, nextCursor, 10);
    expect(keys.mock.calls.length).toBeLessThanOrEqual(2);
  });
});

describe('PagedList.pageWhere', () => {
  /** Visible unless the name starts with "hidden". */
  const visible = (item: Item): boolean => !item.name.startsWith('hidden');
  const visibleAsync = (item: Item): Promise<boolean> => Promise.resolve(visible(item));

  const cursorPayload = (cursor: string | undefined): unknown =>
    JSON.parse(Buffer.from(cursor!, 'base64url').toString('utf8'));

  /** Follows nextCursor to the end, as a client does. */
  async function walkWhere(
    paged: PagedList<Item>,
    pageSize: number,
    include: (item: Item) => boolean | Promise<boolean>,
  ): Promise<Page<Item>[]> {
    const pages = [await paged.pageWhere(undefined, pageSize, include)];
    while (pages.at(-1)!.nextCursor !== undefined) {
      pages.push(await paged.pageWhere(pages.at(-1)!.nextCursor, pageSize, include));
      if (pages.length > paged.size + 1) throw new Error('pagination does not end');
    }
    return pages;
  }

  async function expectInvalidCursorAsync(action: () => Promise<unknown>): Promise<void> {
    const thrown = await action().then(
      () => undefined,
      (error: unknown) => error,
    );
    expect(thrown).toBeInstanceOf(JsonRpcError);
    expect((thrown as JsonRpcError).code).toBe(ErrorCode.InvalidParams);
    expect((thrown as JsonRpcError).message).toBe('Invalid params: invalid cursor');
  }

  it('serves only the items an async predicate includes, in order', async () => {
    const paged = new PagedList(itemsNamed('a', 'hidden-1', 'b', 'hidden-2', 'c'), keyOf);
    const page = await paged.pageWhere(undefined, 10, visibleAsync);
    expect(namesOf(page)).toEqual(['a', 'b', 'c']);
    expect(page).not.toHaveProperty('nextCursor');
  });

  it('takes a synchronous predicate as well', async () => {
    const paged = new PagedList(itemsNamed('a', 'hidden', 'b'), keyOf);
    expect(namesOf(await paged.pageWhere(undefined, 10, visible))).toEqual(['a', 'b']);
  });

  it('judges the items of a batch in parallel, and the next batch only after it', async () => {
    const paged = new PagedList(numbered(10), keyOf);
    const pending = new Map<string, (verdict: boolean) => void>();
    const include = (item: Item): Promise<boolean> =>
      new Promise<boolean>((resolve) => {
        pending.set(item.name, resolve);
      });

    const result = paged.pageWhere(undefined, 3, include);
    await Promise.resolve();
    // The whole first batch is being judged at once, nothing after it.
    expect([...pending.keys()]).toEqual(['tool-0', 'tool-1', 'tool-2']);

    pending.get('tool-0')!(true);
    pending.get('tool-1')!(false);
    await new Promise((resolve) => setImmediate(resolve));
    // One verdict still missing: the batch is not done, so the next one has not started.
    expect(pending.size).toBe(3);

    pending.get('tool-2')!(false);
    await new Promise((resolve) => setImmediate(resolve));
    expect([...pending.keys()]).toEqual(['tool-0', 'tool-1', 'tool-2', 'tool-3', 'tool-4', 'tool-5']);

    for (const name of ['tool-3', 'tool-4', 'tool-5']) pending.get(name)!(true);
    const page = await result;
    expect(namesOf(page)).toEqual(['tool-0', 'tool-3', 'tool-4']);
    expect(pending.size).toBe(6);
  });

  it('judges no more batches than the page needs', async () => {
    const include = jest.fn(visibleAsync);
    const paged = new PagedList(numbered(1000), keyOf);
    const page = await paged.pageWhere(undefined, 5, include);
    expect(namesOf(page)).toEqual(['tool-0', 'tool-1', 'tool-2', 'tool-3', 'tool-4']);
    expect(include).toHaveBeenCalledTimes(5);
  });

  it('fills a page across batches when items are hidden', async () => {
    const include = jest.fn(visibleAsync);
    const paged = new PagedList(
      itemsNamed('a', 'hidden-1', 'hidden-2', 'b', 'hidden-3', 'hidden-4', 'hidden-5', 'c', 'd', 'e'),
      keyOf,
    );
    const page = await paged.pageWhere(undefined, 3, include);
    expect(namesOf(page)).toEqual(['a', 'b', 'c']);
    // Three batches of three: a h1 h2 | b h3 h4 | h5 c d.
    expect(include.mock.calls.map(([item]) => item.name)).toEqual([
      'a',
      'hidden-1',
      'hidden-2',
      'b',
      'hidden-3',
      'hidden-4',
      'hidden-5',
      'c',
      'd',
    ]);
    expect(typeof page.nextCursor).toBe('string');
  });

  it('names the last item served in the cursor, not the last item judged', async () => {
    const paged = new PagedList(itemsNamed('a', 'hidden-1', 'b', 'c', 'hidden-2', 'd'), keyOf);
    // Batches a h1 b | c h2 d: the page is full at c, though h2 and d were judged too.
    const first = await paged.pageWhere(undefined, 3, visibleAsync);
    expect(namesOf(first)).toEqual(['a', 'b', 'c']);
    expect(cursorPayload(first.nextCursor)).toEqual({ v: 1, k: 'c', i: 3 });

    const second = await paged.pageWhere(first.nextCursor, 3, visibleAsync);
    expect(namesOf(second)).toEqual(['d']);
    expect(second).not.toHaveProperty('nextCursor');
  });

  it('never names a hidden item in a cursor', async () => {
    const items = Array.from({ length: 40 }, (_, index) => ({
      name: index % 3 === 1 ? `hidden-${index}` : `tool-${index}`,
    }));
    const paged = new PagedList(items, keyOf);
    for (const pageSize of [1, 2, 3, 5]) {
      const pages = await walkWhere(paged, pageSize, visibleAsync);
      for (const page of pages.slice(0, -1)) {
        const { k } = cursorPayload(page.nextCursor) as { k: string };
        expect(k).toBe(namesOf(page).at(-1));
      }
    }
  });

  it.each([1, 2, 3, 4, 7, 100])(
    'serves every visible item exactly once and no hidden one, in pages of %i',
    async (size) => {
      const items = Array.from({ length: 30 }, (_, index) => ({
        name: index % 4 === 0 || index % 7 === 0 ? `hidden-${index}` : `tool-${index}`,
      }));
      const pages = await walkWhere(new PagedList(items, keyOf), size, visibleAsync);
      expect(pages.flatMap(namesOf)).toEqual(items.filter(visible).map(keyOf));
      pages.slice(0, -1).forEach((page) => expect(page.page).toHaveLength(size));
    },
  );

  it('serves nothing when every item is hidden', async () => {
    const paged = new PagedList(itemsNamed('hidden-1', 'hidden-2', 'hidden-3', 'hidden-4'), keyOf);
    expect(await paged.pageWhere(undefined, 2, visibleAsync)).toEqual({ page: [] });
  });

  it('serves an empty list as one empty last page', async () => {
    expect(await new PagedList<Item>([], keyOf).pageWhere(undefined, 3, visibleAsync)).toEqual({ page: [] });
  });

  it('ends a full page without a cursor when its last item is the last of the list', async () => {
    const page = await new PagedList(itemsNamed('a', 'hidden', 'b', 'c'), keyOf).pageWhere(undefined, 3, visibleAsync);
    expect(namesOf(page)).toEqual(['a', 'b', 'c']);
    expect(page).not.toHaveProperty('nextCursor');
  });

  it('ends a page that is not full without a cursor, whatever follows it', async () => {
    const page = await new PagedList(itemsNamed('a', 'hidden-1', 'hidden-2'), keyOf).pageWhere(
      undefined,
      2,
      visibleAsync,
    );
    expect(page).toEqual({ page: [{ name: 'a' }] });
  });

  it('answers an empty last page only when nothing but hidden items follows a full page', async () => {
    const paged = new PagedList(itemsNamed('a', 'b', 'hidden-1', 'hidden-2'), keyOf);
    const first = await paged.pageWhere(undefined, 2, visibleAsync);
    expect(namesOf(first)).toEqual(['a', 'b']);
    expect(typeof first.nextCursor).toBe('string');
    expect(await paged.pageWhere(first.nextCursor, 2, visibleAsync)).toEqual({ page: [] });

    // With every item visible, the same full page ends the list: no empty page follows.
    const all = await new PagedList(itemsNamed('a', 'b'), keyOf).pageWhere(undefined, 2, visibleAsync);
    expect(all).toEqual({ page: [{ name: 'a' }, { name: 'b' }] });
  });

  it('judges items for each caller: what one sees, another may not', async () => {
    const paged = new PagedList(itemsNamed('public', 'admin-only', 'other'), keyOf);
    const admin = await paged.pageWhere(undefined, 10, () => true);
    const user = await paged.pageWhere(undefined, 10, (item) => item.name !== 'admin-only');
    expect(namesOf(admin)).toEqual(['public', 'admin-only', 'other']);
    expect(namesOf(user)).toEqual(['public', 'other']);
  });

  it('pages exactly like page() when every item is included, cursors interchangeable', async () => {
    const paged = new PagedList(numbered(10), keyOf);
    const byPage = paged.page(undefined, 3);
    expect(await paged.pageWhere(undefined, 3, () => true)).toEqual(byPage);
    expect(await paged.pageWhere(byPage.nextCursor, 3, () => true)).toEqual(paged.page(byPage.nextCursor, 3));
  });

  it('continues after the last item served when the list changed between pages', async () => {
    const first = await new PagedList(itemsNamed('a', 'b', 'c', 'd'), keyOf).pageWhere(undefined, 2, visibleAsync);
    const changed = new PagedList(itemsNamed('new', 'a', 'b', 'hidden', 'c', 'd'), keyOf);
    expect(namesOf(await changed.pageWhere(first.nextCursor, 2, visibleAsync))).toEqual(['c', 'd']);
  });

  it.each([
    ['garbage', '!!!not a cursor!!!'],
    ['the empty string', ''],
    ['a forged payload of another version', forge({ v: 2, k: 'tool-1', i: 1 })],
    ['a payload with an extra member', forge({ v: 1, k: 'tool-1', i: 1, x: 0 })],
  ])('rejects %s with invalid params (-32602), judging nothing', async (_label, cursor) => {
    const include = jest.fn(visibleAsync);
    await expectInvalidCursorAsync(() => new PagedList(numbered(5), keyOf).pageWhere(cursor, 2, include));
    expect(include).not.toHaveBeenCalled();
  });

  it.each([0, -1, 1.5, Number.NaN])('rejects the page size %p with a TypeError', async (size) => {
    await expect(new PagedList(numbered(3), keyOf).pageWhere(undefined, size, visibleAsync)).rejects.toThrow(
      /pageSize must be a positive integer/,
    );
  });

  it('rejects when the predicate does', async () => {
    const failure = new Error('guard exploded');
    const include = (item: Item): Promise<boolean> =>
      item.name === 'tool-1' ? Promise.reject(failure) : Promise.resolve(true);
    await expect(new PagedList(numbered(3), keyOf).pageWhere(undefined, 5, include)).rejects.toBe(failure);
  });
});
