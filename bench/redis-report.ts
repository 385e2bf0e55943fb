import type { LoadSettings } from './load.js';
import type { RedisEventFigures } from './redis-events.js';
import type { RedisLoadFigures } from './redis-loads.js';
import type { RedisSessionFigures } from './redis-sessions.js';
import type { RedisMemory } from './redis-stats.js';
import { compareFigures, type SessionFigures } from './report.js';
import { RATE_CONNECTIONS } from './session-rate.js';
import { REDIS_LOADS, type RedisLoadName } from './targets.js';

export interface RedisResults {
  readonly settings: LoadSettings;
  /** `redis_version` of the redis-server the part started. */
  readonly version: string;
  /** Where Redis, the second instance and the proxy ran. */
  readonly placement: string;
  /** Whether the two instances share a core (or the machine has too few to give them one each). */
  readonly instancesShareCore: boolean;
  readonly loads: ReadonlyMap<RedisLoadName, RedisLoadFigures>;
  readonly sessions: RedisSessionFigures;
  /** The in-memory mcp42 (Express) session figures, and where they come from. */
  readonly inMemorySessions: SessionFigures & { readonly count: number; readonly source: string };
  readonly events: RedisEventFigures;
}

const pad = (value: string, width: number): string => value.padEnd(width);
const num = (value: number | undefined, digits: number, width: number): string =>
  (value === undefined || !Number.isFinite(value) ? 'n/a' : value.toFixed(digits)).padStart(width);
const bytes = ({ used, stored }: RedisMemory): string =>
  `used_memory ${signed(used)} B (${signed(stored)} B less client buffers)`;
const signed = (value: number): string => `${value >= 0 ? '+' : ''}${value.toFixed(0)}`;

/** The redis part's tables: echo loads with Redis state next to in memory, then sessions and stored events in Redis. */
export function formatRedisResults(results: RedisResults): string {
  const { settings, loads, sessions, inMemorySessions: memory, events } = results;
  const reused = [...loads.values()].some((figures) => figures.fromLoadPart);
  const lines = [
    `redis: 2025 session tools/call echo with sessions in Redis (redis-server ${results.version}, one for the part, ` +
      `the sample's redisState), ${settings.connections} connections, ${settings.warmupSeconds} s warm-up + ` +
      `${settings.durationSeconds} s measured per load (in ${settings.rounds} turns), each load on server processes of its own;`,
    `  ${results.placement}`,
    '  µs/req: CPU (user + system) per request of the server processes (both instances for 2), of the proxy, of redis-server;',
    "  Redis cmds/req: commands it processed per request (those inside mcp42's Lua scripts counted); both Redis figures",
    "  include its background work (the instances' leases and batched activity writes, its own cron): the in-memory",
    '  loads, which send it nothing, show how much',
    ...(reused ? ['  "in memory" rows marked * come from the load part of this run (not measured again here)'] : []),
    '',
    `${pad('load', 44)}${'req/s'.padStart(9)}${'p50 ms'.padStart(8)}${'p99 ms'.padStart(8)}` +
      `${'server µs/req'.padStart(15)}${'proxy µs/req'.padStart(14)}${'Redis µs/req'.padStart(14)}` +
      'Redis cmds/req'.padStart(16) +
      `${'requests'.padStart(10)}  errors`,
  ];
  for (const group of ['express', 'fastify'] as const) {
    const members = [...loads].filter(([name]) => REDIS_LOADS[name].group === group);
    if (members.length === 0) continue;
    lines.push(group === 'express' ? 'Express' : 'Fastify');
    for (const [name, figures] of members) {
      const errors = figures.errors + figures.non2xx + figures.mismatches;
      const detail =
        errors > 0 ? ` (socket ${figures.errors}, non-2xx ${figures.non2xx}, wrong body ${figures.mismatches})` : '';
      const label = `${REDIS_LOADS[name].label}${figures.fromLoadPart ? ' *' : ''}`;
      lines.push(
        `  ${pad(label, 42)}${num(figures.reqPerSec, 0, 9)}${num(figures.p50Ms, 2, 8)}${num(figures.p99Ms, 2, 8)}` +
          `${num(figures.cpuMicrosPerRequest, 0, 15)}${num(figures.proxyMicrosPerRequest, 0, 14)}` +
          `${num(figures.redisMicrosPerRequest, 1, 14)}${num(figures.redisCommandsPerRequest, 3, 16)}` +
          `${String(figures.requests).padStart(10)}  ${errors}${detail}`,
      );
    }
  }

  const ratio = (a: RedisLoadName, b: RedisLoadName): string | undefined => {
    const [x, y] = [loads.get(a), loads.get(b)];
    return x && y ? compareFigures(x, y) : undefined;
  };
  const crossing = results.instancesShareCore
    ? 'the instances and the proxy share a core: the cost of crossing instances, not a speed-up'
    : 'each instance on a core of its own';
  const ratios: [string, string | undefined][] = [
    ['Express: Redis / in memory (target >= 0.7x)', ratio('mcp42-redis', 'mcp42')],
    ['Fastify: Redis / in memory (target >= 0.7x)', ratio('mcp42-fastify-redis', 'mcp42-fastify')],
    ['Express: 1 instance behind the proxy / direct (the proxy)', ratio('mcp42-redis-proxied', 'mcp42-redis')],
    ['Express: 2 instances / 1 instance, both behind the proxy', ratio('mcp42-redis-2', 'mcp42-redis-proxied')],
  ];
  lines.push('', 'ratios of req/s (in brackets the range of the per-round ratios), and by server CPU per request:');
  for (const [label, value] of ratios) if (value !== undefined) lines.push(`  ${pad(label, 58)}${value}`);
  lines.push(`  (2 instances: round robin sends each request to the other instance; ${crossing})`);

  lines.push(
    '',
    `sessions with Redis state: one instance (Express); ${sessions.count} idle sessions (initialize + ` +
      `notifications/initialized each), then ${sessions.count} more initialize requests over ${RATE_CONNECTIONS} ` +
      `keep-alive connections; in memory: ${memory.source} (${memory.count} sessions)`,
    `  sessions created per second   Redis ${num(sessions.perSecond, 0, 6)}   in memory ${num(memory.perSecond, 0, 6)}` +
      `   (${(sessions.perSecond / memory.perSecond).toFixed(2)}x); redis-server CPU ${sessions.redisMicrosPerSession.toFixed(0)} µs and ` +
      `${sessions.redisCommandsPerSession.toFixed(1)} commands (inside scripts counted) per session created`,
    `  instance heap per idle session   Redis ${num(sessions.heapPerSession / 1024, 2, 6)} KB (cached)   ` +
      `in memory ${num(memory.bytesPerSession / 1024, 2, 6)} KB`,
    `  Redis per idle session: ${bytes(sessions.memoryPerSession)}; MEMORY USAGE of one record ` +
      `${sessions.record.bytes} B (${sessions.record.key}, ${sessions.record.fields} fields; SCAN found ${sessions.records} records)`,
    '',
    `stored events: ${events.sessions} sessions subscribed to every city's forecast, their GET stream open; ` +
      `refresh_forecasts once, then ${events.refreshesAtOnce} at once, each storing ${events.eventsPerRefresh} ` +
      `notifications/resources/updated per session (${events.dataChars} chars of data each); stream nodes of at most ` +
      `${events.node.bytes} B or ${events.node.entries} entries`,
    `  a session's first ${events.eventsPerRefresh} events (its stream created): MEMORY USAGE of its stream ` +
      `${events.firstEvents.streamBytes} B; per session ${bytes(events.firstEvents.perSession)}`,
    `  per event after that (${events.events} events): MEMORY USAGE of the streams ${signed(events.bytesPerEvent)} B; ` +
      bytes(events.memoryPerEvent),
  );
  return lines.join('\n');
}
