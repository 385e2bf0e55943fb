/**
 * Child process entry of a catalogue server (tools/list benchmark): starts it, tells the parent its
 * URL and the CPU its bootstrap took, then reports its CPU use and guard counts, times the encoding of
 * one full listing, and stops when asked.
 */
import { startCatalogue } from './servers/mcp42-catalogue.js';
import type { CatalogueCommand, CatalogueReport, CatalogueVariant } from './targets.js';

function report(message: CatalogueReport): void {
  process.send!(message);
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

/** Median time of `runs` encodings of every page, each as the JSON-RPC response the server sends. */
function serializeMs(pages: readonly object[], runs: number): number {
  const times: number[] = [];
  for (let run = 0; run < runs; run++) {
    const started = performance.now();
    for (const result of pages) JSON.stringify({ jsonrpc: '2.0', id: 1, result });
    times.push(performance.now() - started);
  }
  times.sort((a, b) => a - b);
  return times[Math.floor(times.length / 2)]!;
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
    } else if (command.type === 'serialize') {
      void server.pages().then((pages) => report({ type: 'serialize', ms: serializeMs(pages, command.runs) }));
    } else if (command.type === 'stop') {
      void server.close().finally(() => process.disconnect());
    }
  });
  report({ type: 'ready', url: server.url, bootCpuMs });
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
