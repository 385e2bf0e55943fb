/** How often a report may be made at most. */
const EVERY_MS = 1_000;

/**
 * Counts occurrences of something that may happen thousands of times a second (a refusal under a
 * flood) and reports them at most once a second, with how many there were since the last report:
 * the first at once, the others with the next one past the second.
 */
export class RateLimitedReport {
  private since = 0;
  private last = -Infinity;

  constructor(private readonly report: (count: number) => void) {}

  refuse(): void {
    this.since++;
    const now = performance.now();
    if (now - this.last < EVERY_MS) return;
    this.last = now;
    const count = this.since;
    this.since = 0;
    this.report(count);
  }
}
