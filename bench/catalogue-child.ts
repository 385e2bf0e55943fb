import type { ChildProcess } from 'node:child_process';
import { once } from 'node:events';
import { forkServer } from './affinity.js';
import { serverExecArgv } from './child.js';
import type { CatalogueCommand, CatalogueReport, CatalogueVariant, ProfileRuns } from './targets.js';

const SCRIPT = new URL('./catalogue-process.js', import.meta.url);
const STOP_TIMEOUT_MS = 5_000;
const REPORT_TIMEOUT_MS = 60_000;

type Report<T extends CatalogueReport['type']> = Extract<CatalogueReport, { type: T }>;

/** A catalogue server (see servers/mcp42-catalogue.ts) in its own Node process, driven over IPC. */
export class CatalogueChild {
  private constructor(
    private readonly process: ChildProcess,
    readonly url: string,
    /** CPU of NestFactory.create + listen in the child: where building the definitions (schemas included) went. */
    readonly bootCpuMs: number,
  ) {}

  static async start(variant: CatalogueVariant): Promise<CatalogueChild> {
    const child = forkServer(SCRIPT, [JSON.stringify(variant)], {
      execArgv: serverExecArgv(),
      stdio: ['ignore', 'inherit', 'inherit', 'ipc'],
    });
    const ready = await new Promise<CatalogueReport>((resolve, reject) => {
      const onExit = (code: number | null): void => reject(new Error(`catalogue server exited with ${code}`));
      child.once('exit', onExit);
      child.once('message', (message: CatalogueReport) => {
        child.off('exit', onExit);
        resolve(message);
      });
    });
    if (ready.type !== 'ready') {
      child.kill();
      throw new Error(`catalogue server sent ${ready.type} first`);
    }
    return new CatalogueChild(child, ready.url, ready.bootCpuMs);
  }

  /** CPU the child used so far, and its guard's counts. */
  usage(): Promise<Report<'usage'>> {
    return this.ask({ type: 'usage' }, 'usage');
  }

  /** Medians of in-process listings: computing every page, and encoding every page's response (two ways). */
  async profile(runs: ProfileRuns): Promise<{ listMs: number; encodeMs: number; stringifyMs: number }> {
    const { listMs, encodeMs, stringifyMs } = await this.ask({ type: 'profile', runs }, 'profile');
    return { listMs, encodeMs, stringifyMs };
  }

  /** Closes the server and waits for the process to end; kills it if it does not within 5 s. */
  async stop(): Promise<void> {
    if (this.process.exitCode !== null || this.process.signalCode !== null) return;
    const exited = once(this.process, 'exit');
    this.process.send({ type: 'stop' } satisfies CatalogueCommand);
    const timer = setTimeout(() => this.process.kill('SIGKILL'), STOP_TIMEOUT_MS);
    await exited;
    clearTimeout(timer);
  }

  private async ask<T extends CatalogueReport['type']>(command: CatalogueCommand, type: T): Promise<Report<T>> {
    const answer = once(this.process, 'message', { signal: AbortSignal.timeout(REPORT_TIMEOUT_MS) });
    this.process.send(command);
    const [report] = (await answer) as [CatalogueReport];
    if (report.type !== type) throw new Error(`expected a ${type} report, got ${report.type}`);
    return report as Report<T>;
  }
}
