/**
 * A stdio MCP server in a child process, driven line by line: everything it writes to stdout is
 * kept whole (the tests check every byte of it), stderr beside it, and how and when it exited.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { until } from './wait.js';

export const ROOT = fileURLToPath(new URL('../..', import.meta.url));
/** The built sample, as `node dist/sample-app/main.js --stdio` runs it. */
export const SAMPLE_MAIN = join(ROOT, 'dist/sample-app/main.js');
/** The built fixture of the stdio tests (`test/stdio/app`). */
export const FIXTURE_MAIN = join(ROOT, 'dist/test/stdio/app/main.js');
const SOURCE_DIRS = ['src', 'sample-app', 'test/stdio/app'].map((dir) => join(ROOT, dir));

/** The newest modification time of a built source file under `dir`. */
function newestSourceMtime(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !/\.(e2e-)?spec\.ts$/.test(file))
    .reduce((newest, file) => Math.max(newest, statSync(join(dir, file)).mtimeMs), 0);
}

/**
 * Builds dist when it is missing or older than a source it is built from (`npm test` builds before
 * jest; a spec run alone would otherwise test code that is gone).
 */
export function ensureBuilt(): void {
  const built = [SAMPLE_MAIN, FIXTURE_MAIN].every((main) => existsSync(main));
  const oldest = built ? Math.min(...[SAMPLE_MAIN, FIXTURE_MAIN].map((main) => statSync(main).mtimeMs)) : 0;
  if (built && SOURCE_DIRS.every((dir) => newestSourceMtime(dir) <= oldest)) return;
  try {
    execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 120_000 });
  } catch (error) {
    const stdout = (error as { stdout?: Buffer }).stdout?.toString('utf8') ?? '';
    throw new Error(`npm run build failed:\n${stdout}`, { cause: error });
  }
}

/** The environment of a spawned server: jest's flags are not the server's. */
export function serverEnv(extra: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, NO_COLOR: '1', ...extra };
  delete env.NODE_OPTIONS;
  return env;
}

/** How the process exited. */
export interface StdioExit {
  readonly code: number | null;
  readonly signal: NodeJS.Signals | null;
}

/** A JSON-RPC message as read back from stdout. */
export type Line = Record<string, unknown>;

export class StdioProcess {
  private readonly stdoutChunks: Buffer[] = [];
  private stderrText = '';
  readonly exited: Promise<StdioExit>;

  private constructor(
    private readonly child: ChildProcess,
    readStdout: boolean,
  ) {
    if (readStdout) this.readStdout();
    // A write after the server stopped reading for good (it exited): its exit tells the rest.
    child.stdin!.on('error', () => undefined);
    child.stderr!.on('data', (chunk: Buffer) => (this.stderrText += chunk.toString('utf8')));
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => resolve({ code, signal }));
    });
  }

  /**
   * Spawns `node <main> ...args`. With `readStdout: false`, its stdout is left unread (a client that
   * does not read) until {@link readStdout}.
   */
  static start(
    main: string,
    args: readonly string[] = [],
    env: NodeJS.ProcessEnv = {},
    { readStdout = true }: { readStdout?: boolean } = {},
  ): StdioProcess {
    const child = spawn(process.execPath, [main, ...args], { cwd: ROOT, env: serverEnv(env), stdio: 'pipe' });
    return new StdioProcess(child, readStdout);
  }

  /** Starts (or goes on) reading stdout, keeping every byte. */
  readStdout(): void {
    if (this.child.stdout!.listenerCount('data') === 0) {
      this.child.stdout!.on('data', (chunk: Buffer) => this.stdoutChunks.push(chunk));
    }
  }

  /** Bytes written to the server's stdin that it has not taken yet (beyond what its pipe holds). */
  get unreadInput(): number {
    return this.child.stdin!.writableLength;
  }

  /** Whether the process is still there. */
  get running(): boolean {
    return this.child.exitCode === null && this.child.signalCode === null;
  }

  /** Everything written to stdout so far, as the bytes came. */
  get stdout(): string {
    return Buffer.concat(this.stdoutChunks).toString('utf8');
  }

  get stderr(): string {
    return this.stderrText;
  }

  /** The complete lines of stdout so far, parsed (throws on a line that is not JSON). */
  lines(): Line[] {
    const text = this.stdout;
    return text
      .slice(0, text.lastIndexOf('\n') + 1)
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => JSON.parse(line) as Line);
  }

  /** Writes a message (or raw text) as one line to stdin. */
  send(message: object | string): void {
    this.write(`${typeof message === 'string' ? message : JSON.stringify(message)}\n`);
  }

  /** Writes raw text to stdin. */
  write(text: string): void {
    this.child.stdin!.write(text);
  }

  /** The response to request `id`, once it is on stdout. */
  async response(id: unknown, timeoutMs = 10_000): Promise<Line> {
    let found: Line | undefined;
    await until(
      () => (found = this.lines().find((line) => line.id === id && !('method' in line))) !== undefined,
      `the response to ${JSON.stringify(id)}`,
      timeoutMs,
    );
    return found!;
  }

  /** Resolves once stderr matches `pattern`. */
  async waitForStderr(pattern: RegExp, timeoutMs = 10_000): Promise<void> {
    await until(() => pattern.test(this.stderrText), `stderr matching ${pattern}`, timeoutMs);
  }

  /** Closes stdin (the client's shutdown). */
  endInput(): void {
    this.child.stdin!.end();
  }

  kill(signal: NodeJS.Signals): void {
    this.child.kill(signal);
  }

  /** Ends the process if it is still there (after a failed test). */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** An `initialize` for protocol `version`, with the capabilities of a client that elicits. */
export function initializeLine(id: number | string = 1, version = '2025-11-25'): object {
  return {
    jsonrpc: '2.0',
    id,
    method: 'initialize',
    params: { protocolVersion: version, capabilities: { elicitation: {} }, clientInfo: { name: 'raw', version: '1' } },
  };
}

/** The `_meta` envelope of a stateless 2026-07-28 request. */
export const MODERN_ENVELOPE = {
  'io.modelcontextprotocol/protocolVersion': '2026-07-28',
  'io.modelcontextprotocol/clientCapabilities': {},
};
