import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { forkServer } from './affinity.js';
import type { ChildCommand, ChildReport, TargetName } from './targets.js';

const SCRIPT = new URL('./server-process.js', import.meta.url);
const STOP_TIMEOUT_MS = 5_000;
const REPORT_TIMEOUT_MS = 30_000;

/** A target server running in its own Node process (own heap, own GC), driven over IPC. */
export class ServerChild {
  private constructor(
    private readonly process: ChildProcess,
    readonly url: string,
  ) {}

  /**
   * @param options.env added to this process's environment for the child.
   * @param options.cpu the core it is pinned to when processes are pinned (the server core unless told).
   */
  static async start(
    target: TargetName,
    options: { env?: NodeJS.ProcessEnv; cpu?: number } = {},
  ): Promise<ServerChild> {
    const child = forkServer(
      SCRIPT,
      [target],
      {
        execArgv: serverExecArgv(),
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        ...(options.env ? { env: { ...process.env, ...options.env } } : {}),
      },
      options.cpu,
    );
    const ready = await new Promise<ChildReport>((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`${target} server exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (message: ChildReport) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
    if (ready.type !== 'ready') {
      child.kill();
      throw new Error(`${target} server sent ${ready.type} first`);
    }
    return new ServerChild(child, ready.url);
  }

  /** The child's heapUsed after forced GCs, and how many sessions its server holds. */
  async heap(): Promise<{ heapUsed: number; sessions: number | undefined }> {
    const answer = nextReport(this.process);
    this.send({ type: 'heap' });
    const report = await answer;
    if (report.type !== 'heap') throw new Error(`expected a heap report, got ${report.type}`);
    return report;
  }

  /** CPU (user + system, µs) the child's process used so far. */
  async cpuMicros(): Promise<number> {
    const answer = nextReport(this.process);
    this.send({ type: 'usage' });
    const report = await answer;
    if (report.type !== 'usage') throw new Error(`expected a usage report, got ${report.type}`);
    return report.cpuMicros;
  }

  /** Closes the server and waits for the process to end; kills it if it does not within 5 s. */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = once(this.process, 'exit');
    this.send({ type: 'stop' });
    const timer = setTimeout(() => this.process.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private send(command: ChildCommand): void {
    this.process.send(command);
  }
}

/** Node flags of a server process: GC on demand; a CPU profile written on exit when BENCH_CPU_PROF names a directory. */
export function serverExecArgv(): string[] {
  const profileDir = process.env.BENCH_CPU_PROF;
  return profileDir ? ['--expose-gc', '--cpu-prof', `--cpu-prof-dir=${profileDir}`] : ['--expose-gc'];
}

function nextReport(child: ChildProcess): Promise<ChildReport> {
  return once(child, 'message', { signal: AbortSignal.timeout(REPORT_TIMEOUT_MS) }).then(
    ([message]) => message as ChildReport,
  );
}
