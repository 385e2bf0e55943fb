import { setPriority } from 'node:os';
import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { forkServer, SERVER_CPU } from '../affinity.js';
import type { ServerStats, SoakCommand, SoakReport } from './protocol.js';

const SCRIPT = new URL('./server-process.js', import.meta.url);
const STOP_TIMEOUT_MS = 5_000;
const REPORT_TIMEOUT_MS = 60_000;

/** The soak fixture server in its own Node process (own heap, `--expose-gc`), driven over IPC. */
export class SoakChild {
  /** Answers are taken in order: one question at a time. */
  private pending: Promise<unknown> = Promise.resolve();

  private constructor(
    private readonly child: ChildProcess,
    readonly url: string,
  ) {}

  /**
   * @param env added to this process's environment for the child (SOAK_IDLE_MS, SOAK_OUTBOX).
   * @param cpu the core it is pinned to, when the bench pins (the server's by default).
   */
  static async start(env: NodeJS.ProcessEnv = {}, cpu = SERVER_CPU): Promise<SoakChild> {
    const child = forkServer(
      SCRIPT,
      [],
      {
        // SOAK_SERVER_ARGS: more Node flags for the servers, e.g. `--cpu-prof --cpu-prof-dir=/tmp/p`.
        execArgv: ['--expose-gc', ...(process.env.SOAK_SERVER_ARGS?.split(' ').filter(Boolean) ?? [])],
        stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
        env: { ...process.env, ...env },
      },
      cpu,
    );
    const ready = await new Promise<SoakReport>((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`soak server exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (message: SoakReport) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
    if (ready.type !== 'ready') {
      child.kill();
      throw new Error(`soak server sent ${ready.type} first`);
    }
    return new SoakChild(child, ready.url);
  }

  /**
   * Runs the server at the lowest scheduling priority: an instance that stands for another machine
   * (the Redis variant's broadcaster) then takes only the CPU that the load generator and Redis,
   * which share its core, leave over.
   */
  yieldCpu(): void {
    if (this.child.pid !== undefined) setPriority(this.child.pid, 19);
  }

  /** The server's figures; `gc`: after forced full GCs (heapUsed is then what is retained). */
  stats(gc: boolean): Promise<ServerStats> {
    const next = this.pending.then(async () => {
      const answer = once(this.child, 'message', { signal: AbortSignal.timeout(REPORT_TIMEOUT_MS) });
      this.send({ type: 'stats', gc });
      const [report] = (await answer) as [SoakReport];
      if (report.type === 'error') throw new Error(`soak server: ${report.message}`);
      if (report.type !== 'stats') throw new Error(`expected stats, got ${report.type}`);
      const { type: _type, ...stats } = report;
      return stats;
    });
    this.pending = next.catch(() => undefined);
    return next;
  }

  /** Closes the server and waits for the process to end; kills it (this child only) if it does not within 5 s. */
  async stop(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    const exited = once(this.child, 'exit');
    this.send({ type: 'stop' });
    const timer = setTimeout(() => this.child.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private send(command: SoakCommand): void {
    this.child.send(command);
  }
}
