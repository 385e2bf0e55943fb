import fc from 'fast-check';
import { ErrorCode, JsonRpcError } from './json-rpc.errors.js';
import { PagedList, paginate, type Page } from './pagination.js';

const codeUnit = fc.integer({ min: 0, max: 0xffff }).map((unit) => String.fromCharCode(unit));
/** Lists of items with unique keys (any text, lone surrogates included). */
const items = fc.uniqueArray(fc.oneof(fc.string({ maxLength: 8 }), fc.string({ unit: codeUnit, maxLength: 4 })), {
  maxLength: 30,
});
const pageSize = fc.integer({ min: 1, max: 12 });
const keyOf = (item: string): string => item;

/** Every page of a list, following the cursors from the first page to the last. */
function allPages(next: (cursor: string | undefined) => Page<string>): Page<string>[] {
  const pages: Page<string>[] = [];
  let cursor: string | undefined;
  do {
    const page = next(cursor);
    pages.push(page);
    cursor = page.nextCursor;
  } while (cursor !== undefined && pages.length < 100);
  return pages;
}

describe('pagination properties', () => {
  it('following the cursors of an unchanged list serves every item exactly once, in order', () => {
    fc.assert(
      fc.property(items, pageSize, (list, size) => {
        const pages = allPages((cursor) => paginate(list, keyOf, cursor, size));
        expect(pages.flatMap(({ page }) => page)).toStrictEqual(list);
        expect(pages.every(({ page }, index) => page.length === size || index === pages.length - 1)).toBe(true);
        expect(pages.at(-1)!.nextCursor).toBeUndefined();
      }),
      { numRuns: 200 },
    );
  });

  it('a PagedList serves the pages and cursors paginate serves', () => {
    fc.assert(
      fc.property(items, pageSize, (list, size) => {
        const paged = new PagedList(list, keyOf);
        expect(allPages((cursor) => paged.page(cursor, size))).toStrictEqual(
          allPages((cursor) => paginate(list, keyOf, cursor, size)),
        );
      }),
      { numRuns: 200 },
    );
  });

  it('pageWhere serves every visible item exactly once, in order, and never a hidden one', async () => {
    await fc.assert(
      fc.asyncProperty(items, pageSize, fc.func(fc.boolean()), async (list, size, visible) => {
        const paged = new PagedList(list, keyOf);
        const served: string[] = [];
        let cursor: string | undefined;
        for (let turn = 0; turn <= list.length + 1; turn++) {
          const { page, nextCursor } = await paged.pageWhere(cursor, size, (item) => visible(item));
          served.push(...page);
          if (nextCursor === undefined) break;
          cursor = nextCursor;
        }
        expect(served).toStrictEqual(list.filter((item) => visible(item)));
      }),
      { numRuns: 150 },
    );
  });

  it('after any items are removed, following a cursor never serves an item twice', () => {
    fc.assert(
      fc.property(items, pageSize, fc.func(fc.boolean()), (list, size, removed) => {
        const first = paginate(list, keyOf, undefined, size);
        fc.pre(first.nextCursor !== undefined);
        const kept = list.filter((item) => !removed(item));
        const rest = allPages((cursor) => paginate(kept, keyOf, cursor ?? first.nextCursor, size));
        const served = [...first.page, ...rest.flatMap(({ page }) => page)];
        expect(new Set(served).size).toBe(served.length);
      }),
      { numRuns: 200 },
    );
  });

  // Only the removal of the cursor's item or of later ones: a cursor holds one key and one index, so
  // when items before it go too, the items that moved up past its old index are skipped (by design).
  it("after the cursor's item or later ones are removed, following it serves every item that stayed", () => {
    fc.assert(
      fc.property(items, pageSize, fc.func(fc.boolean()), (list, size, removed) => {
        const first = paginate(list, keyOf, undefined, size);
        fc.pre(first.nextCursor !== undefined);
        const kept = list.filter((item, index) => index < size - 1 || !removed(item));
        const rest = allPages((cursor) => paginate(kept, keyOf, cursor ?? first.nextCursor, size));
        expect(rest.flatMap(({ page }) => page)).toStrictEqual(kept.filter((item) => !first.page.includes(item)));
      }),
      { numRuns: 200 },
    );
  });

  it('any cursor text is either a page or -32602: never another error', () => {
    const base64url = fc.string({
      unit: fc.constantFrom(...'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_'),
      maxLength: 60,
    });
    const payload = fc
      .record(
        {
          v: fc.oneof(fc.constant(1), fc.jsonValue()),
          k: fc.oneof(fc.string(), fc.jsonValue()),
          i: fc.oneof(fc.integer(), fc.double(), fc.jsonValue()),
        },
        { requiredKeys: [] },
      )
      .map((value) => Buffer.from(JSON.stringify(value)).toString('base64url'));
    fc.assert(
      fc.property(
        fc.oneof(fc.string({ unit: codeUnit, maxLength: 40 }), base64url, payload),
        items,
        pageSize,
        (cursor, list, size) => {
          for (const read of [
            () => paginate(list, keyOf, cursor, size),
            () => new PagedList(list, keyOf).page(cursor, size),
          ]) {
            try {
              const { page } = read();
              expect(page.length).toBeLessThanOrEqual(size);
            } catch (error) {
              expect(error).toBeInstanceOf(JsonRpcError);
              expect((error as JsonRpcError).code).toBe(ErrorCode.InvalidParams);
            }
          }
        },
      ),
      { numRuns: 200 },
    );
  });

  it('a page size that is not a positive integer is refused with TypeError, whatever the cursor', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.integer({ max: 0 }),
          fc.double().filter((n) => !Number.isSafeInteger(n)),
        ),
        fc.array(fc.string({ maxLength: 4 }), { maxLength: 5 }),
        fc.option(fc.string({ maxLength: 20 }), { nil: undefined }),
        (size, list, cursor) => {
          expect(() => paginate(list, keyOf, cursor, size)).toThrow(TypeError);
          expect(() => new PagedList(list, keyOf).page(cursor, size)).toThrow(TypeError);
        },
      ),
      { numRuns: 100 },
    );
  });
});
