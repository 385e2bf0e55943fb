import autocannon from 'autocannon';
import { machineBusyMicros } from './affinity.js';
import { LatencyRecorder } from './latency-recorder.js';

/** Load shape shared by every target, so their figures compare. */
export interface LoadSettings {
  readonly connections: number;
  readonly pipelining: number;
  readonly warmupSeconds: number;
  /** Measured seconds per target, split evenly over the rounds. */
  readonly durationSeconds: number;
  readonly rounds: number;
}

/** One POST, repeated. */
export interface LoadRequest {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly body: string;
  /** Every response must have exactly this body; others count as mismatches. */
  readonly expectBody?: string;
}

export interface LoadFigures {
  readonly requests: number;
  readonly reqPerSec: number;
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Socket errors and timeouts. */
  readonly errors: number;
  readonly non2xx: number;
  /** Responses whose body differs from the expected one. */
  readonly mismatches: number;
  /** With a CPU probe: what the server's process spent per request (user + system), in µs. */
  readonly cpuMicrosPerRequest?: number;
  /** With a CPU probe: the server process's CPU over the measured time (1 = one core busy). */
  readonly serverCores?: number;
  /**
   * With a CPU probe, on Linux: cores the rest of the machine kept busy meanwhile (neither the server
   * nor this process): other people's work, which makes the figures noisy.
   */
  readonly otherCores?: number;
  /** Each measured slice, in order: one per round. */
  readonly slices: readonly SliceFigures[];
}

/** One measured slice of a load. */
export interface SliceFigures {
  readonly reqPerSec: number;
  readonly cpuMicrosPerRequest?: number;
}

/** Reads the CPU time (user + system, µs) a server's process has used so far. */
export type CpuProbe = () => Promise<number>;

interface CpuSample {
  readonly server: number;
  readonly client: number;
  readonly machine: number | undefined;
  readonly at: number;
}

/**
 * The load on one target, measured in slices (so targets can take turns and share any drift in
 * the machine's background load) and summed. Latency percentiles come from every response's own
 * time (sub-millisecond), not from autocannon's histogram, which rounds to whole milliseconds.
 */
export class TargetLoad {
  private readonly latencies = new LatencyRecorder();
  private requests = 0;
  private seconds = 0;
  private errors = 0;
  private non2xx = 0;
  private mismatches = 0;
  private serverMicros = 0;
  private otherMicros: number | undefined = 0;
  private wallMicros = 0;
  private readonly slices: SliceFigures[] = [];

  /** @param cpu reads the server's CPU time, for the CPU figures; without it there are none. */
  constructor(
    private readonly request: LoadRequest,
    private readonly settings: LoadSettings,
    private readonly cpu?: CpuProbe,
  ) {}

  /** Load that is not measured: lets the JIT and the heap settle. */
  async warmUp(): Promise<void> {
    if (this.settings.warmupSeconds > 0) await autocannon(this.options(this.settings.warmupSeconds));
  }

  /** One measured slice. */
  async measure(seconds: number): Promise<void> {
    const before = await this.sample();
    const run = autocannon(this.options(seconds));
    run.on('response', (_client, _status, _bytes, ms) => this.latencies.add(ms));
    const result = await run;
    const after = await this.sample();
    const requests = result.requests.total;
    this.requests += requests;
    this.seconds += result.duration;
    this.errors += result.errors;
    this.non2xx += result.non2xx;
    this.mismatches += result.mismatches;
    let cpuMicrosPerRequest: number | undefined;
    if (before && after) {
      const server = after.server - before.server;
      this.serverMicros += server;
      this.wallMicros += (after.at - before.at) * 1000;
      cpuMicrosPerRequest = server / requests;
      const machine =
        after.machine !== undefined && before.machine !== undefined ? after.machine - before.machine : undefined;
      if (machine === undefined || this.otherMicros === undefined) this.otherMicros = undefined;
      else this.otherMicros += Math.max(0, machine - server - (after.client - before.client));
    }
    this.slices.push({ reqPerSec: requests / result.duration, cpuMicrosPerRequest });
  }

  figures(): LoadFigures {
    const withCpu = this.cpu !== undefined && this.requests > 0;
    return {
      requests: this.requests,
      reqPerSec: this.requests / this.seconds,
      p50Ms: this.latencies.percentile(50),
      p99Ms: this.latencies.percentile(99),
      errors: this.errors,
      non2xx: this.non2xx,
      mismatches: this.mismatches,
      ...(withCpu
        ? {
            cpuMicrosPerRequest: this.serverMicros / this.requests,
            serverCores: this.serverMicros / this.wallMicros,
            ...(this.otherMicros === undefined ? {} : { otherCores: this.otherMicros / this.wallMicros }),
          }
        : {}),
      slices: this.slices,
    };
  }

  /** The server's, this process's and the machine's CPU time now; nothing without a probe. */
  private async sample(): Promise<CpuSample | undefined> {
    if (!this.cpu) return undefined;
    const server = await this.cpu();
    const { user, system } = process.cpuUsage();
    return { server, client: user + system, machine: machineBusyMicros(), at: performance.now() };
  }

  private options(duration: number): autocannon.Options {
    const { url, headers, body, expectBody } = this.request;
    const { connections, pipelining } = this.settings;
    // autocannon checks whether the duration is over at each sample tick (every second by default), which
    // would round every slice up to whole seconds.
    const sampleInt = 100;
    return {
      url,
      method: 'POST',
      headers,
      body,
      expectBody,
      connections,
      pipelining,
      duration,
      timeout: 10,
      sampleInt,
    };
  }
}

/** `amount` requests over `connections` keep-alive connections; returns the 2xx responses per second. */
export async function measureRate(
  request: LoadRequest,
  amount: number,
  connections: number,
): Promise<{ perSecond: number; failures: number }> {
  const started = performance.now();
  const result = await autocannon({
    url: request.url,
    method: 'POST',
    headers: request.headers,
    body: request.body,
    amount,
    connections,
    timeout: 10,
    // autocannon notices the end of an `amount` run only at its next sample tick (1 s by default),
    // which would round the elapsed time up to whole seconds.
    sampleInt: 5,
  });
  const seconds = (performance.now() - started) / 1000;
  return { perSecond: result['2xx'] / seconds, failures: result.errors + result.non2xx + result.timeouts };
}
