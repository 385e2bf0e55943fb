/**
 * The package as an application loads it: packed by npm (./packed-package.ts), resolved through the
 * `exports` of its package.json, from a CommonJS app (`require('mcp42')` reaches dist/cjs) and from an
 * ES module app (`import` reaches dist/esm, a one-line wrapper that re-exports dist/cjs; mcp42/testing's
 * entry also hands the kit the SDK's ES module copy). Both must reach
 * ONE copy of the library, whichever system loads it first: a second copy would bring a second
 * McpModule, MCP_SESSION symbol, McpToolRegistry token and McpToolError class, and an app mixing the
 * two (an ESM library of tools in a CommonJS app, say) would fail DI or turn tool errors into
 * internal errors. Each app below registers McpModule through one module system and declares its
 * tools, throws McpToolError and injects McpToolRegistry through the other.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { packedPackage, ROOT, type PackedPackage } from './packed-package.js';

const run = promisify(execFile);

/**
 * A Nest app in plain JavaScript (no TypeScript decorators), the same for both systems: `own` is the
 * package as the app loads it its own way, `other` as it loads it the other way. It serves `greet`
 * and `fail` over HTTP and prints one JSON line with what it found.
 */
const APP_BODY = `
function appModule(own, other) {
  class Greeter {
    constructor(registry) {
      this.registry = registry;
    }
    greet() {
      return 'hello, ' + (this.registry.has('greet') ? 'registry holds greet' : 'registry lacks greet');
    }
    fail() {
      throw new other.McpToolError('refused on purpose');
    }
  }
  for (const name of ['greet', 'fail']) {
    const descriptor = Object.getOwnPropertyDescriptor(Greeter.prototype, name);
    other.McpTool({ name, description: name })(Greeter.prototype, name, descriptor);
  }
  Inject(other.McpToolRegistry)(Greeter, undefined, 0);
  Injectable()(Greeter);

  class AppModule {}
  Module({ imports: [own.McpModule.forRoot({ name: 'app', version: '1.0.0' })], providers: [Greeter] })(AppModule);
  return AppModule;
}

async function post(url, body, sessionId) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (sessionId) Object.assign(headers, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' });
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { sessionId: response.headers.get('mcp-session-id'), text: await response.text() };
}

async function serve(AppModule) {
  const app = await NestFactory.create(AppModule, { logger: false, forceCloseConnections: true, bodyParser: false });
  await app.listen(0, '127.0.0.1');
  const url = 'http://127.0.0.1:' + app.getHttpServer().address().port + '/mcp';
  try {
    const init = await post(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'package-test', version: '1' } },
    });
    await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, init.sessionId);
    const call = async (id, name) =>
      JSON.parse((await post(url, { jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }, init.sessionId)).text);
    return { greet: await call(2, 'greet'), fail: await call(3, 'fail') };
  } finally {
    await app.close();
  }
}

/** Serves the app, with McpModule from \`own\` and the tools from \`other\`, and reports. */
function report(own, other, esm, cjs, resolved) {
  return serve(appModule(own, other)).then((calls) => ({
    resolved,
    sameModule: esm.McpModule === cjs.McpModule,
    sameToken: esm.MCP_SESSION === cjs.MCP_SESSION,
    sameRegistry: esm.McpToolRegistry === cjs.McpToolRegistry,
    // Node's ESM view of a CommonJS module also names its __esModule marker; nothing else may differ.
    esmNames: Object.keys(esm).filter((name) => name !== '__esModule').sort(),
    cjsNames: Object.keys(cjs).sort(),
    calls,
  }));
}

function done(promise) {
  promise.then(
    (outcome) => process.stdout.write(JSON.stringify(outcome)),
    (error) => {
      process.stderr.write(String(error && error.stack ? error.stack : error));
      process.exit(1);
    },
  );
}
`;

/** CommonJS: McpModule from `require('mcp42')`, the tools through `await import('mcp42')`. */
const COMMONJS_APP = `'use strict';
const { Inject, Injectable, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const own = require('mcp42');
${APP_BODY}
done(import('mcp42').then((esm) => report(own, esm, esm, own, { require: require.resolve('mcp42') })));
`;

/** ES module: McpModule from `import`, the tools through `createRequire(...)('mcp42')`. */
const ESM_APP = `import { Inject, Injectable, Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createRequire } from 'node:module';
import * as own from 'mcp42';
const require = createRequire(import.meta.url);
const other = require('mcp42');
${APP_BODY}
done(report(own, other, own, other, { import: import.meta.resolve('mcp42'), require: require.resolve('mcp42') }));
`;

/** `mcp42/redis` from both systems, in an app that has not installed ioredis (an optional peer). */
const REDIS_SUBPATH_APP = `
const cjs = require('mcp42/redis');
import('mcp42/redis').then((esm) => {
  let ioredis = 'absent';
  try {
    require.resolve('ioredis');
    ioredis = 'installed';
  } catch {}
  console.log(JSON.stringify({
    resolved: require.resolve('mcp42/redis'),
    same: cjs.redisState === esm.redisState,
    names: Object.keys(cjs).sort(),
    ioredis,
    ioredisLoaded: Object.keys(require.cache).some((file) => file.includes('/ioredis/')),
  }));
});
`;

/**
 * The root alone loads neither OpenTelemetry nor Terminus (optional peers); `mcp42/otel` and
 * `mcp42/terminus` serve each one copy to both systems.
 */
const OBSERVABILITY_SUBPATHS_APP = `
const optional = () =>
  Object.keys(require.cache).filter((file) => /\\/@opentelemetry\\/|\\/@nestjs\\/terminus\\//.test(file)).length;
require('mcp42');
const loadedByRoot = optional();
const otel = require('mcp42/otel');
const terminus = require('mcp42/terminus');
Promise.all([import('mcp42/otel'), import('mcp42/terminus')]).then(([otelEsm, terminusEsm]) => {
  console.log(JSON.stringify({
    loadedByRoot,
    resolved: [require.resolve('mcp42/otel'), require.resolve('mcp42/terminus')],
    same: otel.mcpTelemetry === otelEsm.mcpTelemetry && terminus.McpHealthIndicator === terminusEsm.McpHealthIndicator,
    names: [...Object.keys(otel), ...Object.keys(terminus)].sort(),
    telemetry: otel.mcpTelemetry().kind,
  }));
});
`;

/**
 * `mcp42`, then `mcp42/testing`, from both systems, in an ES module app: the root must not load the
 * official SDK (an optional peer of the testing kit alone). The kit is one copy (one McpHttpError),
 * but hands each system the SDK copy that system loads (the SDK publishes two): `require()` gets a
 * Client of the SDK's CommonJS build, `import` one of its ES module build, so that a test's own
 * `instanceof` and types match. Both clients talk to one app that never listens.
 */
const TESTING_SUBPATH_APP = `
import { Module } from '@nestjs/common';
import { NestFactory } from '@nestjs/core';
import { createRequire } from 'node:module';
const require = createRequire(import.meta.url);
const sdkLoaded = () => Object.keys(require.cache).some((file) => file.includes('/@modelcontextprotocol/'));
const { McpModule } = require('mcp42');
const sdkLoadedByRoot = sdkLoaded();
const cjs = require('mcp42/testing');
const esm = await import('mcp42/testing');
const cjsSdk = require('@modelcontextprotocol/sdk/client/index.js');
const esmSdk = await import('@modelcontextprotocol/sdk/client/index.js');
class AppModule {}
Module({ imports: [McpModule.forRoot({ name: 'kit', version: '1.0.0' })] })(AppModule);
const app = await NestFactory.create(AppModule, { logger: false, bodyParser: false });
await app.init();
const required = await cjs.createMcpTestClient(app);
const imported = await esm.createMcpTestClient(app, { era: '2026-07-28' });
const outcome = {
  resolved: { require: require.resolve('mcp42/testing'), import: import.meta.resolve('mcp42/testing') },
  names: { require: Object.keys(cjs).sort(), import: Object.keys(esm).sort() },
  sameError: cjs.McpHttpError === esm.McpHttpError,
  sdkLoadedByRoot,
  requiredClient: { cjs: required instanceof cjsSdk.Client, esm: required instanceof esmSdk.Client },
  importedClient: { cjs: imported instanceof cjsSdk.Client, esm: imported instanceof esmSdk.Client },
  pings: [await required.ping(), await imported.ping()],
  listening: app.getHttpServer().listening,
};
await Promise.all([required.close(), imported.close()]);
await app.close();
console.log(JSON.stringify(outcome));
`;

interface Outcome {
  resolved: Record<string, string>;
  sameModule: boolean;
  sameToken: boolean;
  sameRegistry: boolean;
  esmNames: string[];
  cjsNames: string[];
  calls: { greet: { result?: unknown; error?: unknown }; fail: { result?: unknown; error?: unknown } };
}

describe('the packed package from CommonJS and from ES modules', () => {
  let workDir: string;
  let packed: PackedPackage;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'mcp42-package-'));
    packed = await packedPackage(workDir);
    await writeFile(join(packed.appDir, 'main.cjs'), COMMONJS_APP);
    await writeFile(join(packed.appDir, 'main.mjs'), ESM_APP);
    await writeFile(join(packed.appDir, 'redis.cjs'), REDIS_SUBPATH_APP);
    await writeFile(join(packed.appDir, 'observability.cjs'), OBSERVABILITY_SUBPATHS_APP);
    await writeFile(join(packed.appDir, 'testing.mjs'), TESTING_SUBPATH_APP);
    // The app's own copy of the SDK, as a project that uses the kit installs it.
    await mkdir(join(packed.appDir, 'node_modules', '@modelcontextprotocol'), { recursive: true });
    await symlink(
      join(ROOT, 'node_modules', '@modelcontextprotocol', 'sdk'),
      join(packed.appDir, 'node_modules', '@modelcontextprotocol', 'sdk'),
      'dir',
    );
  }, 180_000);

  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  async function outcomeOf(file: string): Promise<Outcome> {
    const { stdout } = await run(process.execPath, [join(packed.appDir, file)], { timeout: 30_000 });
    return JSON.parse(stdout) as Outcome;
  }

  function expectOneCopy(outcome: Outcome): void {
    expect(outcome.sameModule).toBe(true);
    expect(outcome.sameToken).toBe(true);
    expect(outcome.sameRegistry).toBe(true);
    expect(outcome.esmNames).toEqual(outcome.cjsNames);
    expect(outcome.cjsNames).toEqual(expect.arrayContaining(['McpModule', 'McpTool', 'MCP_SESSION', 'McpToolError']));
    // The tools, McpToolError and McpToolRegistry came from the other system's view of the package.
    expect(outcome.calls.greet.result).toMatchObject({
      content: [{ type: 'text', text: 'hello, registry holds greet' }],
    });
    expect(outcome.calls.fail.result).toMatchObject({
      content: [{ type: 'text', text: 'refused on purpose' }],
      isError: true,
    });
  }

  it('holds the published build alone: one CommonJS implementation, the ES module wrapper, the docs', () => {
    expect(packed.files.filter((file) => !/^dist\/(cjs|esm)\//.test(file))).toEqual([
      'CHANGELOG.md',
      'LICENSE',
      'README.md',
      'package.json',
    ]);
    expect(packed.files.filter((file) => file.startsWith('dist/esm/'))).toEqual([
      'dist/esm/index.d.ts',
      'dist/esm/index.js',
      'dist/esm/oauth/index.d.ts',
      'dist/esm/oauth/index.js',
      'dist/esm/otel/index.d.ts',
      'dist/esm/otel/index.js',
      'dist/esm/protocol/index.d.ts',
      'dist/esm/protocol/index.js',
      'dist/esm/redis/index.d.ts',
      'dist/esm/redis/index.js',
      'dist/esm/terminus/index.d.ts',
      'dist/esm/terminus/index.js',
      'dist/esm/testing/index.d.ts',
      'dist/esm/testing/index.js',
    ]);
    expect(packed.files).toEqual(
      expect.arrayContaining(['dist/cjs/package.json', 'dist/cjs/index.js', 'dist/cjs/index.d.ts']),
    );
  });

  it('runs no script when installed (nothing of the repository is packed for one to run)', () => {
    const scripts = (packed.manifest.scripts ?? {}) as Record<string, string>;
    for (const hook of ['preinstall', 'install', 'postinstall']) expect(scripts[hook]).toBeUndefined();
  });

  it('serves a CommonJS Nest app: require() reaches dist/cjs, and import() the one same copy', async () => {
    const outcome = await outcomeOf('main.cjs');
    expect(outcome.resolved.require).toBe(join(packed.packageDir, 'dist', 'cjs', 'index.js'));
    expectOneCopy(outcome);
  }, 30_000);

  it('serves an ES module Nest app: import reaches dist/esm, which re-exports the one copy require() gets', async () => {
    const outcome = await outcomeOf('main.mjs');
    expect(outcome.resolved.import).toBe(`file://${join(packed.packageDir, 'dist', 'esm', 'index.js')}`);
    expect(outcome.resolved.require).toBe(join(packed.packageDir, 'dist', 'cjs', 'index.js'));
    expectOneCopy(outcome);
  }, 30_000);

  it('serves mcp42/redis from both systems as one copy, without loading ioredis (an optional peer)', async () => {
    const { stdout } = await run(process.execPath, [join(packed.appDir, 'redis.cjs')], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({
      resolved: join(packed.packageDir, 'dist', 'cjs', 'redis', 'index.js'),
      same: true,
      names: ['redisState'],
      ioredis: 'absent',
      ioredisLoaded: false,
    });
  }, 30_000);

  it('loads no OpenTelemetry nor Terminus from the root; mcp42/otel and mcp42/terminus are one copy each', async () => {
    const { stdout } = await run(process.execPath, [join(packed.appDir, 'observability.cjs')], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({
      loadedByRoot: 0,
      resolved: [
        join(packed.packageDir, 'dist', 'cjs', 'otel', 'index.js'),
        join(packed.packageDir, 'dist', 'cjs', 'terminus', 'index.js'),
      ],
      same: true,
      names: [
        'METRIC_MCP42_SERVER_LISTEN_STREAMS',
        'METRIC_MCP42_SERVER_OUTBOX_OVERFLOWS',
        'METRIC_MCP42_SERVER_REFUSALS',
        'METRIC_MCP42_SERVER_SESSIONS',
        'METRIC_MCP42_SERVER_STATE_AVAILABLE',
        'METRIC_MCP_SERVER_OPERATION_DURATION',
        'METRIC_MCP_SERVER_SESSION_DURATION',
        'McpHealthIndicator',
        'mcpTelemetry',
      ],
      telemetry: 'mcp42.telemetry',
    });
  }, 30_000);

  it("serves mcp42/testing from both systems, each client of its system's SDK copy; the root never loads the SDK", async () => {
    const { stdout } = await run(process.execPath, [join(packed.appDir, 'testing.mjs')], { timeout: 30_000 });
    expect(JSON.parse(stdout)).toEqual({
      resolved: {
        require: join(packed.packageDir, 'dist', 'cjs', 'testing', 'index.js'),
        import: `file://${join(packed.packageDir, 'dist', 'esm', 'testing', 'index.js')}`,
      },
      names: {
        require: ['McpHttpError', 'createMcpTestClient'],
        import: ['McpHttpError', 'createMcpTestClient'],
      },
      sameError: true,
      sdkLoadedByRoot: false,
      requiredClient: { cjs: true, esm: false },
      importedClient: { cjs: false, esm: true },
      pings: [{}, {}],
      listening: false,
    });
  }, 30_000);
});
