import type { Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { LatencyRecorder } from '../latency-recorder.js';
import {
  deleteSession,
  ECHO_ARGS,
  isResult,
  keepAlive,
  openGetStream,
  openListenStream,
  openSession,
  post,
  sessionCallBody,
  sessionHeaders,
  type GetStream,
} from './client.js';
import type { ServerStats } from './protocol.js';
import { SOAK_RESOURCE_PREFIX } from './fixture.js';
import type { SoakChild } from './soak-child.js';
import { log, pollUntil, runPool, seconds } from './util.js';

const ECHO_CLIENTS = 4;
const OPEN_CONCURRENCY = 50;
const LATENCY_WINDOW_MS = 3_000;

export interface EchoFigures {
  readonly ok: number;
  readonly failed: number;
  readonly perSecond: number;
  readonly p50: number;
  readonly p99: number;
  readonly max: number;
}

/** Who stalls, and where the broadcasts come from. */
export interface StallVariant {
  /** `sessions`: 2025 sessions' GET streams; `listen`: 2026-07-28 `subscriptions/listen` streams. */
  readonly readers: 'sessions' | 'listen';
  /** Another instance sharing state (Redis) with the one holding the stalled readers: broadcasts come from it. */
  readonly broadcastFrom?: SoakChild;
}

export interface StallFigures {
  readonly variant: string;
  readonly stalled: number;
  readonly notificationsPerRound: number;
  readonly payloadBytes: number;
  readonly rounds: number;
  readonly notificationsSent: number;
  readonly broadcastSeconds: number;
  /** Stalled sessions the server ended (overflow) before the broadcasts stopped. */
  readonly ended: number;
  readonly allEnded: boolean;
  readonly baseline: ServerStats;
  readonly peakHeapUsed: number;
  readonly peakRss: number;
  /** After forced GCs, in the round where the first stalled session was ended (or at the end). */
  readonly during: ServerStats;
  readonly after: ServerStats;
  readonly afterSettled: boolean;
  readonly echoBefore: EchoFigures;
  readonly echoDuring: EchoFigures;
}

/** Echo calls from `clients` concurrent callers on one session until `stop()`: the normal client's view. */
function echoLoad(agent: Agent, url: string, sessionId: string): { stop(): Promise<EchoFigures> } {
  const latencies = new LatencyRecorder();
  let ok = 0;
  let failed = 0;
  let max = 0;
  let running = true;
  const started = performance.now();
  const worker = async (): Promise<void> => {
    while (running) {
      const sent = performance.now();
      try {
        const reply = await post(agent, url, sessionHeaders(sessionId), sessionCallBody('echo', ECHO_ARGS));
        const ms = performance.now() - sent;
        if (reply !== 'aborted' && isResult(reply)) {
          ok++;
          latencies.add(ms);
          max = Math.max(max, ms);
        } else failed++;
      } catch {
        failed++;
        await sleep(10);
      }
    }
  };
  const workers = Promise.all(Array.from({ length: ECHO_CLIENTS }, worker));
  return {
    async stop(): Promise<EchoFigures> {
      running = false;
      await workers;
      const elapsed = (performance.now() - started) / 1000;
      return { ok, failed, perSecond: ok / elapsed, p50: latencies.percentile(50), p99: latencies.percentile(99), max };
    },
  };
}

/**
 * Part 2: `stalled` sessions each with a GET stream its client never reads; a broadcast tool pushes
 * rounds of `perRound` notifications (`payloadBytes` of text each) to every session while a normal
 * client calls echo. Stops when every stalled session was ended (the outbox limit) or after `maxSeconds`.
 */
export async function runStallPhase(
  child: SoakChild,
  stalled: number,
  perRound: number,
  payloadBytes: number,
  maxSeconds: number,
  idleMs: number,
  variant: StallVariant = { readers: 'sessions' },
): Promise<StallFigures> {
  const agent = keepAlive(OPEN_CONCURRENCY);
  const listen = variant.readers === 'listen';
  const source = variant.broadcastFrom ?? child;
  const text = 'x'.repeat(payloadBytes);
  const uri = `${SOAK_RESOURCE_PREFIX}${text}`;
  // Warm-up: a session, its GET stream, an echo, a small broadcast; all ended again.
  {
    const id = await openSession(agent, child.url);
    const stream = await openGetStream(child.url, id, false);
    await post(agent, child.url, sessionHeaders(id), sessionCallBody('echo', ECHO_ARGS));
    await post(agent, child.url, sessionHeaders(id), sessionCallBody('broadcast', { count: 10, text: 'x' }));
    stream.req.destroy();
    await deleteSession(agent, child.url, id);
    await pollUntil(child, (stats) => stats.sessions === 0 && stats.connections <= OPEN_CONCURRENCY, 10_000);
  }
  const baseline = await child.stats(true);

  log(`stall: opening ${stalled} ${listen ? 'listen streams' : 'sessions with a stalled GET stream'}`);
  const streams: GetStream[] = [];
  const stalledIds: string[] = [];
  await runPool(stalled, OPEN_CONCURRENCY, async () => {
    if (listen) {
      streams.push(await openListenStream(child.url, uri, true));
      return;
    }
    const id = await openSession(agent, child.url);
    stalledIds.push(id);
    streams.push(await openGetStream(child.url, id, true));
  });
  const echoAgent = keepAlive(ECHO_CLIENTS);
  const echoSession = await openSession(echoAgent, child.url);
  // Sessions of the instance that are not stalled readers: the echo client's, and the broadcaster's when it is here.
  const others = variant.broadcastFrom ? 1 : 2;
  // A stalled reader is gone once its session ended or its stream was cut (the budget's first step;
  // with shared state, what follows waits in Redis, not here, so the session need not end).
  const liveOf = (stats: ServerStats): number =>
    listen ? stats.listens : Math.min(stats.sessions - others, stats.streams);

  const warmUp = echoLoad(echoAgent, child.url, echoSession);
  await sleep(1_000);
  await warmUp.stop();
  const before = echoLoad(echoAgent, child.url, echoSession);
  await sleep(LATENCY_WINDOW_MS);
  const echoBefore = await before.stop();
  // Opened now: a session idle for longer than the timeout (as through the window above) is swept.
  const broadcaster = await openSession(agent, source.url);

  log(`stall: broadcasting rounds of ${perRound} notifications of ${payloadBytes} bytes, at most ${maxSeconds} s`);
  let peakHeapUsed = 0;
  let peakRss = 0;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const stats = await child.stats(false);
      peakHeapUsed = Math.max(peakHeapUsed, stats.heapUsed);
      peakRss = Math.max(peakRss, stats.rss);
      await sleep(250);
    }
  })();
  const during = echoLoad(echoAgent, child.url, echoSession);
  const started = performance.now();
  let rounds = 0;
  let notificationsSent = 0;
  let duringStats: ServerStats | undefined;
  let live = stalled;
  while (performance.now() - started < maxSeconds * 1000) {
    const reply = await post(
      agent,
      source.url,
      sessionHeaders(broadcaster),
      sessionCallBody(listen ? 'touch' : 'broadcast', { count: perRound, text }),
    );
    rounds++;
    if (reply === 'aborted' || !isResult(reply)) {
      log(
        `stall: the broadcast failed: ${reply === 'aborted' ? reply : `${reply.status} ${reply.body.slice(0, 200)}`}`,
      );
      break;
    }
    const match = /"text":"(\d+)"/.exec(reply.body);
    notificationsSent += match ? Number(match[1]) : 0;
    const stats = await child.stats(false);
    live = liveOf(stats);
    if (live < stalled && !duringStats) {
      duringStats = await child.stats(true);
      log(`stall: first overflow in round ${rounds} (${seconds(started)}); ${live} stalled sessions left`);
    }
    if (live <= 0) break;
  }
  const broadcastSeconds = (performance.now() - started) / 1000;
  const echoDuring = await during.stop();
  sampling = false;
  await sampler;
  duringStats ??= await child.stats(true);
  log(`stall: ${stalled - live} of ${stalled} stalled sessions ended after ${rounds} rounds; cleaning up`);

  for (const stream of streams) stream.req.destroy();
  // The stalled sessions not ended by overflow (time limit) end here rather than by idling out.
  await runPool(stalledIds.length, OPEN_CONCURRENCY, async (index) => {
    await deleteSession(agent, child.url, stalledIds[index]!);
  });
  await deleteSession(echoAgent, child.url, echoSession);
  await deleteSession(agent, source.url, broadcaster);
  echoAgent.destroy();
  agent.destroy();
  const settled = await pollUntil(
    child,
    (stats) => stats.sessions === 0 && stats.connections === 0,
    idleMs * 3 + 20_000,
    250,
  );
  await sleep(200);
  const after = await child.stats(true);
  return {
    variant: `${listen ? '2026-07-28 listen streams' : '2025 GET streams'}${variant.broadcastFrom ? ', Redis-shared state: broadcasts from another instance' : ', in memory'}`,
    stalled,
    notificationsPerRound: perRound,
    payloadBytes,
    rounds,
    notificationsSent,
    broadcastSeconds,
    ended: stalled - live,
    allEnded: live <= 0,
    baseline,
    peakHeapUsed,
    peakRss,
    during: duringStats,
    after,
    afterSettled: settled.reached,
    echoBefore,
    echoDuring,
  };
}
