// The published build (run by `npm run build` and by `prepack`, so `npm pack` and `npm publish` always
// ship a fresh one): ONE CommonJS implementation of src/ plus an ES module wrapper that re-exports it.
//
//   dist/cjs/           tsc -p tsconfig.cjs.json: src/ as CommonJS, declarations with stripInternal
//   dist/cjs/package.json  {"type":"commonjs"} (the package itself is "type": "module")
//   dist/esm/index.js   export * from '../cjs/index.js';   (Node's "ES module wrapper" pattern)
//   dist/esm/index.d.ts the same line, for `import` under TypeScript's node16/nodenext/bundler
//   dist/esm/<subpath>/ the same for each subpath export, but mcp42/testing's (OWN_ESM_ENTRIES below):
//                       the kit of dist/cjs given the official SDK's ES module copy
//
// `require('mcp42')` and `import 'mcp42'` (package.json `exports`) therefore reach the same single
// copy of the library: one McpModule class, one MCP_SESSION symbol, one McpToolRegistry token. A dual
// build (two copies) would break DI tokens and `instanceof` checks in any app that mixes the two (see
// notes/issue-12-research.md, §c). Only these two folders are published (package.json `files`).
//
// Usage: node scripts/build-package.mjs [--out-dir <dir>]   (default: dist; cjs/ and esm/ are
// replaced in it, nothing else is touched). test/package/ builds into a temporary folder this way.
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '..');
const TSC = createRequire(import.meta.url).resolve('typescript/bin/tsc');

/** The one line of the ES module wrapper, the same for its code and its declarations. */
export const ESM_WRAPPER = "export * from '../cjs/index.js';\n";

/** The wrapper of a subpath entry one folder down (`mcp42/redis` → dist/esm/redis/index.js). */
export const SUBPATH_ESM_WRAPPER = (subpath) => `export * from '../../cjs/${subpath}/index.js';\n`;

/**
 * Subpaths whose ES module entry is more than the wrapper. `mcp42/testing` hands the kit (of the one
 * CommonJS copy) the official SDK as ES modules load it: the SDK is published as two copies, and the
 * `Client` a test gets, the `McpError` it catches, must be those of the copy its own `import`s load.
 */
export const OWN_ESM_ENTRIES = {
  testing: {
    js:
      "import { Client } from '@modelcontextprotocol/sdk/client/index.js';\n" +
      'import {\n' +
      '  CreateMessageRequestSchema,\n' +
      '  ElicitRequestSchema,\n' +
      '  ListRootsRequestSchema,\n' +
      "} from '@modelcontextprotocol/sdk/types.js';\n" +
      "import { connectTestClient } from '../../cjs/testing/connect-test-client.js';\n" +
      "export { McpHttpError } from '../../cjs/testing/mcp-http-error.js';\n" +
      'const sdk = { Client, ElicitRequestSchema, CreateMessageRequestSchema, ListRootsRequestSchema };\n' +
      'export function createMcpTestClient(app, options) {\n' +
      '  return connectTestClient(sdk, app, options);\n' +
      '}\n',
    dts:
      "import type { INestApplication } from '@nestjs/common';\n" +
      "import type { Client } from '@modelcontextprotocol/sdk/client/index.js';\n" +
      "import type { McpTestClientOptions } from '../../cjs/testing/mcp-test-client-options.interface.js';\n" +
      "export { McpHttpError, type McpHttpRpcError } from '../../cjs/testing/mcp-http-error.js';\n" +
      "export type { McpTestClientOptions, McpTestEra } from '../../cjs/testing/mcp-test-client-options.interface.js';\n" +
      '/**\n' +
      ' * A client of the official MCP SDK (its ES module copy, the one `import` loads), connected to the\n' +
      " * application's MCP endpoint inside the process: no port, no socket. See the CommonJS declaration\n" +
      ' * of `createMcpTestClient` for the whole story.\n' +
      " * @throws McpHttpError when the application refuses the handshake (an endpoint guard's 401, say).\n" +
      ' */\n' +
      'export declare function createMcpTestClient(app: INestApplication, options?: McpTestClientOptions): Promise<Client>;\n',
  },
};

/**
 * The subpath exports (`mcp42/protocol`, `mcp42/redis`…), each an entry of its own over the one
 * CommonJS copy: read from package.json `exports`, the one place they are declared.
 */
export const SUBPATHS = Object.keys(JSON.parse(readFileSync(join(ROOT, 'package.json'), 'utf8')).exports)
  .filter((key) => key !== '.' && key !== './package.json')
  .map((key) => key.slice(2));

function outDirFromArgs(args) {
  const index = args.indexOf('--out-dir');
  if (index === -1) return join(ROOT, 'dist');
  const value = args[index + 1];
  if (!value) throw new Error('--out-dir needs a folder');
  return resolve(value);
}

/** Runs tsc with `args` from the repository root; resolves on success, rejects with its output. */
function tsc(args) {
  return new Promise((resolveRun, reject) => {
    const child = spawn(process.execPath, [TSC, ...args], { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'] });
    let output = '';
    child.stdout.on('data', (chunk) => (output += chunk));
    child.stderr.on('data', (chunk) => (output += chunk));
    child.once('error', reject);
    child.once('exit', (code, signal) => {
      if (code === 0) resolveRun();
      else reject(new Error(`tsc ${args.join(' ')} failed (${signal ?? `exit code ${code}`}):\n${output}`));
    });
  });
}

export async function buildPackage(outDir) {
  const cjs = join(outDir, 'cjs');
  const esm = join(outDir, 'esm');
  rmSync(cjs, { recursive: true, force: true });
  rmSync(esm, { recursive: true, force: true });
  await tsc(['-p', 'tsconfig.cjs.json', '--outDir', cjs]);
  writeFileSync(join(cjs, 'package.json'), `${JSON.stringify({ type: 'commonjs' })}\n`);
  mkdirSync(esm, { recursive: true });
  writeFileSync(join(esm, 'index.js'), ESM_WRAPPER);
  writeFileSync(join(esm, 'index.d.ts'), ESM_WRAPPER);
  for (const subpath of SUBPATHS) {
    mkdirSync(join(esm, subpath), { recursive: true });
    const own = OWN_ESM_ENTRIES[subpath];
    writeFileSync(join(esm, subpath, 'index.js'), own?.js ?? SUBPATH_ESM_WRAPPER(subpath));
    writeFileSync(join(esm, subpath, 'index.d.ts'), own?.dts ?? SUBPATH_ESM_WRAPPER(subpath));
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  buildPackage(outDirFromArgs(process.argv.slice(2))).catch((error) => {
    console.error(error instanceof Error ? error.message : String(error));
    process.exit(1);
  });
}
