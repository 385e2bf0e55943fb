import { setTimeout as sleep } from 'node:timers/promises';
import { initializeHeaders, INITIALIZE_BODY, keepAlive, post } from './client.js';
import type { ServerStats } from './protocol.js';
import type { SoakChild } from './soak-child.js';
import { log, pollUntil, runPool, seconds } from './util.js';

export interface SessionsFigures {
  readonly requested: number;
  readonly created: number;
  readonly failed: number;
  readonly createSeconds: number;
  readonly maxLive: number;
  readonly expiredWithin: number | undefined;
  readonly baseline: ServerStats;
  /** Highest heapUsed sampled (no GC) while sessions were created and expiring. */
  readonly peakHeapUsed: number;
  readonly after: ServerStats;
}

/**
 * Part 1: `count` sessions, each one raw `initialize` POST on keep-alive connections (`concurrency`
 * at a time) and then left alone, so that the idle sweep ends them all. Heap before (after a warm-up
 * whose sessions expired too), its peak, and after they all expired, each settled by forced GCs.
 */
export async function runSessionsPhase(
  child: SoakChild,
  count: number,
  concurrency: number,
  idleMs: number,
): Promise<SessionsFigures> {
  const expiryTimeoutMs = idleMs * 3 + 30_000;
  const createAll = async (total: number, onProgress?: () => void): Promise<{ created: number; failed: number }> => {
    const agent = keepAlive(concurrency);
    let created = 0;
    let failed = 0;
    await runPool(total, concurrency, async (index) => {
      try {
        const reply = await post(agent, child.url, initializeHeaders(), INITIALIZE_BODY);
        if (reply !== 'aborted' && reply.status === 200 && reply.sessionId !== undefined) created++;
        else failed++;
      } catch {
        failed++;
      }
      if (index % 10_000 === 9_999) onProgress?.();
    });
    agent.destroy();
    return { created, failed };
  };

  // Warm-up: the code paths run (lazy initialisation, JIT) and their sessions expire before the baseline.
  await createAll(Math.min(2_000, Math.max(100, Math.floor(count / 20))));
  await pollUntil(child, (stats) => stats.sessions === 0, expiryTimeoutMs);
  await sleep(200);
  const baseline = await child.stats(true);
  log(`sessions: baseline heap taken; creating ${count} sessions, ${concurrency} at a time`);

  let peakHeapUsed = baseline.heapUsed;
  let maxLive = 0;
  const sample = (stats: ServerStats): void => {
    peakHeapUsed = Math.max(peakHeapUsed, stats.heapUsed);
    maxLive = Math.max(maxLive, stats.sessions);
  };
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      sample(await child.stats(false));
      await sleep(250);
    }
  })();
  const started = performance.now();
  const { created, failed } = await createAll(count, () => log(`sessions: ${seconds(started)} in`));
  const createSeconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;
  log(`sessions: ${created} created (${failed} failed) in ${createSeconds.toFixed(1)} s; waiting for expiry`);

  const createdAt = performance.now();
  const expiry = await pollUntil(child, (stats) => stats.sessions === 0, expiryTimeoutMs, 250, sample);
  const expiredWithin = expiry.reached ? (performance.now() - createdAt) / 1000 : undefined;
  await sleep(200);
  const after = await child.stats(true);
  return { requested: count, created, failed, createSeconds, maxLive, expiredWithin, baseline, peakHeapUsed, after };
}
