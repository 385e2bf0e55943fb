import type { RedisServer } from '../test/utils/redis-server.js';
import { SERVER_CPU } from './affinity.js';
import { ServerChild } from './child.js';
import { keepAliveAgent } from './http-client.js';
import { TargetLoad, type LoadFigures, type LoadSettings } from './load.js';
import { ECHO_BODY, openSession, sampleEcho, sessionHeaders } from './mcp-client.js';
import { redisWork } from './redis-stats.js';
import { IN_MEMORY_REDIS_LOADS, REDIS_LOADS, type LoadName, type RedisLoadName } from './targets.js';

/** Where the extra processes of the redis part run (when pinned). */
export interface RedisPlacement {
  readonly secondInstanceCpu: number;
  readonly proxyCpu: number;
}

export interface RedisLoadFigures extends LoadFigures {
  /**
   * What redis-server spent (user + system) per request over the measured time, µs, and the commands it
   * processed per request (its background work included); none when the load ran in the load part.
   */
  readonly redisMicrosPerRequest?: number;
  readonly redisCommandsPerRequest?: number;
  /** What the proxy process spent per request, µs, for a proxied load. */
  readonly proxyMicrosPerRequest?: number;
  /** Whether this in-memory figure comes from the load part of this run (not measured again here). */
  readonly fromLoadPart?: boolean;
}

/** One load: its server processes (the instances, then the proxy), and the CPU of Redis and of the proxy around each slice. */
class RedisLoadRun {
  private redisMicros = 0;
  private redisCommands = 0;
  private proxyMicros = 0;

  constructor(
    readonly load: TargetLoad,
    readonly children: readonly ServerChild[],
    private readonly redis: RedisServer,
    private readonly proxy: ServerChild | undefined,
  ) {}

  /** One measured slice, with what Redis and the proxy spent meanwhile. */
  async measure(seconds: number): Promise<void> {
    const [redisBefore, proxyBefore] = await this.sideWork();
    await this.load.measure(seconds);
    const [redisAfter, proxyAfter] = await this.sideWork();
    this.redisMicros += redisAfter.cpuMicros - redisBefore.cpuMicros;
    // Less the INFO that read the figures before (counted once it ran).
    this.redisCommands += redisAfter.commands - redisBefore.commands - 1;
    this.proxyMicros += proxyAfter - proxyBefore;
  }

  figures(): RedisLoadFigures {
    const figures = this.load.figures();
    return {
      ...figures,
      redisMicrosPerRequest: this.redisMicros / figures.requests,
      redisCommandsPerRequest: this.redisCommands / figures.requests,
      ...(this.proxy ? { proxyMicrosPerRequest: this.proxyMicros / figures.requests } : {}),
    };
  }

  private sideWork(): Promise<[Awaited<ReturnType<typeof redisWork>>, number]> {
    return Promise.all([redisWork(this.redis), this.proxy?.cpuMicros() ?? 0]);
  }
}

/**
 * The echo loads of REDIS_LOADS as the load part runs its own: each on server processes of its own,
 * all started up front, one 2025 session opened (through the proxy when there is one) and checked,
 * then the measured time split into rounds in which the loads take turns. The in-memory loads the
 * load part measured already are taken from `measured`, not run again.
 * @param env the Redis URL and state secret the Redis-backed servers get.
 */
export async function runRedisLoads(
  settings: LoadSettings,
  redis: RedisServer,
  env: NodeJS.ProcessEnv,
  placement: RedisPlacement,
  measured: ReadonlyMap<LoadName, LoadFigures>,
  log: (line: string) => void,
): Promise<Map<RedisLoadName, RedisLoadFigures>> {
  const reused = new Map<RedisLoadName, RedisLoadFigures>();
  for (const name of IN_MEMORY_REDIS_LOADS) {
    const figures = measured.get(name);
    if (figures) reused.set(name, { ...figures, fromLoadPart: true });
  }
  const runs = new Map<RedisLoadName, RedisLoadRun>();
  try {
    for (const name of Object.keys(REDIS_LOADS) as RedisLoadName[]) {
      if (!reused.has(name)) runs.set(name, await startRun(name, settings, redis, env, placement));
    }
    for (let round = 0; round < settings.rounds; round++) {
      for (const [name, run] of runs) {
        const started = performance.now();
        if (round === 0) await run.load.warmUp();
        await run.measure(settings.durationSeconds / settings.rounds);
        const { group, label } = REDIS_LOADS[name];
        const took = ((performance.now() - started) / 1000).toFixed(1);
        log(`redis round ${round + 1}/${settings.rounds}  ${group}: ${label} (${took} s)`);
      }
    }
    const figures = new Map<RedisLoadName, RedisLoadFigures>();
    for (const name of Object.keys(REDIS_LOADS) as RedisLoadName[]) {
      const found = reused.get(name) ?? runs.get(name)?.figures();
      if (found) figures.set(name, found);
    }
    return figures;
  } finally {
    await Promise.all([...runs.values()].flatMap((run) => run.children.map((child) => child.stop())));
  }
}

/** Starts a load's processes and opens its session; stops the processes again when that fails. */
async function startRun(
  name: RedisLoadName,
  settings: LoadSettings,
  redis: RedisServer,
  env: NodeJS.ProcessEnv,
  placement: RedisPlacement,
): Promise<RedisLoadRun> {
  const { server, instances, proxied } = REDIS_LOADS[name];
  const children: ServerChild[] = [];
  try {
    for (let instance = 0; instance < instances; instance++) {
      const cpu = instance === 0 ? SERVER_CPU : placement.secondInstanceCpu;
      children.push(await ServerChild.start(server, { env, cpu }));
    }
    const servers = [...children];
    let proxy: ServerChild | undefined;
    if (proxied) {
      const targets = servers.map((child) => child.url).join(',');
      proxy = await ServerChild.start('round-robin-proxy', {
        env: { BENCH_PROXY_TARGETS: targets },
        cpu: placement.proxyCpu,
      });
      children.push(proxy);
    }
    const url = proxy?.url ?? servers[0]!.url;
    const agent = keepAliveAgent();
    try {
      // Through the proxy, initialize reaches one instance and notifications/initialized the other.
      const headers = sessionHeaders(await openSession(agent, url));
      const expectBody = await sampleEcho(agent, url, headers);
      const cpu = async (): Promise<number> =>
        (await Promise.all(servers.map((child) => child.cpuMicros()))).reduce((sum, micros) => sum + micros, 0);
      const load = new TargetLoad({ url, headers, body: ECHO_BODY, expectBody }, settings, cpu);
      return new RedisLoadRun(load, children, redis, proxy);
    } finally {
      agent.destroy();
    }
  } catch (error) {
    await Promise.all(children.map((child) => child.stop()));
    throw error;
  }
}
