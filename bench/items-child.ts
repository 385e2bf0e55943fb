import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { forkServer } from './affinity.js';
import { serverExecArgv } from './child.js';
import type { ItemsCommand, ItemsReport, ItemsServerSpec } from './targets.js';

const SCRIPT = new URL('./items-process.js', import.meta.url);
const STOP_TIMEOUT_MS = 5_000;
const REPORT_TIMEOUT_MS = 60_000;

type Report<T extends ItemsReport['type']> = Extract<ItemsReport, { type: T }>;

/** An items benchmark server (the fixture, or generated templates) in its own Node process, driven over IPC. */
export class ItemsChild {
  private constructor(
    private readonly process: ChildProcess,
    readonly url: string,
    /** CPU of NestFactory.create + listen in the child. */
    readonly bootCpuMs: number,
  ) {}

  static async start(spec: ItemsServerSpec): Promise<ItemsChild> {
    const child = forkServer(SCRIPT, [JSON.stringify(spec)], {
      execArgv: serverExecArgv(),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await new Promise<ItemsReport>((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`items server exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (message: ItemsReport) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
    if (ready.type !== 'ready') {
      child.kill();
      throw new Error(`items server sent ${ready.type} first`);
    }
    return new ItemsChild(child, ready.url, ready.bootCpuMs);
  }

  /** CPU the child used so far, user + system, in µs. */
  async cpuMicros(): Promise<number> {
    return (await this.ask({ type: 'usage' }, 'usage')).cpuMicros;
  }

  /** In-process medians of a template server: one resolution, compiling and registering every template. */
  async profile(): Promise<Omit<Report<'profile'>, 'type'>> {
    const { resolveMicros, compileMs, registerMs } = await this.ask({ type: 'profile' }, 'profile');
    return { resolveMicros, compileMs, registerMs };
  }

  /** Closes the server and waits for the process to end; kills it if it does not within 5 s. */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = once(this.process, 'exit');
    this.process.send({ type: 'stop' } satisfies ItemsCommand);
    const timer = setTimeout(() => this.process.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private async ask<T extends ItemsReport['type']>(command: ItemsCommand, type: T): Promise<Report<T>> {
    const settled = new AbortController();
    const signal = AbortSignal.any([settled.signal, AbortSignal.timeout(REPORT_TIMEOUT_MS)]);
    const answer = once(this.process, 'message', { signal });
    // A child that fails while answering (a profile check) exits: that is the answer, not the timeout.
    const exit = once(this.process, 'exit', { signal }).then(([code]) => {
      throw new Error(`items server exited with ${String(code)} instead of sending a ${type} report`);
    });
    this.process.send(command);
    let report: ItemsReport;
    try {
      [report] = (await Promise.race([answer, exit])) as [ItemsReport];
    } finally {
      settled.abort(); // removes the listener the race did not need
    }
    if (report.type !== type) throw new Error(`expected a ${type} report, got ${report.type}`);
    return report as Report<T>;
  }
}
