/**
 * Child process entry of a catalogue server (tools/list benchmark): starts it, tells the parent its
 * URL and the CPU its bootstrap took, then reports its CPU use and guard counts, times one listing
 * in-process (computing the pages, encoding them), and stops when asked.
 */
import { encodeResponseInParts } from '../src/protocol/json-rpc.codec.js';
import { startCatalogue, type CatalogueServer } from './servers/mcp42-catalogue.js';
import type { CatalogueCommand, CatalogueReport, CatalogueVariant, ProfileRuns } from './targets.js';

function report(message: CatalogueReport): void {
  process.send!(message);
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** The median time of `runs` runs of `work`, after a few unmeasured ones. */
async function medianMs(runs: number, work: () => unknown): Promise<number> {
  for (let run = 0; run < 3; run++) await work();
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    await work();
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
}

/**
 * One full listing, computed, then encoded as the responses the server sends (by the same function),
 * then encoded whole by JSON.stringify (what every listing cost before its pages were kept encoded).
 */
async function profile(server: CatalogueServer, runs: ProfileRuns): Promise<CatalogueReport> {
  const listMs = await medianMs(runs.list, () => server.listPages());
  const pages = await server.listPages();
  const encodeMs = await medianMs(runs.encode, () => {
    for (const result of pages) encodeResponseInParts({ jsonrpc: '2.0', id: 1, result });
  });
  const stringifyMs = await medianMs(runs.encode, () => {
    for (const result of pages) JSON.stringify({ jsonrpc: '2.0', id: 1, result });
  });
  return { type: 'profile', listMs, encodeMs, stringifyMs };
}

async function main(): Promise<void> {
  const variant = JSON.parse(process.argv[2]!) as CatalogueVariant;
  const before = cpuMicros();
  const server = await startCatalogue(variant);
  const bootCpuMs = (cpuMicros() - before) / 1000;
  process.on('message', (command: CatalogueCommand) => {
    if (command.type === 'usage') {
      const { mcp, http } = server.guardChecks();
      report({ type: 'usage', cpuMicros: cpuMicros(), mcpGuardChecks: mcp, httpGuardChecks: http });
    } else if (command.type === 'profile') {
      void profile(server, command.runs).then(report);
    } else if (command.type === 'stop') {
      void server.close().finally(() => process.disconnect());
    }
  });
  // A parent that dies without asking (an error, a closed pipe) must not leave the server running.
  process.once('disconnect', () => void server.close().finally(() => process.exit(0)));
  report({ type: 'ready', url: server.url, bootCpuMs });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
