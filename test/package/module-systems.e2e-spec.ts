/**
 * The package as an application loads it: built with the project's own build settings, resolved
 * through the `exports` of package.json, from a CommonJS script (`require('mcp42')`, which Node
 * serves through require(esm) since 20.19) and from ES modules (`import`). Both must reach one copy
 * of the library, or metadata keys and tokens defined twice would break discovery.
 */
import { execFile } from 'node:child_process';
import { mkdir, mkdtemp, readFile, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';

const run = promisify(execFile);
const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..', '..');

/** A CommonJS Nest app serving one tool, written as plain JavaScript (no TypeScript decorators). */
const COMMONJS_APP = `
'use strict';
require('reflect-metadata');
const { Injectable, Module } = require('@nestjs/common');
const { NestFactory } = require('@nestjs/core');
const mcp = require('mcp42');

class Greeter {
  greet() {
    return 'hello from CommonJS';
  }
}
mcp.McpTool({ name: 'greet', description: 'Greets' })(
  Greeter.prototype,
  'greet',
  Object.getOwnPropertyDescriptor(Greeter.prototype, 'greet'),
);
Injectable()(Greeter);

class AppModule {}
Module({ imports: [mcp.McpModule.forRoot({ name: 'cjs-app', version: '1.0.0' })], providers: [Greeter] })(AppModule);

async function post(url, body, sessionId) {
  const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
  if (sessionId) Object.assign(headers, { 'mcp-session-id': sessionId, 'mcp-protocol-version': '2025-06-18' });
  const response = await fetch(url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { sessionId: response.headers.get('mcp-session-id'), text: await response.text() };
}

async function main() {
  const esm = await import('mcp42');
  const app = await NestFactory.create(AppModule, { logger: false, forceCloseConnections: true });
  await app.listen(0, '127.0.0.1');
  const url = 'http://127.0.0.1:' + app.getHttpServer().address().port + '/mcp';
  try {
    const init = await post(url, {
      jsonrpc: '2.0',
      id: 1,
      method: 'initialize',
      params: { protocolVersion: '2025-06-18', capabilities: {}, clientInfo: { name: 'cjs-test', version: '1' } },
    });
    await post(url, { jsonrpc: '2.0', method: 'notifications/initialized' }, init.sessionId);
    const call = await post(
      url,
      { jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'greet', arguments: {} } },
      init.sessionId,
    );
    process.stdout.write(
      JSON.stringify({
        sameModule: esm.McpModule === mcp.McpModule,
        sameToken: esm.MCP_SESSION === mcp.MCP_SESSION,
        sameExports: Object.keys(esm).sort().join() === Object.keys(mcp).sort().join(),
        call: JSON.parse(call.text),
      }),
    );
  } finally {
    await app.close();
  }
}

main().catch((error) => {
  process.stderr.write(String(error && error.stack ? error.stack : error));
  process.exit(1);
});
`;

describe('the package from CommonJS and from ES modules', () => {
  let workDir: string;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'mcp42-package-'));
    const packageDir = join(workDir, 'mcp42');
    // The build the package ships (tsconfig.build.json: stripInternal and all), of src/ alone.
    await writeFile(
      join(workDir, 'tsconfig.json'),
      JSON.stringify({
        extends: join(ROOT, 'tsconfig.build.json'),
        compilerOptions: {
          rootDir: ROOT,
          outDir: join(packageDir, 'dist'),
          typeRoots: [join(ROOT, 'node_modules', '@types')],
          declaration: false,
          declarationMap: false,
          sourceMap: false,
        },
        include: [join(ROOT, 'src')],
        exclude: [join(ROOT, 'src', '**', '*.spec.ts')],
      }),
    );
    await run(process.execPath, [join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', workDir]);
    const manifest = JSON.parse(await readFile(join(ROOT, 'package.json'), 'utf8')) as Record<string, unknown>;
    const { name, version, type, main, exports } = manifest;
    await writeFile(join(packageDir, 'package.json'), JSON.stringify({ name, version, type, main, exports }));
    // Its dependencies and peers, as an application's node_modules would hold them.
    await symlink(join(ROOT, 'node_modules'), join(packageDir, 'node_modules'), 'dir');
    const appModules = join(workDir, 'app', 'node_modules');
    await mkdir(appModules, { recursive: true });
    await symlink(packageDir, join(appModules, 'mcp42'), 'dir');
    for (const peer of ['@nestjs', 'reflect-metadata', 'rxjs', 'class-validator', 'class-transformer']) {
      await symlink(join(ROOT, 'node_modules', peer), join(appModules, peer), 'dir');
    }
    await writeFile(join(workDir, 'app', 'package.json'), JSON.stringify({ name: 'cjs-app', type: 'commonjs' }));
    await writeFile(join(workDir, 'app', 'main.js'), COMMONJS_APP);
  }, 60_000);

  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('serves a CommonJS Nest app, and require() and import reach the one same copy of the library', async () => {
    const { stdout } = await run(process.execPath, [join(workDir, 'app', 'main.js')], { timeout: 30_000 });
    const outcome = JSON.parse(stdout) as {
      sameModule: boolean;
      sameToken: boolean;
      sameExports: boolean;
      call: { result?: { content?: unknown } };
    };
    expect(outcome.sameModule).toBe(true);
    expect(outcome.sameToken).toBe(true);
    expect(outcome.sameExports).toBe(true);
    expect(outcome.call.result?.content).toEqual([{ type: 'text', text: 'hello from CommonJS' }]);
  }, 30_000);
});
