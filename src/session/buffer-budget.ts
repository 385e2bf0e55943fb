/**
 * The characters of server-to-client messages the MCP servers of one application hold, in all
 * (see {@link ApplicationBudget}): events their connections
 * hold back because a client does not read (session streams and 2026-07-28 streams alike), messages
 * waiting for a GET stream, and the default event store's events. Each holder is bounded on its own
 * (`limits.outboxChars`, `resumability.maxEventChars`); the budget bounds their sum, so that a
 * thousand stalled readers cost what the budget allows rather than a thousand times one's share.
 *
 * Past the budget, the holder with the most is relieved, until the sum fits again: the slowest
 * reader pays, nobody else does (a session's connections that hold events back are cut, the
 * client may resume from its stored events; a session that holds no connection back ends). Holders
 * are keyed (a session's id), so that a session's streams and its stored events count as one.
 *
 * Writes on their way to shared state (events to Redis) are reserved rather than held: nothing
 * relieves them but their answer, so a reservation that does not fit once the holders are relieved
 * is refused, and the write not made.
 */
export class BufferBudget {
  private total = 0;
  private readonly held = new Map<string, { chars: number; readonly relieve: () => void }>();
  private relieving = false;
  private reserved = 0;

  /** @param limit characters at most, in all. */
  constructor(private max: number) {}

  /** Characters at most, in all. */
  get limit(): number {
    return this.max;
  }

  /** Characters held and reserved, in all. */
  get used(): number {
    return this.total;
  }

  /** Characters reserved by writes on their way (see {@link reserve}). */
  get reservedChars(): number {
    return this.reserved;
  }

  /** Lowers the limit (another server of the application asks less), relieving holders to fit. */
  tighten(limit: number): void {
    if (limit >= this.max) return;
    this.max = limit;
    if (this.total > this.max) this.shed();
  }

  /**
   * Reserves `chars` for a write on its way (an event to shared state), relieving holders to make
   * room.
   * @returns the release, to call once when the write is done (either way); undefined when the
   *   reservation does not fit even then: the write is not to be made.
   */
  reserve(chars: number): (() => void) | undefined {
    if (chars <= 0) return () => undefined;
    // What reservations alone exceed, relieving holders cannot make room for: nobody is cut for nothing.
    if (this.reserved + chars > this.max) return undefined;
    this.total += chars;
    this.reserved += chars;
    if (this.total > this.max) this.shed();
    if (this.total > this.max) {
      this.total -= chars;
      this.reserved -= chars;
      return undefined;
    }
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.total -= chars;
      this.reserved -= chars;
    };
  }

  /** Characters one holder holds. */
  heldBy(key: string): number {
    return this.held.get(key)?.chars ?? 0;
  }

  /**
   * The holder `key` holds `delta` more characters (fewer when negative).
   * @param relieve frees what the holder holds, should the budget need it; the first one given for a key is kept.
   */
  charge(key: string, delta: number, relieve: () => void): void {
    const holder = this.held.get(key);
    const current = holder?.chars ?? 0;
    // A release that comes after the holder was relieved has nothing left to release.
    const next = Math.max(0, current + delta);
    if (next === current) return;
    if (next === 0) this.held.delete(key);
    else if (holder) holder.chars = next;
    else this.held.set(key, { chars: next, relieve });
    this.total += next - current;
    if (this.total > this.max) this.shed();
  }

  /** A holder holds nothing any more. */
  forget(key: string): void {
    const holder = this.held.get(key);
    if (!holder) return;
    this.held.delete(key);
    this.total -= holder.chars;
  }

  private shed(): void {
    // Relieving a holder releases its charges, which comes back here: one pass at a time.
    if (this.relieving) return;
    this.relieving = true;
    try {
      while (this.total > this.max && this.held.size > 0) {
        let largest: string | undefined;
        let most = -1;
        for (const [key, holder] of this.held) {
          if (holder.chars > most) {
            most = holder.chars;
            largest = key;
          }
        }
        const holder = this.held.get(largest!)!;
        try {
          holder.relieve();
        } catch {
          // Counted out below: a holder that cannot be relieved must not stop the others being.
        }
        // Relieving releases through charge(); one that freed nothing is counted out, so the loop ends.
        if (this.heldBy(largest!) >= most) this.forget(largest!);
      }
    } finally {
      this.relieving = false;
    }
  }
}
