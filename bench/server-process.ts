/**
 * Child process entry: starts one target server, tells the parent its URL, then answers heap and
 * CPU questions and stops when asked. One process per server keeps heaps and GC apart.
 */
import type { BenchServer } from './servers/bench-server.js';
import type { ChildCommand, ChildReport, TargetName } from './targets.js';

const starters: Record<TargetName, () => Promise<BenchServer>> = {
  mcp42: async () => (await import('./servers/mcp42.js')).startMcp42('express'),
  'mcp42-fastify': async () => (await import('./servers/mcp42.js')).startMcp42('fastify'),
  'mcp42-echo': async () => (await import('./servers/mcp42-echo.js')).startMcp42Echo('express'),
  'mcp42-echo-fastify': async () => (await import('./servers/mcp42-echo.js')).startMcp42Echo('fastify'),
  'mcp42-redis': async () => (await import('./servers/mcp42.js')).startMcp42('express', 'redis'),
  'mcp42-otel-nosdk': async () =>
    (await import('./servers/mcp42.js')).startMcp42('express', 'memory', () => Promise.resolve()),
  'mcp42-otel-noop': async () => (await import('./servers/mcp42-otel.js')).startMcp42Otel('noop'),
  'mcp42-otel-otlp': async () => (await import('./servers/mcp42-otel.js')).startMcp42Otel('otlp'),
  'mcp42-otel-otlp-proto': async () => (await import('./servers/mcp42-otel.js')).startMcp42Otel('otlp-proto'),
  'mcp42-fastify-redis': async () => (await import('./servers/mcp42.js')).startMcp42('fastify', 'redis'),
  'round-robin-proxy': async () => (await import('./servers/round-robin.js')).startRoundRobin(),
  'bare-nest': async () => (await import('./servers/bare-nest.js')).startBareNest('express'),
  'bare-nest-fastify': async () => (await import('./servers/bare-nest.js')).startBareNest('fastify'),
  'bare-nest-otel-noop': async () => (await import('./servers/bare-nest-otel.js')).startBareNestOtel('noop'),
  'bare-nest-otel-otlp': async () => (await import('./servers/bare-nest-otel.js')).startBareNestOtel('otlp'),
  'sdk-express': async () => (await import('./servers/sdk-express.js')).startSdkExpress(),
  'sdk-node': async () => (await import('./servers/sdk-node.js')).startSdkNode(),
  'sdk2-node': async () => (await import('./servers/sdk2-node.js')).startSdk2Node(),
};

/** heapUsed once garbage is gone: several full GCs, with turns of the event loop between them. */
async function settledHeapUsed(): Promise<number> {
  const collect = globalThis.gc;
  if (!collect) throw new Error('server-process needs --expose-gc');
  for (let i = 0; i < 6; i++) {
    collect();
    await new Promise((resolve) => setImmediate(resolve));
  }
  return process.memoryUsage().heapUsed;
}

function report(message: ChildReport): void {
  process.send!(message);
}

async function main(): Promise<void> {
  const name = process.argv[2] as TargetName;
  const start = starters[name];
  if (!start) throw new Error(`unknown target ${name}`);
  const server = await start();
  process.on('message', (command: ChildCommand) => {
    if (command.type === 'heap') {
      void settledHeapUsed().then((heapUsed) => report({ type: 'heap', heapUsed, sessions: server.sessionCount() }));
    } else if (command.type === 'usage') {
      const { user, system } = process.cpuUsage();
      report({ type: 'usage', cpuMicros: user + system });
    } else if (command.type === 'stop') {
      void server.close().finally(() => process.disconnect());
    }
  });
  // A parent that dies (a pipe closed on it, Ctrl-C) must not leave this server running.
  process.once('disconnect', () => void server.close().finally(() => process.exit(0)));
  report({ type: 'ready', url: server.url });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
