/** One event of the input: a complete line, or a line that went past the limit (dropped unread). */
export type LineEvent = { readonly kind: 'line'; readonly text: string } | { readonly kind: 'too-long' };

const NEWLINE = 0x0a;

/**
 * Splits stdin into newline-delimited messages without ever holding more than `maxBytes` of one:
 * a line that grows past the limit is reported once and its bytes dropped up to its newline, so a
 * client (or a bug) sending an endless line costs bounded memory. Lines are decoded as UTF-8 only
 * once whole, so a character split between two chunks stays whole.
 */
export class LineReader {
  private parts: Buffer[] = [];
  private size = 0;
  /** Dropping the rest of a line that went past the limit, up to its newline. */
  private skipping = false;

  constructor(private readonly maxBytes: number) {}

  /** The events `chunk` completes, in order. */
  push(chunk: Buffer): LineEvent[] {
    const events: LineEvent[] = [];
    let start = 0;
    while (start <= chunk.length) {
      const newline = chunk.indexOf(NEWLINE, start);
      const end = newline === -1 ? chunk.length : newline;
      const piece = chunk.subarray(start, end);
      if (this.skipping) {
        if (newline !== -1) this.skipping = false;
      } else if (this.size + piece.length > this.maxBytes) {
        events.push({ kind: 'too-long' });
        this.reset();
        this.skipping = newline === -1;
      } else if (newline === -1) {
        if (piece.length > 0) {
          this.parts.push(piece);
          this.size += piece.length;
        }
      } else {
        this.parts.push(piece);
        const text = Buffer.concat(this.parts, this.size + piece.length).toString('utf8');
        this.reset();
        events.push({ kind: 'line', text });
      }
      if (newline === -1) break;
      start = newline + 1;
    }
    return events;
  }

  /** Bytes of an unfinished line held now (at most `maxBytes`). */
  get buffered(): number {
    return this.size;
  }

  private reset(): void {
    this.parts = [];
    this.size = 0;
  }
}
