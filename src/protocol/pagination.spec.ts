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
