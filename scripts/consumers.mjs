// The consumer matrix (`npm run test:consumers`, the last step of `npm test`): mcp42 as users get it.
// Packs the package once (`npm pack`, whose prepack makes the published build), then for each app of
// test/consumers/ (Nest 11 and 12, CommonJS and ES modules, Express and Fastify: the variants of
// test/consumers/template/variants.mjs; each app's committed package.json pins its exact versions):
//
//   0. its sources: src/ and tsconfig.json written from the one template (scripts/consumer-apps.mjs),
//      once its package.json was checked to say what its variant says;
//   1. its dependencies: `npm ci` from its committed package-lock.json, only when node_modules is
//      missing or was installed from another package.json/package-lock.json/Node major (a stamp file,
//      node_modules/.mcp42-consumers-stamp, remembers which); node_modules is git-ignored and reused;
//   2. the tarball: `npm install --no-save <tarball>`, every run, as a user installs a package, and
//      npm must not warn of an install script of mcp42 (the published manifest has no scripts);
//   3. its build: the app's own TypeScript (`tsc -p tsconfig.json`), against the published declarations
//      (its spec file included, with its runner's global types);
//   3b. its tests: `npm test` as the app has it, Jest (ts-jest) in the CommonJS apps and Vitest (SWC)
//      in the ES module apps, runs src/echo.kit.spec.ts: a tool behind a token guard, through
//      `mcp42/testing`, in both eras, on an app that never listens, its errors those of the SDK copy
//      the test imports; all of its tests must pass;
//   4. its run: `node dist/main.js` listens on 127.0.0.1:0 and reports itself on one line; the official
//      SDK client (@modelcontextprotocol/sdk v1, from the root's devDependencies) initializes, lists the
//      tools and calls the DTO-argument tool (valid and invalid arguments); one stateless 2026-07-28
//      exchange by fetch (server/discover, then tools/call, with the `_meta` envelope and the mirrored
//      headers); an oversized body must get mcp42's 413 and a malformed one its -32700, a foreign Host
//      403 and TRACE and PROPFIND 405 with Allow; then the app's
//      stdin is closed, it closes the Nest app, and the process must exit on its own, with code 0,
//      having logged nothing but the refused Host (the apps log warnings and errors: mcp42's
//      bootstrap warnings included).
//
// Output: one line per app, `consumers: ✓ <app> ...` or `consumers: ✗ <app>: <what failed>` (with the
// app's output and the failing step's output after it), then `consumers: N passed, M failed` (.ci/run
// adds N and M to its summary as passed and failed scenarios). Exit code 0 only when every app passed.
//
// Bounded in time: each step has its own timeout, and the whole run CONSUMERS_TIMEOUT_MS (default
// 10 minutes; exit code 124). Apps run CONSUMERS_CONCURRENCY at a time (default: the CPUs, at most
// 4). Children run in their own process groups and are killed with them. CONSUMERS_APPS=a,b runs
// only those apps.
/* global fetch, AbortSignal */
import { spawn } from 'node:child_process';
import { createHash } from 'node:crypto';
import { request as httpRequest } from 'node:http';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { availableParallelism, tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { clearTimeout, setTimeout } from 'node:timers';
import { setTimeout as sleep } from 'node:timers/promises';
import { fileURLToPath } from 'node:url';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { CONSUMERS, VARIANTS, variantOf, writeApp } from './consumer-apps.mjs';
import { signalGroup } from './process-group.mjs';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const STAMP = '.mcp42-consumers-stamp';
const TOTAL_TIMEOUT_MS = Number(process.env.CONSUMERS_TIMEOUT_MS ?? 10 * 60_000);
const CONCURRENCY = Math.max(1, Number(process.env.CONSUMERS_CONCURRENCY ?? Math.min(4, availableParallelism())));
const TIMEOUTS = {
  pack: 180_000,
  ci: 300_000,
  install: 180_000,
  build: 120_000,
  tests: 120_000,
  start: 30_000,
  exit: 10_000,
};
/** The tests of kit/echo.kit.spec.ts: three in each era. */
const KIT_TESTS = 6;
/** How each runner is started, from the app's node_modules, not watching. */
const RUNNERS = {
  jest: [join('node_modules', 'jest', 'bin', 'jest.js'), '--ci'],
  vitest: [join('node_modules', 'vitest', 'vitest.mjs'), 'run'],
};
/** mcp42's body limit in every app (`maxBodyBytes` of its McpModule.forRoot). */
const MAX_BODY_BYTES = 4096;
const MODERN_VERSION = '2026-07-28';
/** What the tarball may hold, and what it must. */
const PUBLISHED = /^(dist\/cjs\/.+|dist\/esm\/.+|README\.md|CHANGELOG\.md|LICENSE|package\.json)$/;
const REQUIRED = [
  'package.json',
  'dist/cjs/package.json',
  'dist/cjs/index.js',
  'dist/cjs/index.d.ts',
  'dist/esm/index.js',
  'dist/esm/index.d.ts',
];

/** Children still running, killed (with their process groups) when the run ends early. */
const children = new Set();

function print(line) {
  process.stdout.write(`consumers: ${line}\n`);
}

/**
 * Runs a command in its own process group; resolves with its output once it exited with code 0, or
 * rejects with the output and how it ended (a non-zero code, a signal, or the timeout).
 */
function run(command, args, { cwd, timeout, env = process.env }) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(command, args, { cwd, env, stdio: ['ignore', 'pipe', 'pipe'], detached: true });
    children.add(child);
    let output = '';
    let stdout = '';
    child.stdout.on('data', (chunk) => ((stdout += chunk), (output += chunk)));
    child.stderr.on('data', (chunk) => (output += chunk));
    const timer = setTimeout(() => signalGroup(child, 'SIGKILL'), timeout);
    const started = Date.now();
    child.once('error', (error) => {
      clearTimeout(timer);
      children.delete(child);
      reject(Object.assign(error, { output }));
    });
    child.once('close', (code, signal) => {
      clearTimeout(timer);
      children.delete(child);
      if (code === 0) return resolveRun({ stdout, output });
      const how =
        Date.now() - started >= timeout ? `timed out after ${timeout / 1000} s` : (signal ?? `exit code ${code}`);
      reject(Object.assign(new Error(`${command} ${args.join(' ')}: ${how}`), { output }));
    });
  });
}

/** `npm pack` of the repository (prepack builds dist/cjs and dist/esm); checks what it holds. */
async function pack(destination) {
  const { stdout } = await run('npm', ['pack', '--json', '--pack-destination', destination], {
    cwd: ROOT,
    timeout: TIMEOUTS.pack,
  });
  // npm prints the JSON array last; a lifecycle script's output may come before it.
  const [packed] = JSON.parse(stdout.slice(stdout.indexOf('\n[') + 1 || stdout.indexOf('[')));
  const files = packed.files.map((file) => file.path);
  const unexpected = files.filter((file) => !PUBLISHED.test(file));
  const missing = REQUIRED.filter((file) => !files.includes(file));
  if (unexpected.length > 0 || missing.length > 0) {
    throw new Error(
      `the tarball holds ${unexpected.join(', ') || 'nothing unexpected'}, lacks ${missing.join(', ') || 'nothing'}`,
    );
  }
  return { tarball: join(destination, packed.filename), files: files.length, size: packed.size };
}

/** The apps: every variant of the template, or those CONSUMERS_APPS names. */
function apps() {
  const wanted = process.env.CONSUMERS_APPS?.split(',').filter(Boolean);
  if (!wanted) return VARIANTS.map((variant) => variant.name);
  for (const name of wanted) variantOf(name);
  return wanted;
}

/** What the app's installed dependencies were made from: its manifest, its lockfile, the Node major. */
function stampOf(dir) {
  const hash = createHash('sha256');
  for (const file of ['package.json', 'package-lock.json']) hash.update(readFileSync(join(dir, file)));
  hash.update(process.versions.node.split('.')[0]);
  return hash.digest('hex');
}

/** The app's dependencies, from its lockfile: installed once, reused while the stamp matches. */
async function dependencies(dir) {
  const stampFile = join(dir, 'node_modules', STAMP);
  const stamp = stampOf(dir);
  if (existsSync(stampFile) && readFileSync(stampFile, 'utf8') === stamp) return false;
  await run('npm', ['ci', '--no-audit', '--no-fund', '--loglevel=error'], { cwd: dir, timeout: TIMEOUTS.ci });
  writeFileSync(stampFile, stamp);
  return true;
}

class CheckFailed extends Error {}

/** The checks of one app, counted as they pass. */
class Checks {
  count = 0;

  that(condition, what, actual) {
    if (!condition) throw new CheckFailed(`${what}${actual === undefined ? '' : `: got ${JSON.stringify(actual)}`}`);
    this.count++;
  }
}

/** The app's process, its output kept, its report line awaited. */
function startApp(dir) {
  const child = spawn(process.execPath, ['dist/main.js'], {
    cwd: dir,
    stdio: ['pipe', 'pipe', 'pipe'],
    detached: true,
  });
  children.add(child);
  const app = { child, output: '', lines: [], exited: undefined };
  let buffered = '';
  child.stdout.on('data', (chunk) => {
    app.output += chunk;
    buffered += chunk;
    const lines = buffered.split('\n');
    buffered = lines.pop();
    for (const line of lines) if (line.startsWith('MCP42_CONSUMER ')) app.lines.push(JSON.parse(line.slice(15)));
  });
  child.stderr.on('data', (chunk) => (app.output += chunk));
  // Closing stdin of an app that already exited fails with EPIPE: its exit is reported instead.
  child.stdin.on('error', () => undefined);
  app.exited = new Promise((resolveExit) => {
    child.once('close', (code, signal) => {
      children.delete(child);
      resolveExit({ code, signal });
    });
    child.once('error', (error) => {
      children.delete(child);
      app.output += String(error);
      resolveExit({ code: null, signal: null });
    });
  });
  return app;
}

/** Resolves with the first report line that `predicate` accepts; fails if the app exits first or too late. */
async function reportLine(app, predicate, timeout, what) {
  let exited;
  void app.exited.then((result) => (exited = result));
  const deadline = Date.now() + timeout;
  for (;;) {
    const line = app.lines.find(predicate);
    if (line) return line;
    if (exited) throw new CheckFailed(`the app exited (${exited.signal ?? `code ${exited.code}`}) before ${what}`);
    if (Date.now() > deadline) throw new CheckFailed(`no ${what} within ${timeout / 1000} s`);
    await sleep(25);
  }
}

/** A raw POST to the endpoint; the answer's status, headers and JSON-RPC messages (JSON or SSE). */
/** One request with node:http, which may send what fetch may not (a Host of its own, TRACE). */
function exchange(url, method, headers = {}) {
  return new Promise((resolveExchange, reject) => {
    const req = httpRequest(url, { method, headers, timeout: 10_000 }, (res) => {
      let text = '';
      res.setEncoding('utf8');
      res.on('data', (chunk) => (text += chunk));
      res.on('end', () => resolveExchange({ status: res.statusCode, headers: res.headers, text }));
    });
    req.once('timeout', () => req.destroy(new Error(`${method} timed out`)));
    req.once('error', reject);
    req.end();
  });
}

async function post(url, body, headers = {}) {
  const response = await fetch(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body,
    signal: AbortSignal.timeout(10_000),
  });
  const text = await response.text();
  const type = response.headers.get('content-type') ?? '';
  let messages = [];
  if (type.startsWith('application/json')) messages = [JSON.parse(text)].flat();
  else if (type.startsWith('text/event-stream'))
    messages = text
      .split(/\r?\n/)
      .filter((line) => line.startsWith('data:'))
      .map((line) => JSON.parse(line.slice(5)));
  return { status: response.status, messages, text };
}

/** One stateless 2026-07-28 request: the `_meta` envelope and the headers mirrored from the body. */
function modernRequest(url, id, method, params, name) {
  const meta = {
    'io.modelcontextprotocol/protocolVersion': MODERN_VERSION,
    'io.modelcontextprotocol/clientInfo': { name: 'mcp42-consumers', version: '1.0.0' },
    'io.modelcontextprotocol/clientCapabilities': {},
  };
  const headers = { 'mcp-protocol-version': MODERN_VERSION, 'mcp-method': method };
  if (name !== undefined) headers['mcp-name'] = name;
  return post(url, JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: meta } }), headers);
}

/** Everything the app is asked, against its report and its endpoint. */
async function exercise(name, app, checks) {
  const { nest, moduleSystem, platform } = variantOf(name);
  const report = await reportLine(app, (line) => 'port' in line, TIMEOUTS.start, 'report line (MCP42_CONSUMER {...})');
  checks.that(report.nest.split('.')[0] === String(nest), `Nest ${nest}`, report.nest);
  checks.that(report.adapter === platform, `the ${platform} adapter`, report.adapter);
  const commonjs = moduleSystem === 'cjs';
  checks.that(report.moduleSystem === (commonjs ? 'commonjs' : 'esm'), `a ${moduleSystem} app`, report.moduleSystem);
  const entry = commonjs
    ? /\/node_modules\/mcp42\/dist\/cjs\/index\.js$/
    : /\/node_modules\/mcp42\/dist\/esm\/index\.js$/;
  checks.that(entry.test(report.mcp42), `mcp42 resolved to ${entry.source.replaceAll('\\', '')}`, report.mcp42);
  checks.that(
    report.registry === true,
    'McpToolRegistry injected into the app (one copy) and holding echo',
    report.registry,
  );
  const url = `http://127.0.0.1:${report.port}/mcp`;

  // 2025 era, through the official SDK client.
  const client = new Client({ name: 'mcp42-consumers', version: '1.0.0' });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  try {
    checks.that(
      client.getServerVersion()?.name === name,
      'initialize: the server names itself',
      client.getServerVersion(),
    );
    const { tools } = await client.listTools();
    const echo = tools.find((tool) => tool.name === 'echo');
    checks.that(
      echo?.inputSchema?.properties?.text !== undefined && echo.inputSchema.properties.times !== undefined,
      'tools/list: echo with the DTO as its input schema',
      tools,
    );
    const called = await client.callTool({ name: 'echo', arguments: { text: 'hi', times: 2 } });
    checks.that(
      !called.isError && called.content?.[0]?.type === 'text' && called.content[0].text === 'hi hi',
      'tools/call echo {text: "hi", times: 2}: "hi hi"',
      called,
    );
    const refused = await client.callTool({ name: 'echo', arguments: { text: 'hi', times: 9 } });
    // class-validator's own message: the app's decorators, read by the same class-validator as mcp42's.
    checks.that(
      refused.isError === true && refused.content?.[0]?.text?.includes('times must not be greater than 3'),
      'tools/call echo {times: 9}: refused by the DTO (@Max(3)), as a tool error',
      refused,
    );
  } finally {
    await client.close();
  }

  // 2026-07-28, stateless.
  const discover = await modernRequest(url, 'd1', 'server/discover', {});
  const discovered = discover.messages[0]?.result;
  checks.that(
    discover.status === 200 &&
      discovered?.supportedVersions?.includes(MODERN_VERSION) &&
      discovered?._meta?.['io.modelcontextprotocol/serverInfo']?.name === name,
    'server/discover (2026-07-28)',
    { status: discover.status, text: discover.text },
  );
  const modern = await modernRequest(
    url,
    'c1',
    'tools/call',
    { name: 'echo', arguments: { text: 'yo', times: 3 } },
    'echo',
  );
  const result = modern.messages.find((message) => message.id === 'c1')?.result;
  checks.that(
    modern.status === 200 && result?.resultType === 'complete' && result?.content?.[0]?.text === 'yo yo yo',
    'tools/call echo (2026-07-28): "yo yo yo"',
    { status: modern.status, text: modern.text },
  );

  // mcp42's own answers to bodies it refuses, on either platform.
  const padding = 'x'.repeat(MAX_BODY_BYTES * 2);
  const large = await post(url, JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'ping', params: { padding } }));
  checks.that(
    large.status === 413 && large.messages[0]?.error?.code === -32600,
    `a body over maxBodyBytes (${MAX_BODY_BYTES}): 413 with a JSON-RPC error`,
    { status: large.status, text: large.text },
  );
  const malformed = await post(url, '{"jsonrpc": "2.0", "id": 1, "method": ');
  checks.that(
    malformed.status === 400 && malformed.messages[0]?.error?.code === -32700,
    'malformed JSON: 400 with -32700',
    { status: malformed.status, text: malformed.text },
  );

  // The endpoint's door, before any route logic: a foreign Host, and methods it does not serve.
  const foreign = await exchange(url, 'POST', { host: 'rebound.example', 'content-type': 'application/json' });
  checks.that(
    foreign.status === 403 && JSON.parse(foreign.text).error?.message === 'Forbidden: Host not allowed',
    'a foreign Host: 403',
    foreign,
  );
  for (const method of ['TRACE', 'PROPFIND']) {
    const refused = await exchange(url, method);
    checks.that(
      refused.status === 405 && refused.headers.allow === 'GET, POST, DELETE',
      `${method}: 405 with Allow`,
      refused,
    );
  }
}

/** The whole pipeline of one app; resolves with its outcome (never rejects). */
async function runApp(name, tarball) {
  const dir = join(CONSUMERS, name);
  const times = {};
  const timed = async (step, action) => {
    const started = Date.now();
    try {
      return await action();
    } finally {
      times[step] = (Date.now() - started) / 1000;
    }
  };
  const checks = new Checks();
  let step = 'sources';
  let app;
  try {
    writeApp(variantOf(name));
    step = 'dependencies';
    const installed = await timed('deps', () => dependencies(dir));
    step = 'tarball install';
    const install = await timed('install', () =>
      run('npm', ['install', '--no-save', '--no-audit', '--no-fund', '--prefer-offline', '--loglevel=warn', tarball], {
        cwd: dir,
        timeout: TIMEOUTS.install,
      }),
    );
    // npm 11 names every installed package with a script it would run (`install-scripts … mcp42@…
    // (prepare: …)`): the published manifest has none.
    const scriptWarnings = install.output.split('\n').filter((line) => /install-scripts\s+mcp42@/.test(line));
    checks.that(scriptWarnings.length === 0, 'npm warns of no install script of mcp42', scriptWarnings);
    step = 'build';
    rmSync(join(dir, 'dist'), { recursive: true, force: true });
    await timed('build', () =>
      run(process.execPath, [join('node_modules', 'typescript', 'bin', 'tsc'), '-p', 'tsconfig.json'], {
        cwd: dir,
        timeout: TIMEOUTS.build,
      }),
    );
    step = 'kit tests';
    const { runner } = variantOf(name);
    // Not the environment of whoever runs this (a NODE_OPTIONS of the root's Jest, say): the app's own.
    const env = { ...process.env, CI: '1' };
    delete env.NODE_OPTIONS;
    const tests = await timed('tests', () =>
      run(process.execPath, RUNNERS[runner], { cwd: dir, timeout: TIMEOUTS.tests, env }),
    );
    // eslint-disable-next-line no-control-regex -- the colours a runner may print
    const summary = tests.output.replace(/\u001b\[[0-9;]*m/g, '');
    const passed = new RegExp(`Tests:?\\s+${KIT_TESTS} passed`).test(summary);
    checks.that(passed, `${runner}: the ${KIT_TESTS} tests of mcp42/testing pass`, tests.output.slice(-400));
    step = 'run';
    const started = Date.now();
    app = startApp(dir);
    await exercise(name, app, checks);
    app.child.stdin.end();
    await reportLine(app, (line) => line.closed === true, TIMEOUTS.exit, 'app.close()');
    const exit = await Promise.race([app.exited, sleep(TIMEOUTS.exit).then(() => undefined)]);
    checks.that(exit !== undefined, `the process exits on its own within ${TIMEOUTS.exit / 1000} s of app.close()`);
    checks.that(exit.code === 0, 'exit code 0', exit);
    // Nothing else logged (the apps log warnings and errors): no bootstrap warning of mcp42, no error;
    // only the refused Host, once, naming the option that would admit it.
    const logged = app.output.split('\n').filter((line) => line !== '' && !line.startsWith('MCP42_CONSUMER '));
    const refusal =
      /Refused a request for Host "rebound\.example" \(403\): add its host name to the http\.allowedHosts option/;
    checks.that(
      logged.length === 1 && refusal.test(logged[0]),
      'no warning or error logged but the refused Host',
      logged,
    );
    times.run = (Date.now() - started) / 1000;
    const report = app.lines.find((line) => 'port' in line);
    return { name, ok: true, checks: checks.count, installed, times, report };
  } catch (error) {
    const output = [error.output, app?.output].filter(Boolean).join('\n');
    return { name, ok: false, step, checks: checks.count, error: error.message ?? String(error), output, times };
  } finally {
    if (app && app.child.exitCode === null && app.child.signalCode === null) signalGroup(app.child, 'SIGKILL');
  }
}

function describe(outcome) {
  const times = Object.entries(outcome.times)
    .map(([step, seconds]) => `${step} ${seconds.toFixed(1)} s`)
    .join(', ');
  if (!outcome.ok)
    return `✗ ${outcome.name}: ${outcome.step} failed after ${outcome.checks} checks: ${outcome.error} (${times})`;
  const { report } = outcome;
  const system = report.moduleSystem === 'commonjs' ? 'CommonJS' : 'ESM';
  const deps = outcome.installed ? 'npm ci' : 'node_modules reused';
  return `✓ ${outcome.name} (Nest ${report.nest}, ${system}, ${report.adapter}): ${outcome.checks} checks passed (${deps}; ${times})`;
}

async function main() {
  const started = Date.now();
  const timer = setTimeout(() => {
    print(`timed out after ${TOTAL_TIMEOUT_MS / 1000} s, stopping`);
    for (const child of children) signalGroup(child, 'SIGKILL');
    process.exit(124);
  }, TOTAL_TIMEOUT_MS);
  timer.unref();
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP']) {
    process.on(signal, () => {
      for (const child of children) signalGroup(child, 'SIGKILL');
      process.exit(128 + { SIGHUP: 1, SIGINT: 2, SIGTERM: 15 }[signal]);
    });
  }

  const names = apps();
  const scratch = mkdtempSync(join(tmpdir(), 'mcp42-consumers-'));
  try {
    let packed;
    try {
      packed = await pack(scratch);
    } catch (error) {
      print(`✗ npm pack: ${error.message}`);
      if (error.output) process.stdout.write(`${error.output}\n`);
      print(`0 passed, ${names.length} failed`);
      return 1;
    }
    print(
      `packed ${packed.files} files (${(packed.size / 1024).toFixed(0)} kB): ${names.length} app(s), ${CONCURRENCY} at a time`,
    );
    const queue = [...names];
    const outcomes = [];
    const worker = async () => {
      for (let name = queue.shift(); name !== undefined; name = queue.shift()) {
        const outcome = await runApp(name, packed.tarball);
        outcomes.push(outcome);
        print(describe(outcome));
        if (!outcome.ok && outcome.output) {
          process.stdout.write(`---- ${name}: output ----\n${outcome.output.trimEnd()}\n---- end of ${name} ----\n`);
        }
      }
    };
    await Promise.all(Array.from({ length: Math.min(CONCURRENCY, names.length) }, worker));
    const failed = outcomes.filter((outcome) => !outcome.ok).length;
    print(`${outcomes.length - failed} passed, ${failed} failed (${((Date.now() - started) / 1000).toFixed(1)} s)`);
    return failed === 0 ? 0 : 1;
  } finally {
    rmSync(scratch, { recursive: true, force: true });
    clearTimeout(timer);
  }
}

main().then(
  (code) => process.exit(code),
  (error) => {
    print(`failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    for (const child of children) signalGroup(child, 'SIGKILL');
    process.exit(1);
  },
);
