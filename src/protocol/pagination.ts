import { invalidParams } from './json-rpc.errors.js';

/** One page of a list, and the cursor of the next page when there is one. */
export interface Page<T> {
  readonly page: T[];
  /** Absent on the last page. */
  readonly nextCursor?: string;
}

/** What a cursor says: the key and the index of the last item the previous page served. */
interface CursorPayload {
  readonly v: typeof CURSOR_VERSION;
  readonly k: string;
  readonly i: number;
}

const CURSOR_VERSION = 1;

/** Finds the index of the item with `key`, `-1` when there is none. */
type KeyLookup = (key: string) => number;

/**
 * Pages `items` in order, for list methods such as `tools/list`.
 *
 * The cursor is opaque to clients and stable across changes of the list: the next page starts after the
 * item the cursor names, wherever that item has moved; if it was removed, at the position it had.
 * When nothing changed, every item is served exactly once. Keys should be unique; with duplicates, a
 * changed list continues after the first item with the cursor's key.
 *
 * Finding a moved item scans the list; a list that is paged many times between changes should be
 * wrapped once in a {@link PagedList} instead.
 *
 * @param items The whole list, in the order clients see it.
 * @param keyOf The stable identity of an item (a tool's name, a resource's URI).
 * @param cursor The `cursor` param of the request; `undefined` for the first page.
 * @param pageSize The most items a page holds: a positive integer.
 * @throws JsonRpcError (invalid params) when `cursor` is not one this function issued.
 * @throws TypeError when `pageSize` is not a positive integer.
 *
 * @example
 * ```ts
 * const { page, nextCursor } = paginate(tools, (tool) => tool.name, params.cursor, 50);
 * return nextCursor === undefined ? { tools: page } : { tools: page, nextCursor };
 * ```
 */
export function paginate<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  cursor: string | undefined,
  pageSize: number,
): Page<T> {
  return pageOf(items, keyOf, (key) => items.findIndex((item) => keyOf(item) === key), cursor, pageSize);
}

/**
 * A list prepared for paging: the key of every item is computed once, so that finding where a cursor
 * points costs a map look-up however often the list is paged. Build one per change of the list.
 *
 * Pages, cursors and errors are those of {@link paginate}; cursors of both are interchangeable.
 *
 * @example
 * ```ts
 * this.paged ??= new PagedList(this.definitions(), (tool) => tool.name);
 * const { page, nextCursor } = this.paged.page(params.cursor, 50);
 * ```
 */
export class PagedList<T> {
  private readonly items: readonly T[];
  private readonly keyOf: (item: T) => string;
  /** Key → index of its first item, like the scan of {@link paginate} finds it. */
  private readonly indexByKey = new Map<string, number>();

  /** Copies `items`, so that later changes to the caller's array cannot desynchronise the index. */
  constructor(items: readonly T[], keyOf: (item: T) => string) {
    this.items = [...items];
    this.keyOf = keyOf;
    this.items.forEach((item, index) => {
      const key = keyOf(item);
      if (!this.indexByKey.has(key)) this.indexByKey.set(key, index);
    });
  }

  /** How many items the list holds. */
  get size(): number {
    return this.items.length;
  }

  /**
   * The page that follows `cursor` (the first page when it is `undefined`).
   *
   * @throws JsonRpcError (invalid params) when `cursor` is not one {@link paginate} or a `PagedList` issued.
   * @throws TypeError when `pageSize` is not a positive integer.
   */
  page(cursor: string | undefined, pageSize: number): Page<T> {
    return pageOf(this.items, this.keyOf, (key) => this.indexByKey.get(key) ?? -1, cursor, pageSize);
  }

  /**
   * The page of items that pass `include` and follow `cursor`: for lists whose items some callers
   * may not see. Items are judged in batches of `pageSize`, in parallel within a batch, and only as
   * far as the page needs. The cursor names the last item served, so hidden items never show in
   * it; the last page may come back empty when only hidden items followed.
   *
   * @throws JsonRpcError (invalid params) when `cursor` is not one this module issued.
   * @throws TypeError when `pageSize` is not a positive integer.
   */
  async pageWhere(
    cursor: string | undefined,
    pageSize: number,
    include: (item: T) => boolean | Promise<boolean>,
  ): Promise<Page<T>> {
    checkPageSize(pageSize);
    const { items, keyOf } = this;
    let next =
      cursor === undefined
        ? 0
        : startAfter(items, keyOf, (key) => this.indexByKey.get(key) ?? -1, decodeCursor(cursor));
    const page: T[] = [];
    let last = -1;
    while (page.length < pageSize && next < items.length) {
      const batch = items.slice(next, next + pageSize);
      const verdicts = await Promise.all(batch.map((item) => include(item)));
      for (let offset = 0; offset < batch.length && page.length < pageSize; offset++) {
        if (verdicts[offset]) {
          page.push(batch[offset]!);
          last = next + offset;
        }
      }
      next = page.length < pageSize ? next + batch.length : last + 1;
    }
    if (page.length < pageSize || last === items.length - 1) return { page };
    return { page, nextCursor: encodeCursor({ v: CURSOR_VERSION, k: keyOf(items[last]!), i: last }) };
  }
}

function checkPageSize(pageSize: number): void {
  if (!Number.isSafeInteger(pageSize) || pageSize < 1) {
    throw new TypeError(`pageSize must be a positive integer, got ${String(pageSize)}`);
  }
}

function pageOf<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  indexOf: KeyLookup,
  cursor: string | undefined,
  pageSize: number,
): Page<T> {
  checkPageSize(pageSize);
  const start = cursor === undefined ? 0 : startAfter(items, keyOf, indexOf, decodeCursor(cursor));
  const end = Math.min(start + pageSize, items.length);
  const page = items.slice(start, end);
  if (end >= items.length) return { page };
  return { page, nextCursor: encodeCursor({ v: CURSOR_VERSION, k: keyOf(items[end - 1]), i: end - 1 }) };
}

function startAfter<T>(
  items: readonly T[],
  keyOf: (item: T) => string,
  indexOf: KeyLookup,
  { k, i }: CursorPayload,
): number {
  // When the list did not change, the item is where the cursor says: no look-up, and exact even
  // when keys repeat.
  if (i < items.length && keyOf(items[i]) === k) return i + 1;
  const found = indexOf(k);
  if (found >= 0) return found + 1;
  // The item is gone: what followed it has moved up into its place, so that is where the next page starts.
  return Math.min(i, items.length);
}

function encodeCursor(payload: CursorPayload): string {
  const bytes = new TextEncoder().encode(JSON.stringify(payload));
  let binary = '';
  for (const byte of bytes) binary += String.fromCharCode(byte);
  return btoa(binary).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

const BASE64URL = /^[A-Za-z0-9_-]+$/;

function decodeCursor(cursor: string): CursorPayload {
  let value: unknown;
  try {
    // A type check, not an assumption: the cursor arrives in JSON params that nothing else has vetted.
    if (typeof cursor !== 'string' || !BASE64URL.test(cursor)) throw new Error();
    const binary = atob(cursor.replace(/-/g, '+').replace(/_/g, '/'));
    const bytes = Uint8Array.from(binary, (char) => char.charCodeAt(0));
    value = JSON.parse(new TextDecoder('utf-8', { fatal: true }).decode(bytes));
  } catch {
    throw invalidCursor();
  }
  if (!isCursorPayload(value)) throw invalidCursor();
  return value;
}

function isCursorPayload(value: unknown): value is CursorPayload {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const { v, k, i, ...rest } = value as Record<string, unknown>;
  return (
    v === CURSOR_VERSION &&
    typeof k === 'string' &&
    typeof i === 'number' &&
    Number.isSafeInteger(i) &&
    i >= 0 &&
    Object.keys(rest).length === 0
  );
}

const invalidCursor = () => invalidParams('invalid cursor');
