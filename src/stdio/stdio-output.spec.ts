import { PassThrough } from 'node:stream';
import { notificationMessage } from '../protocol/json-rpc.codec.js';
import { StdioOutput, type LineSink } from './stdio-output.js';

/** A pipe whose reader stopped: it takes writes, says it is full, and flushes only when told. */
class StalledSink implements LineSink {
  // A stream, for its events only: the output listens on it for 'drain' and 'error'.
  readonly stream = new PassThrough();
  private readonly held: (() => void)[] = [];

  write(_chunk: string, callback: (error?: Error | null) => void): boolean {
    this.held.push(() => callback());
    return false;
  }

  flush(): void {
    for (const done of this.held.splice(0)) done();
    this.stream.emit('drain');
  }
}

describe('StdioOutput', () => {
  it('counts what waits unflushed in messages and in characters, so a stalled reader is bounded by both', () => {
    const sink = new StalledSink();
    const reports: [number, number][] = [];
    let blocked = 0;
    const output = new StdioOutput(sink, {
      blocked: () => blocked++,
      drained: () => undefined,
      pending: (count, chars) => reports.push([count, chars]),
      broken: () => undefined,
    });
    const big = notificationMessage('notifications/message', { level: 'info', data: 'x'.repeat(1024 * 1024) });
    const line = JSON.stringify(big).length;

    expect(output.send(big)).toBe(true);
    expect(output.send(big)).toBe(true);
    expect(reports).toEqual([
      [1, line],
      [2, 2 * line],
    ]);
    expect(blocked).toBe(1);

    sink.flush();
    expect(reports.at(-1)).toEqual([0, 0]);
    expect(output.pending).toBe(0);
  });
});
