import type { Agent } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import {
  deleteSession,
  ECHO_ARGS,
  isResult,
  keepAlive,
  modernCallBody,
  modernCallHeaders,
  openGetStream,
  openSession,
  post,
  sessionCallBody,
  sessionHeaders,
  type Reply,
} from './client.js';
import type { ServerStats } from './protocol.js';
import type { SoakChild } from './soak-child.js';
import { log, pollUntil } from './util.js';

/** What each client does, with its weight. */
const ACTIONS = {
  'session echo (JSON)': 30,
  'session progress (SSE)': 12,
  'stateless echo': 25,
  'stateless progress (SSE)': 8,
  'GET stream opened, dropped': 10,
  'session call aborted': 6,
  'stateless call aborted': 6,
  'broadcast to every session': 1,
  'session deleted / abandoned': 2,
} as const;
export type ActionName = keyof typeof ACTIONS;

export interface ActionCounts {
  ok: number;
  failed: number;
  aborted: number;
}

export interface MixedFigures {
  readonly seconds: number;
  readonly clients: number;
  readonly actions: Readonly<Record<ActionName, ActionCounts>>;
  readonly sessionsOpened: number;
  readonly maxLiveSessions: number;
  readonly peakHeapUsed: number;
  readonly baseline: ServerStats;
  readonly after: ServerStats;
  readonly quiescent: boolean;
  readonly quiescenceSeconds: number;
}

const TOTAL_WEIGHT = Object.values(ACTIONS).reduce((sum, weight) => sum + weight, 0);

function pickAction(): ActionName {
  let roll = Math.random() * TOTAL_WEIGHT;
  for (const [name, weight] of Object.entries(ACTIONS) as [ActionName, number][]) {
    roll -= weight;
    if (roll < 0) return name;
  }
  return 'session echo (JSON)';
}

const between = (low: number, high: number): number => low + Math.floor(Math.random() * (high - low + 1));

/** One client of the mix: its own session (renewed now and then) on its own keep-alive connection. */
class MixedClient {
  private sessionId: string | undefined;
  private token = 0;

  constructor(
    private readonly url: string,
    private readonly agent: Agent,
    private readonly counts: Record<ActionName, ActionCounts>,
    private readonly onSessionOpened: () => void,
  ) {}

  async run(until: () => boolean): Promise<void> {
    while (!until()) {
      const action = pickAction();
      const counts = this.counts[action];
      try {
        const outcome = await this.perform(action);
        if (outcome === 'aborted') counts.aborted++;
        else if (outcome) counts.ok++;
        else counts.failed++;
      } catch {
        counts.failed++;
        // A broken session (ended under us, e.g. idle while a GET was being dropped): take a new one.
        this.sessionId = undefined;
        await sleep(5);
      }
    }
    if (this.sessionId !== undefined && Math.random() < 0.5) {
      await deleteSession(this.agent, this.url, this.sessionId).catch(() => undefined);
    }
  }

  private async session(): Promise<string> {
    if (this.sessionId === undefined) {
      this.sessionId = await openSession(this.agent, this.url);
      this.onSessionOpened();
    }
    return this.sessionId;
  }

  private async perform(action: ActionName): Promise<boolean | 'aborted'> {
    const ok = (reply: Reply | 'aborted'): boolean | 'aborted' => (reply === 'aborted' ? reply : isResult(reply));
    const progressArgs = { steps: between(2, 5), delayMs: between(1, 10) };
    switch (action) {
      case 'session echo (JSON)':
        return ok(
          await post(this.agent, this.url, sessionHeaders(await this.session()), sessionCallBody('echo', ECHO_ARGS)),
        );
      case 'session progress (SSE)': {
        const body = sessionCallBody('progress', progressArgs, `p${++this.token}`);
        const reply = await post(this.agent, this.url, sessionHeaders(await this.session()), body);
        return reply !== 'aborted' && reply.contentType.startsWith('text/event-stream') && isResult(reply);
      }
      case 'stateless echo':
        return ok(await post(this.agent, this.url, modernCallHeaders('echo'), modernCallBody('echo', ECHO_ARGS)));
      case 'stateless progress (SSE)': {
        const body = modernCallBody('progress', progressArgs, `m${++this.token}`);
        const reply = await post(this.agent, this.url, modernCallHeaders('progress'), body);
        return reply !== 'aborted' && reply.contentType.startsWith('text/event-stream') && isResult(reply);
      }
      case 'GET stream opened, dropped': {
        const stream = await openGetStream(this.url, await this.session(), false);
        await sleep(between(20, 300));
        stream.req.destroy();
        return true;
      }
      case 'session call aborted': {
        const body = sessionCallBody('progress', { steps: 10, delayMs: 20 }, `a${++this.token}`);
        return ok(await post(this.agent, this.url, sessionHeaders(await this.session()), body, between(1, 150)));
      }
      case 'stateless call aborted': {
        const body = modernCallBody('progress', { steps: 10, delayMs: 20 }, `b${++this.token}`);
        return ok(await post(this.agent, this.url, modernCallHeaders('progress'), body, between(1, 150)));
      }
      case 'broadcast to every session':
        return ok(
          await post(
            this.agent,
            this.url,
            sessionHeaders(await this.session()),
            sessionCallBody('broadcast', { count: 3, text: 'news' }),
          ),
        );
      case 'session deleted / abandoned': {
        const id = this.sessionId;
        this.sessionId = undefined;
        if (id === undefined) return true;
        // Half are deleted, half left to the idle sweep.
        if (Math.random() < 0.5) return (await deleteSession(this.agent, this.url, id)) < 300;
        return true;
      }
    }
  }
}

/** Runs `clients` mixed clients for `ms`; returns per-action counts. */
async function runMix(
  url: string,
  clients: number,
  ms: number,
  onSessionOpened: () => void,
): Promise<Record<ActionName, ActionCounts>> {
  const counts = Object.fromEntries(
    Object.keys(ACTIONS).map((name) => [name, { ok: 0, failed: 0, aborted: 0 }]),
  ) as Record<ActionName, ActionCounts>;
  const deadline = performance.now() + ms;
  const agents = Array.from({ length: clients }, () => keepAlive(1));
  await Promise.all(
    agents.map((agent) =>
      new MixedClient(url, agent, counts, onSessionOpened).run(() => performance.now() >= deadline),
    ),
  );
  for (const agent of agents) agent.destroy();
  return counts;
}

/**
 * Waits until the server is quiet: no sessions, no connections, and the active resources the same
 * in two samples a second apart.
 */
async function quiesce(child: SoakChild, timeoutMs: number): Promise<{ reached: boolean; seconds: number }> {
  const started = performance.now();
  let previous = '';
  const { reached } = await pollUntil(
    child,
    (stats) => {
      const shape = JSON.stringify(stats.resources);
      const steady = shape === previous;
      previous = shape;
      return stats.sessions === 0 && stats.connections === 0 && steady;
    },
    timeoutMs,
    1_000,
  );
  return { reached, seconds: (performance.now() - started) / 1000 };
}

/**
 * Part 3: `clients` clients mixing 2025 session calls (JSON, and SSE with progress), stateless
 * 2026-07-28 calls, GET streams opened and dropped, calls aborted mid-request, sessions deleted or
 * abandoned, for `minutes`; then the server, quiet again, against its baseline (taken after a short
 * warm-up of the same mix, quiet too).
 */
export async function runMixedPhase(
  child: SoakChild,
  minutes: number,
  clients: number,
  idleMs: number,
): Promise<MixedFigures> {
  const quietTimeoutMs = idleMs * 3 + 30_000;
  await runMix(child.url, clients, 3_000, () => undefined);
  await quiesce(child, quietTimeoutMs);
  const baseline = await child.stats(true);

  log(`mixed: ${clients} clients for ${minutes} min`);
  let sessionsOpened = 0;
  let maxLiveSessions = 0;
  let peakHeapUsed = baseline.heapUsed;
  let sampling = true;
  const sampler = (async () => {
    while (sampling) {
      const stats = await child.stats(false);
      peakHeapUsed = Math.max(peakHeapUsed, stats.heapUsed);
      maxLiveSessions = Math.max(maxLiveSessions, stats.sessions);
      await sleep(1_000);
    }
  })();
  const started = performance.now();
  const actions = await runMix(child.url, clients, minutes * 60_000, () => sessionsOpened++);
  const seconds = (performance.now() - started) / 1000;
  sampling = false;
  await sampler;

  log('mixed: load stopped; waiting for quiescence');
  const quiet = await quiesce(child, quietTimeoutMs);
  const after = await child.stats(true);
  return {
    seconds,
    clients,
    actions,
    sessionsOpened,
    maxLiveSessions,
    peakHeapUsed,
    baseline,
    after,
    quiescent: quiet.reached,
    quiescenceSeconds: quiet.seconds,
  };
}
