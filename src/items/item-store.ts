import type { Observable } from 'rxjs';
import { ChangeBurst } from './change-burst.js';
import { PagedList, type Page } from '../protocol/pagination.js';

/**
 * The items of one kind an application serves (tools, resources, resource templates, prompts), by
 * key, in registration order: what every store of items shares. Items can be added, removed, disabled and
 * enabled while the application runs; each burst of changes to the served set emits once on
 * {@link changes}, after the burst, so a feature flag flipping ten items is one `list_changed`.
 */
export class ItemStore<T> {
  private readonly items = new Map<string, T>();
  private readonly disabled = new Set<string>();
  /** The served items and their paging index, prepared on first use after each change. */
  private served: { readonly list: PagedList<T>; readonly items: readonly T[] } | undefined;

  /**
   * @param keyOf the item's unique key (a tool's name, a resource's URI).
   * @param onDuplicate builds the error thrown when a key is taken: from the item there and the newcomer.
   * @param burst where changes are announced: shared by catalogues whose changes clients hear as one
   *   list (resources and resource templates).
   */
  constructor(
    private readonly keyOf: (item: T) => string,
    private readonly onDuplicate: (existing: T, added: T) => Error,
    private readonly burst = new ChangeBurst(),
  ) {}

  /** Emits once per burst of changes to the served set, after the burst. */
  get changes(): Observable<void> {
    return this.burst.changes;
  }

  /** Items registered, enabled or not. */
  get size(): number {
    return this.items.size;
  }

  /** @throws the `onDuplicate` error when the key is taken. */
  add(item: T): void {
    const key = this.keyOf(item);
    if (this.items.has(key)) throw this.onDuplicate(this.items.get(key)!, item);
    this.items.set(key, item);
    this.touch();
  }

  /** @returns whether there was such an item. */
  remove(key: string): boolean {
    if (!this.items.delete(key)) return false;
    if (!this.disabled.delete(key)) this.touch();
    return true;
  }

  /** @returns whether the item exists. */
  disable(key: string): boolean {
    if (!this.items.has(key)) return false;
    if (!this.disabled.has(key)) {
      this.disabled.add(key);
      this.touch();
    }
    return true;
  }

  /** @returns whether the item exists. */
  enable(key: string): boolean {
    if (!this.items.has(key)) return false;
    if (this.disabled.delete(key)) this.touch();
    return true;
  }

  /** Whether an item with this key exists, enabled or not. */
  has(key: string): boolean {
    return this.items.has(key);
  }

  /** Whether an item exists and is served. */
  isEnabled(key: string): boolean {
    return this.items.has(key) && !this.disabled.has(key);
  }

  /** The item with this key, enabled or not. */
  find(key: string): T | undefined {
    return this.items.get(key);
  }

  /** The served item with this key. */
  get(key: string): T | undefined {
    return this.disabled.has(key) ? undefined : this.items.get(key);
  }

  /** Every item registered, enabled or not, in registration order (a snapshot). */
  registeredItems(): readonly T[] {
    return [...this.items.values()];
  }

  /** The served items, in registration order (a snapshot, prepared once per change). */
  servedItems(): readonly T[] {
    return this.paged().items;
  }

  /**
   * One page of the served items a caller may see, after `cursor`. The list is prepared once per
   * change, so a page costs the visibility checks of its items.
   */
  page(
    cursor: string | undefined,
    pageSize: number,
    visible: (item: T) => boolean | Promise<boolean>,
  ): Promise<Page<T>> {
    return this.paged().list.pageWhere(cursor, pageSize, visible);
  }

  /** Stops emitting changes (the application is shutting down). */
  complete(): void {
    this.burst.complete();
  }

  private paged(): { readonly list: PagedList<T>; readonly items: readonly T[] } {
    if (!this.served) {
      const items = Object.freeze([...this.items.values()].filter((item) => !this.disabled.has(this.keyOf(item))));
      this.served = { list: new PagedList(items, this.keyOf), items };
    }
    return this.served;
  }

  private touch(): void {
    this.served = undefined;
    this.burst.touch();
  }
}
