/**
 * Soak server process: runs the soak fixture (see fixture.ts), tells the parent its URL, then answers
 * `stats` (heap after forced GCs or as it is, live sessions, active handles, listeners) and `stop`.
 * Needs `--expose-gc`.
 */
import type { EventEmitter } from 'node:events';
import { fixtureSettingsFromEnv, startSoakFixture } from './fixture.js';
import type { ServerStats, SoakCommand, SoakReport } from './protocol.js';

/** heapUsed once garbage is gone: several full GCs, with turns of the event loop between them. */
async function collectGarbage(): Promise<void> {
  const collect = globalThis.gc;
  if (!collect) throw new Error('the soak server process needs --expose-gc');
  for (let i = 0; i < 6; i++) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
}

function listenerCounts(emitter: EventEmitter): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const name of emitter.eventNames()) counts[String(name)] = emitter.listenerCount(name);
  return counts;
}

function countByType(types: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const type of types) counts[type] = (counts[type] ?? 0) + 1;
  return counts;
}

function report(message: SoakReport): void {
  process.send!(message);
}

async function main(): Promise<void> {
  const fixture = await startSoakFixture(fixtureSettingsFromEnv());
  const connections = (): Promise<number> =>
    new Promise((resolve) => fixture.httpServer.getConnections((error, count) => resolve(error ? -1 : count)));

  const stats = async (gc: boolean): Promise<ServerStats> => {
    if (gc) await collectGarbage();
    const memory = process.memoryUsage();
    const { user, system } = process.cpuUsage();
    return {
      heapUsed: memory.heapUsed,
      heapTotal: memory.heapTotal,
      rss: memory.rss,
      external: memory.external,
      sessions: fixture.sessionCount(),
      listens: fixture.listenCount(),
      streams: fixture.streamCount(),
      resources: countByType(process.getActiveResourcesInfo()),
      serverListeners: listenerCounts(fixture.httpServer),
      processListeners: listenerCounts(process),
      connections: await connections(),
      cpuMicros: user + system,
    };
  };

  process.on('message', (command: SoakCommand) => {
    if (command.type === 'stats') {
      stats(command.gc).then(
        (figures) => report({ type: 'stats', ...figures }),
        (error: unknown) => report({ type: 'error', message: String(error) }),
      );
    } else if (command.type === 'stop') {
      void fixture.close().finally(() => process.disconnect());
    }
  });
  // A parent that dies must not leave this server running.
  process.once('disconnect', () => void fixture.close().finally(() => process.exit(0)));
  report({ type: 'ready', url: fixture.url });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
