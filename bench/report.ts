import type { LoadFigures, LoadSettings } from './load.js';
import { RATE_CONNECTIONS } from './session-rate.js';
import { TARGETS, type TargetName } from './targets.js';

export interface SessionFigures {
  readonly bytesPerSession: number;
  readonly perSecond: number;
}

export interface BenchResults {
  readonly settings: LoadSettings;
  readonly sessionCount: number;
  readonly load: ReadonlyMap<TargetName, LoadFigures>;
  readonly sessions: ReadonlyMap<TargetName, SessionFigures>;
}

const pad = (value: string, width: number): string => value.padEnd(width);
const num = (value: number, digits: number, width: number): string => value.toFixed(digits).padStart(width);

/** The closing table: load figures per target, ratios, then session memory and creation rate. */
export function formatResults(results: BenchResults): string {
  const { settings, load, sessions } = results;
  const lines = [
    `tools/call echo {"text":"hello"}: ${settings.connections} connections, pipelining ${settings.pipelining}, ` +
      `${settings.warmupSeconds} s warm-up + ${settings.durationSeconds} s measured per target ` +
      `(in ${settings.rounds} turns), each server in its own process`,
    '',
    `${pad('target', 40)}${'req/s'.padStart(10)}${'p50 ms'.padStart(9)}${'p99 ms'.padStart(9)}${'requests'.padStart(10)}  errors`,
  ];
  for (const [name, figures] of load) {
    const errors = figures.errors + figures.non2xx + figures.mismatches;
    const detail =
      errors > 0 ? ` (socket ${figures.errors}, non-2xx ${figures.non2xx}, wrong body ${figures.mismatches})` : '';
    lines.push(
      `${pad(TARGETS[name], 40)}${num(figures.reqPerSec, 1, 10)}${num(figures.p50Ms, 2, 9)}${num(figures.p99Ms, 2, 9)}` +
        `${String(figures.requests).padStart(10)}  ${errors}${detail}`,
    );
  }
  const mcp42 = load.get('mcp42');
  if (mcp42) {
    const ratio = (other: TargetName): string => {
      const figures = load.get(other);
      return figures ? `${(mcp42.reqPerSec / figures.reqPerSec).toFixed(2)}x` : 'n/a';
    };
    lines.push(
      '',
      `mcp42 / bare Nest route: ${ratio('bare-nest')}   (target >= 0.80x)`,
      `mcp42 / official SDK (Express): ${ratio('sdk-express')}   mcp42 / official SDK (node:http): ${ratio('sdk-node')}   (target > 1x)`,
    );
  }
  lines.push(
    '',
    `heap: ${results.sessionCount} idle sessions (initialize + notifications/initialized each), forced GC before and after`,
    `rate: ${results.sessionCount} more initialize requests over ${RATE_CONNECTIONS} keep-alive connections`,
  );
  for (const [name, figures] of sessions) {
    lines.push(
      `  ${pad(TARGETS[name], 38)} heap per idle session ${num(figures.bytesPerSession / 1024, 2, 7)} KB` +
        `   sessions created per second ${num(figures.perSecond, 0, 6)}`,
    );
  }
  return lines.join('\n');
}
