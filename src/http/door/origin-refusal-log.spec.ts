import { jest } from '@jest/globals';
import { OriginRefusalLog } from './origin-refusal-log.js';

describe('OriginRefusalLog', () => {
  afterEach(() => jest.useRealTimers());

  const host = (value: string) => ({ message: 'Forbidden: Host not allowed', value, option: 'allowedHosts' as const });

  it('logs a value once, ten lines a minute at most, and starts afresh once full so a flood hides nothing for good', () => {
    jest.useFakeTimers({ now: 1_000_000 });
    const lines: string[] = [];
    const log = new OriginRefusalLog({ warn: (line: unknown) => void lines.push(String(line)) });
    log.note(host('a.example'));
    log.note(host('a.example'));
    expect(lines).toHaveLength(1);
    // A flood of distinct values: ten lines a minute, over the minutes it takes to remember 256.
    for (let minute = 0; minute < 30; minute++) {
      for (let n = 0; n < 20; n++) log.note(host(`flood-${minute}-${n}.example`));
      jest.advanceTimersByTime(60_000);
    }
    expect(lines.length).toBeLessThanOrEqual(1 + 10 * 30);
    // Once 256 values are remembered, a later window forgets them: a real misconfiguration shows.
    const before = lines.length;
    log.note(host('mcp.example.com'));
    expect(lines.slice(before)).toEqual([expect.stringContaining('"mcp.example.com"')]);
  });
});
