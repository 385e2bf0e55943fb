/**
 * Child process entry of the items benchmark: starts the fixture server or a server of generated
 * resource templates, tells the parent its URL and the CPU its bootstrap took, then reports its CPU
 * use, times template compilation, registration and resolution in-process (template servers), and
 * stops when asked.
 */
import { McpResourceTemplateRegistry } from '../src/index.js';
import { UriTemplate } from '../src/resources/uri-template.js';
import { ResourceStore } from '../src/resources/resource.store.js';
import { Schemas } from '../src/schemas/schemas.js';
import { ItemVariables } from './servers/items-dtos.js';
import { startItems } from './servers/mcp42-items.js';
import { startTemplates, templateOptions, templateRead, type TemplatesServer } from './servers/mcp42-templates.js';
import {
  benchUriTemplate,
  lastTemplateUri,
  type ItemsCommand,
  type ItemsReport,
  type ItemsServerSpec,
} from './targets.js';

/**
 * Timed runs of a whole compilation or registration: at least this many, and for at least this long.
 * No unmeasured runs first: the server's bootstrap ran the same code on the same templates already.
 */
const MIN_RUNS = 3;
const MIN_PROFILE_MS = 300;
/** A resolution is timed in batches that take about this long each; the median batch is reported. */
const BATCH_MS = 5;
const BATCHES = 41;

function report(message: ItemsReport): void {
  process.send!(message);
}

function cpuMicros(): number {
  const { user, system } = process.cpuUsage();
  return user + system;
}

const median = (values: number[]): number => values.sort((a, b) => a - b)[Math.floor(values.length / 2)]!;

/** The median time of one run of `work`. */
function medianMs(work: () => void): number {
  const times: number[] = [];
  const started = performance.now();
  while (times.length < MIN_RUNS || performance.now() - started < MIN_PROFILE_MS) {
    const runStarted = performance.now();
    work();
    times.push(performance.now() - runStarted);
  }
  return median(times);
}

/** µs per call of a quick `work`: batches sized to take about BATCH_MS each, the median batch. */
function microsPerCall(work: () => void): number {
  let size = 0;
  const calibrating = performance.now();
  while (performance.now() - calibrating < BATCH_MS) {
    work();
    size++;
  }
  const perCall: number[] = [];
  for (let batch = 0; batch < BATCHES; batch++) {
    const started = performance.now();
    for (let call = 0; call < size; call++) work();
    perCall.push(((performance.now() - started) * 1000) / size);
  }
  return median(perCall);
}

function profile(server: TemplatesServer, count: number): ItemsReport {
  const uri = lastTemplateUri(count);
  const expected = benchUriTemplate(count - 1);
  const resolved = server.resources.resolve(uri);
  if (resolved?.kind !== 'template' || resolved.template.definition.uriTemplate !== expected) {
    throw new Error(`${uri} resolved to ${JSON.stringify(resolved?.kind)}, not ${expected}`);
  }
  const resolveMicros = microsPerCall(() => server.resources.resolve(uri));
  const compileMs = medianMs(() => {
    for (let index = 0; index < count; index++) new UriTemplate(benchUriTemplate(index));
  });
  // A fresh registry and schema cache each run: the variables DTO is converted, and its validator built,
  // once per run, as at a bootstrap.
  const registerMs = medianMs(() => {
    const registry = new McpResourceTemplateRegistry(new ResourceStore(new Schemas()));
    for (let index = 0; index < count; index++) {
      registry.add(templateOptions(index), (variables: ItemVariables) => templateRead(index, variables));
    }
  });
  return { type: 'profile', resolveMicros, compileMs, registerMs };
}

async function main(): Promise<void> {
  const spec = JSON.parse(process.argv[2]!) as ItemsServerSpec;
  const before = cpuMicros();
  const server = spec.kind === 'fixture' ? await startItems() : await startTemplates(spec.count);
  const bootCpuMs = (cpuMicros() - before) / 1000;
  process.on('message', (command: ItemsCommand) => {
    if (command.type === 'usage') {
      report({ type: 'usage', cpuMicros: cpuMicros() });
    } else if (command.type === 'profile') {
      if (spec.kind !== 'templates') throw new Error('only a template server is profiled');
      report(profile(server as TemplatesServer, spec.count));
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
