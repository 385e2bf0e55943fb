import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerStats } from './protocol.js';
import type { SoakChild } from './soak-child.js';

export function envNumber(name: string, fallback: number, min = 0): number {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value < min) throw new Error(`${name} must be a number >= ${min}`);
  return value;
}

/** Runs `task(index)` for indexes 0..count-1, at most `concurrency` at a time. */
export async function runPool(
  count: number,
  concurrency: number,
  task: (index: number) => Promise<void>,
): Promise<void> {
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) await task(next++);
  };
  await Promise.all(Array.from({ length: Math.min(concurrency, count) }, worker));
}

/**
 * Polls the server (without GC) every `everyMs` until `done(stats)` or `timeoutMs`; returns the last
 * stats and whether `done` held. `onStats` sees every sample (for peaks).
 */
export async function pollUntil(
  child: SoakChild,
  done: (stats: ServerStats) => boolean,
  timeoutMs: number,
  everyMs = 250,
  onStats?: (stats: ServerStats) => void,
): Promise<{ stats: ServerStats; reached: boolean }> {
  const deadline = performance.now() + timeoutMs;
  for (;;) {
    const stats = await child.stats(false);
    onStats?.(stats);
    if (done(stats)) return { stats, reached: true };
    if (performance.now() >= deadline) return { stats, reached: false };
    await sleep(everyMs);
  }
}

export const mb = (bytes: number): string => `${(bytes / 1024 / 1024).toFixed(1)} MB`;

export const seconds = (since: number): string => `${((performance.now() - since) / 1000).toFixed(1)} s`;

/** "+3.2 %" of `after` against `before`. */
export function change(before: number, after: number): string {
  const percent = ((after - before) / before) * 100;
  return `${percent >= 0 ? '+' : ''}${percent.toFixed(1)} %`;
}

export function log(line: string): void {
  console.error(`[soak] ${line}`);
}
