import { spawn, type ChildProcess } from 'node:child_process';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
/** Compiled by `npm run build` (which `npm test` runs before Jest). */
const MAIN = join(ROOT, 'dist/test/replica/main.js');

/** An instance of the multi-instance tests in a child process, which a test may kill outright. */
export class ReplicaProcess {
  private constructor(
    private readonly child: ChildProcess,
    readonly baseUrl: string,
  ) {}

  get mcpUrl(): string {
    return `${this.baseUrl}/mcp`;
  }

  /** Starts one and waits until it listens. */
  static async start(env: {
    redisUrl: string;
    keyPrefix: string;
    leaseMs: number;
    /** `tasks`: the task tools of test/fixtures/tasks.fixture.ts rather than the replicas fixture. */
    app?: 'tasks';
  }): Promise<ReplicaProcess> {
    const child = spawn(process.execPath, [MAIN], {
      env: {
        ...process.env,
        NODE_OPTIONS: '',
        MCP_REDIS_URL: env.redisUrl,
        MCP_KEY_PREFIX: env.keyPrefix,
        MCP_REPLICA_LEASE_MS: String(env.leaseMs),
        MCP_REPLICA_APP: env.app ?? '',
      },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let errors = '';
    child.stderr!.on('data', (chunk: Buffer) => (errors += chunk.toString()));
    const port = await new Promise<number>((resolvePort, reject) => {
      let output = '';
      child.stdout!.on('data', (chunk: Buffer) => {
        output += chunk.toString();
        const match = /listening (\d+)/.exec(output);
        if (match) resolvePort(Number(match[1]));
      });
      child.once('exit', (code) => reject(new Error(`replica exited (${code}) before listening: ${errors}`)));
      setTimeout(() => reject(new Error(`replica did not listen within 20 s: ${errors}`)), 20_000).unref();
    });
    return new ReplicaProcess(child, `http://127.0.0.1:${port}`);
  }

  /** Kills it outright: no shutdown hook runs, nothing is released. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = new Promise((resolveExit) => this.child.once('exit', resolveExit));
    this.child.kill('SIGKILL');
    await exited;
  }
}
