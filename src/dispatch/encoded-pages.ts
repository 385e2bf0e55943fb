import { withKnownJson } from '../protocol/known-json.js';

/** How many different pages (visibility classes) are kept per place in a list. */
const CLASSES_PER_START = 8;
/** JSON kept per list, in bytes: past it, everything kept is dropped and built again. */
const MAX_BYTES = 32 * 1024 * 1024;

/**
 * The pages of one list (its items' definitions) already served, each encoded once: a page costs
 * a `JSON.stringify` the first time it is served, and a write of its bytes afterwards (see
 * `withKnownJson`).
 *
 * A page is kept by where it starts (the cursor it follows) and by exactly which definitions it
 * holds: callers whose guards let them see the same items there share it (one visibility class);
 * callers who see others get a page of their own. Definitions are deep-frozen, so a page of the
 * same definitions is the same JSON. Everything kept is dropped when the list changes (`revision`,
 * the catalogue's snapshot of served items, is new after every change), and bounded: at most
 * CLASSES_PER_START pages per start, MAX_BYTES of JSON in all.
 */
export class EncodedPages<D extends object> {
  private revision: object | undefined;
  private readonly byStart = new Map<string, KeptPage<D>[]>();
  private bytes = 0;

  /**
   * The page holding `definitions`, encoded: the one kept, or this one, now kept.
   * @param revision the list as it is now (any change gives a new one).
   * @param start the cursor the page follows, `undefined` for the first page.
   * @returns a frozen array of the same definitions, whose JSON text is known.
   */
  page(revision: object, start: string | undefined, definitions: readonly D[]): readonly D[] {
    if (revision !== this.revision) this.reset(revision);
    const key = start ?? '';
    const kept = this.byStart.get(key)?.find(({ items }) => sameItems(items, definitions));
    if (kept) return kept.items;
    let json: string;
    try {
      json = JSON.stringify(definitions);
    } catch {
      // Not encodable (a definition the checks let through with a BigInt...): served as before, and
      // encoding the response fails the way it always did.
      return definitions;
    }
    const { value: items, bytes } = withKnownJson(Object.freeze([...definitions]), json);
    if (this.bytes + bytes > MAX_BYTES) this.reset(revision);
    let pages = this.byStart.get(key);
    if (!pages) this.byStart.set(key, (pages = []));
    if (pages.length >= CLASSES_PER_START) this.bytes -= pages.shift()!.bytes;
    pages.push({ items, bytes });
    this.bytes += bytes;
    return items;
  }

  private reset(revision: object): void {
    this.revision = revision;
    this.byStart.clear();
    this.bytes = 0;
  }
}

/** A page kept: its definitions (frozen, their JSON known), and how many bytes that JSON has. */
interface KeptPage<D> {
  readonly items: readonly D[];
  readonly bytes: number;
}

function sameItems<D>(a: readonly D[], b: readonly D[]): boolean {
  if (a.length !== b.length) return false;
  for (let index = 0; index < a.length; index++) if (a[index] !== b[index]) return false;
  return true;
}
