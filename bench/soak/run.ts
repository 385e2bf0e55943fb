/**
 * `npm run soak`: long-running checks of mcp42 under churn, each against a fresh server process (a
 * minimal McpModule app, bench/soak/fixture.ts, on Express, with a short session idle timeout) that
 * reports its heap after forced GCs, live sessions, active handles and listeners over IPC:
 *
 * 1. SOAK_SESSIONS (default 100000) sessions opened by raw `initialize` POSTs and left to the idle
 *    sweep: heap baseline, peak, and after they all expired (within 5 % of baseline or not).
 * 2. SOAK_STALLED (default 1000) sessions whose GET stream is never read while a tool broadcasts
 *    notifications to every session (`McpSessionRegistry.notifyAll`): heap before, during and after,
 *    how many stalled sessions the outbox limit ended, and echo latency of a normal client meanwhile.
 * 3. SOAK_MINUTES (default 10) of mixed load (2025 session calls, JSON and SSE with progress;
 *    stateless 2026-07-28 calls; GET streams opened and dropped; requests aborted mid-way; sessions
 *    deleted or abandoned), then, once quiet, heap, active resources and listeners against baseline.
 *
 * Figures are printed, never asserted. Other settings: SOAK_IDLE_MS (sessionIdleTimeoutMs, default
 * 2000), SOAK_CONCURRENCY (initialize POSTs in flight, default 64), SOAK_STALL_ROUND (notifications
 * per broadcast round, default 200), SOAK_STALL_BYTES (text per notification, default 512),
 * SOAK_STALL_SECONDS (longest broadcast, default 300; 1000 stalled
 * readers on loopback take about 150 s, each connection's kernel buffers holding several MB), SOAK_CLIENTS (mixed clients, default 16),
 * SOAK_PARTS (default "sessions,stall,mixed"), SOAK_OUTBOX (the server's outboxLimit, mcp42's
 * default 1000 unless set). Progress goes to stderr, the tables to stdout.
 *
 * Variants of the stall part: SOAK_STALL_READERS `sessions` (default: 2025 GET streams) or `listen`
 * (2026-07-28 `subscriptions/listen` streams, sent resource updates of SOAK_STALL_BYTES-long URIs);
 * SOAK_STALL_STATE `memory` (default) or `redis`: a redis-server of the bench's own and two instances
 * sharing state through it, the stalled readers and the normal client on one, the broadcasts made on
 * the other (they reach the first through Redis). The figures are the first instance's; the second
 * and redis-server share the load generator's core, when the bench pins.
 */
import { RedisServer } from '../../test/utils/redis-server.js';
import { CLIENT_CPU, pinned, pinProcess, placement, SERVER_CPU } from '../affinity.js';
import { redisPid } from '../redis-stats.js';
import { runMixedPhase } from './mixed-phase.js';
import { formatMixed, formatSessions, formatStall } from './report.js';
import { runSessionsPhase } from './sessions-phase.js';
import { SoakChild } from './soak-child.js';
import { runStallPhase } from './stall-phase.js';
import { envNumber, log, seconds } from './util.js';

const PARTS = ['sessions', 'stall', 'mixed'] as const;

async function withChild<T>(
  idleMs: number,
  work: (child: SoakChild) => Promise<T>,
  extraEnv: NodeJS.ProcessEnv = {},
  cpu = SERVER_CPU,
): Promise<T> {
  const env: NodeJS.ProcessEnv = { SOAK_IDLE_MS: String(idleMs), ...extraEnv };
  const child = await SoakChild.start(env, cpu);
  try {
    return await work(child);
  } finally {
    await child.stop();
  }
}

/**
 * Two instances sharing state through a redis-server of their own: `work(first, second)`. The second
 * (the broadcaster) shares the load generator's core, as another machine would not take the first's,
 * at the lowest priority: on another machine it would not take the load generator's or Redis' either
 * (on two cores, the normal client's figures otherwise measure how much CPU the broadcaster left it).
 */
async function withRedisPair<T>(idleMs: number, work: (first: SoakChild, second: SoakChild) => Promise<T>): Promise<T> {
  const redis = await RedisServer.start();
  try {
    if (pinned()) pinProcess(await redisPid(redis), CLIENT_CPU);
    const env = { SOAK_REDIS_URL: redis.url };
    return await withChild(
      idleMs,
      (first) =>
        withChild(
          idleMs,
          (second) => {
            second.yieldCpu();
            return work(first, second);
          },
          env,
          CLIENT_CPU,
        ),
      env,
    );
  } finally {
    await redis.stop();
  }
}

async function main(): Promise<void> {
  const sessions = envNumber('SOAK_SESSIONS', 100_000, 1);
  const minutes = envNumber('SOAK_MINUTES', 10);
  const idleMs = envNumber('SOAK_IDLE_MS', 2_000, 100);
  const concurrency = envNumber('SOAK_CONCURRENCY', 64, 1);
  const stalled = envNumber('SOAK_STALLED', 1_000, 1);
  const perRound = envNumber('SOAK_STALL_ROUND', 200, 1);
  const payloadBytes = envNumber('SOAK_STALL_BYTES', 512);
  const stallSeconds = envNumber('SOAK_STALL_SECONDS', 300, 1);
  const clients = envNumber('SOAK_CLIENTS', 16, 1);
  const parts = (process.env.SOAK_PARTS ?? PARTS.join(',')).split(',').map((part) => part.trim());
  for (const part of parts) {
    if (!(PARTS as readonly string[]).includes(part)) throw new Error(`SOAK_PARTS: unknown part ${part}`);
  }

  const started = performance.now();
  const output: string[] = [
    `mcp42 soak — Node ${process.version}, ${placement()}`,
    `sessionIdleTimeoutMs ${idleMs} (sweep every ${Math.min(Math.max(idleMs / 4, 1_000), 60_000)} ms), ` +
      `outboxLimit ${process.env.SOAK_OUTBOX ?? '1000 (default)'}`,
  ];
  if (parts.includes('sessions')) {
    const figures = await withChild(idleMs, (child) => runSessionsPhase(child, sessions, concurrency, idleMs));
    output.push(formatSessions(figures));
    log(`sessions part done (${seconds(started)})`);
  }
  if (parts.includes('stall')) {
    // A broadcast round to a thousand stalled streams takes seconds: the sessions driving it must not
    // idle out meanwhile (a running call alone does not keep a session alive).
    const stallIdleMs = Math.max(idleMs, 60_000);
    const readers = process.env.SOAK_STALL_READERS === 'listen' ? 'listen' : 'sessions';
    const figures =
      process.env.SOAK_STALL_STATE === 'redis'
        ? await withRedisPair(stallIdleMs, (child, other) =>
            runStallPhase(child, stalled, perRound, payloadBytes, stallSeconds, stallIdleMs, {
              readers,
              broadcastFrom: other,
            }),
          )
        : await withChild(stallIdleMs, (child) =>
            runStallPhase(child, stalled, perRound, payloadBytes, stallSeconds, stallIdleMs, { readers }),
          );
    output.push(formatStall(figures));
    log(`stall part done (${seconds(started)})`);
  }
  if (parts.includes('mixed') && minutes > 0) {
    const figures = await withChild(idleMs, (child) => runMixedPhase(child, minutes, clients, idleMs));
    output.push(formatMixed(figures));
    log(`mixed part done (${seconds(started)})`);
  }
  output.push(`\ntotal ${seconds(started)}`);
  console.log(output.join('\n'));
}

main().catch((error: unknown) => {
  console.error(error);
  process.exitCode = 1;
});
