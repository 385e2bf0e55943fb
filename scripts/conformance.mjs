// Runs the official MCP conformance suite (@modelcontextprotocol/conformance) against the fixture
// app in test/conformance, built to dist/ by `npm run build` (`npm run conformance` does both).
//
// Starts the fixture on a free loopback port, waits until it answers, runs
// `conformance server --suite all --expected-failures test/conformance/expected-failures.yml`,
// streams its output and exits with its exit code. The fixture is stopped in every case: success,
// failure, timeout (CONFORMANCE_TIMEOUT_MS, default 10 minutes) and SIGINT/SIGTERM/SIGHUP.
//
// Extra arguments are passed to the CLI, e.g. `npm run conformance -- --scenario tools-list`.
// Per-scenario checks are written to conformance-results/ (the suite summary does not print them).

import { spawn } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createServer } from 'node:net';
import { dirname, join, resolve } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const HOST = '127.0.0.1';
const FIXTURE = join(ROOT, 'dist', 'test', 'conformance', 'main.js');
const EXPECTED_FAILURES = join(ROOT, 'test', 'conformance', 'expected-failures.yml');
const OUTPUT_DIR = join(ROOT, 'conformance-results');
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

/** Starts `node <args>` in its own process group so the whole group can be killed. */
function start(name, args, env = process.env) {
  const child = spawn(process.execPath, args, {
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
    if (exited) throw new Error('the fixture exited before answering');
    if (await answers(url)) return;
    await sleep(100);
  }
  throw new Error(`the fixture did not answer at ${url} within ${STARTUP_TIMEOUT_MS / 1000} s`);
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
  const cli = conformanceCli();
  const port = await freePort();
  const url = `http://${HOST}:${port}/mcp`;

  log(`starting the fixture on ${url}`);
  const server = start('fixture', [FIXTURE], { ...process.env, PORT: String(port) });
  try {
    await waitUntilUp(url, server);
  } catch (error) {
    log(error.message);
    return finish(1);
  }

  const args = ['server', '--url', url, '--suite', 'all', '--expected-failures', EXPECTED_FAILURES];
  args.push('-o', OUTPUT_DIR, ...process.argv.slice(2));
  log(`running @modelcontextprotocol/conformance@${cli.version}: conformance ${args.join(' ')}`);
  const suite = start('conformance', [cli.path, ...args]);
  const outcome = await Promise.race([
    suite.exited.then((result) => ({ from: 'suite', ...result })),
    server.exited.then((result) => ({ from: 'fixture', ...result })),
  ]);
  clearTimeout(timer);
  if (finishing) return; // a signal or the timeout is already stopping everything

  if (outcome.from === 'fixture') {
    log(`the fixture exited during the run (code ${outcome.code}, signal ${outcome.signal})`);
    return finish(1);
  }
  const code = outcome.code ?? 128 + (SIGNAL_NUMBERS[outcome.signal] ?? 9);
  log(`suite exited with code ${code}; checks per scenario are in ${OUTPUT_DIR}`);
  return finish(code);
}

main().catch((error) => {
  log(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
  void finish(1);
});
