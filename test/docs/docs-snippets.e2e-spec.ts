/**
 * The code of the documentation site cannot drift from the API: the pages hold no TypeScript of their
 * own (./doc-pages.ts), and every file under docs/snippets/ (what they include) is type-checked
 * against the packed package (../package/packed-package.ts), importing `mcp42`, `mcp42/redis` and
 * `mcp42/oauth` as an ES module Nest app does. A snippet folder with a `run.json` is a whole app: it
 * is compiled, started, and called with the official SDK client.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { cp, mkdtemp, readdir, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import ts from 'typescript';
import { packedPackage, ROOT, type PackedPackage } from '../package/packed-package.js';
import { useSdkClients } from '../utils/sdk-clients.js';
import { pageProblems } from './doc-pages.js';

const DOCS = join(ROOT, 'docs');
const SNIPPETS = join(DOCS, 'snippets');

/** A user's strict ES module app, reading the package's own declarations too (`skipLibCheck: false`). */
const COMPILER_OPTIONS: ts.CompilerOptions = {
  target: ts.ScriptTarget.ES2023,
  module: ts.ModuleKind.NodeNext,
  moduleResolution: ts.ModuleResolutionKind.NodeNext,
  strict: true,
  experimentalDecorators: true,
  emitDecoratorMetadata: true,
  esModuleInterop: true,
  skipLibCheck: false,
  noEmit: true,
  types: ['node'],
  typeRoots: [join(ROOT, 'node_modules', '@types')],
};

/**
 * What snippets may import beside mcp42 and the peers an app has (../package/packed-package.ts): the
 * official SDK clients (v1 and v2), the Redis and JOSE libraries of mcp42/redis and mcp42/oauth.
 */
const SNIPPET_PACKAGES = ['@modelcontextprotocol', 'ioredis', 'jose'];

/** What `run.json` beside a runnable app's `main.ts` says to call, and what the answer must say. */
interface RunSpec {
  readonly tool: string;
  readonly arguments?: Record<string, unknown>;
  /** Text the tool's answer must contain. */
  readonly expect: string;
  /** Headers the client sends with every request (a bearer token the app's guard checks). */
  readonly headers?: Record<string, string>;
  /** Environment variables the app is started with (the token it expects). */
  readonly env?: Record<string, string>;
}

/** The snippet folders that are whole apps: those with a `run.json`. */
const RUNNABLE = readdirSync(SNIPPETS, { recursive: true, encoding: 'utf8' })
  .filter((path) => path === 'run.json' || path.endsWith('/run.json'))
  .map((path) => path.slice(0, -'run.json'.length).replace(/\/$/, ''))
  .sort();

/** Every diagnostic of `files` and of the package's declarations, as `docs/snippets/x.ts:3:5 TS2305 …`. */
function diagnosticsOf(program: ts.Program, packed: PackedPackage, snippetsDir: string): string[] {
  const ours = program
    .getSourceFiles()
    .filter((file) => file.fileName.startsWith(`${snippetsDir}/`) || file.fileName.startsWith(`${packed.packageDir}/`));
  const diagnostics = [
    ...program.getOptionsDiagnostics(),
    ...program.getGlobalDiagnostics(),
    ...ours.flatMap((file) => [...program.getSyntacticDiagnostics(file), ...program.getSemanticDiagnostics(file)]),
  ];
  return diagnostics.map((diagnostic) => {
    const message = `TS${diagnostic.code} ${ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n')}`;
    if (!diagnostic.file) return message;
    const { line, character } = diagnostic.file.getLineAndCharacterOfPosition(diagnostic.start ?? 0);
    // Named as the writer knows the file: where it is in the repository.
    const name = diagnostic.file.fileName.startsWith(`${snippetsDir}/`)
      ? join('docs', 'snippets', relative(snippetsDir, diagnostic.file.fileName))
      : relative(packed.appDir, diagnostic.file.fileName);
    return `${name}:${line + 1}:${character + 1} ${message}`;
  });
}

/** The `.ts` files under `dir`, absolute. */
async function typeScriptFiles(dir: string): Promise<string[]> {
  return (await readdir(dir, { recursive: true }))
    .filter((path) => path.endsWith('.ts') && !path.endsWith('.d.ts'))
    .map((path) => join(dir, path))
    .sort();
}

/** Resolves with the first `http://…` URL the process prints on stdout; rejects if it exits or takes too long. */
function printedUrl(child: ChildProcess, timeoutMs: number): Promise<string> {
  let output = '';
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => fail(`printed no URL within ${timeoutMs} ms`), timeoutMs);
    const fail = (why: string) => {
      clearTimeout(timer);
      reject(new Error(`the app ${why}; its output:\n${output}`));
    };
    const read = (chunk: Buffer) => {
      output += chunk.toString();
      const url = /https?:\/\/[^\s'"]+/.exec(output)?.[0];
      if (url) {
        clearTimeout(timer);
        resolve(url);
      }
    };
    child.stdout!.on('data', read);
    child.stderr!.on('data', (chunk: Buffer) => (output += chunk.toString()));
    child.once('exit', (code, signal) => fail(`exited (${signal ?? code}) before printing its URL`));
  });
}

describe('the pages of the site (docs/)', () => {
  it('hold no inline TypeScript or JavaScript, JSON that parses, and includes of snippets and regions that exist', () => {
    expect(pageProblems(DOCS)).toEqual([]);
  });
});

describe('the snippets of the site (docs/snippets/), against the packed package', () => {
  let workDir: string;
  let packed: PackedPackage;
  let snippetsDir: string;

  beforeAll(async () => {
    workDir = await mkdtemp(join(tmpdir(), 'mcp42-docs-'));
    packed = await packedPackage(workDir);
    for (const name of SNIPPET_PACKAGES) {
      await symlink(join(ROOT, 'node_modules', name), join(packed.appDir, 'node_modules', name), 'dir');
    }
    snippetsDir = join(packed.appDir, 'snippets');
    await cp(SNIPPETS, snippetsDir, { recursive: true });
    // An ES module app, as Nest 12 (the repository's) requires.
    await writeFile(join(packed.appDir, 'package.json'), JSON.stringify({ private: true, type: 'module' }));
  }, 180_000);

  afterAll(async () => {
    if (workDir) await rm(workDir, { recursive: true, force: true });
  });

  it('type-check as a strict ES module app, importing mcp42 by name', async () => {
    const files = await typeScriptFiles(snippetsDir);
    expect(files.length).toBeGreaterThan(0);
    const program = ts.createProgram(files, COMPILER_OPTIONS);
    expect(diagnosticsOf(program, packed, snippetsDir)).toEqual([]);
  }, 120_000);

  it('include at least one whole app that runs (a folder with a run.json)', () => {
    expect(RUNNABLE.length).toBeGreaterThan(0);
  });

  describe.each(RUNNABLE)('the app in docs/snippets/%s', (app) => {
    const clients = useSdkClients();
    let child: ChildProcess | undefined;

    afterEach(async () => {
      await clients.closeAll();
      if (child && child.exitCode === null && child.signalCode === null) {
        const exited = new Promise((resolve) => child!.once('exit', resolve));
        child.kill('SIGTERM');
        const timer = setTimeout(() => child!.kill('SIGKILL'), 5_000);
        await exited;
        clearTimeout(timer);
      }
    });

    it('compiles, starts with PORT=0, prints its URL and answers its tool call', async () => {
      const sourceDir = join(snippetsDir, app);
      const outDir = join(packed.appDir, 'run', app);
      const program = ts.createProgram(await typeScriptFiles(sourceDir), {
        ...COMPILER_OPTIONS,
        noEmit: false,
        rootDir: sourceDir,
        outDir,
      });
      const emitted = program.emit();
      expect(emitted.emitSkipped).toBe(false);
      expect(diagnosticsOf(program, packed, snippetsDir)).toEqual([]);

      const run = JSON.parse(readFileSync(join(SNIPPETS, app, 'run.json'), 'utf8')) as RunSpec;
      // The child is an app as users start it: without this run's jest flags.
      const env = { ...process.env, ...run.env, PORT: '0', NODE_OPTIONS: '', NO_COLOR: '1' };
      child = spawn(process.execPath, [join(outDir, 'main.js')], { cwd: packed.appDir, env });
      const url = await printedUrl(child, 30_000);
      expect(new URL(url).hostname).toBe('127.0.0.1');

      const { client } = await clients.connect(url, { headers: run.headers });
      const result = await client.callTool({ name: run.tool, arguments: run.arguments ?? {} });
      expect(result.isError).toBeFalsy();
      const texts = (result.content as { type: string; text?: string }[]).map((block) => block.text ?? '');
      expect(texts.join('\n')).toContain(run.expect);
    }, 60_000);
  });
});
