import autocannon from 'autocannon';
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

  constructor(
    private readonly request: LoadRequest,
    private readonly settings: LoadSettings,
  ) {}

  /** Load that is not measured: lets the JIT and the heap settle. */
  async warmUp(): Promise<void> {
    if (this.settings.warmupSeconds > 0) await autocannon(this.options(this.settings.warmupSeconds));
  }

  /** One measured slice. */
  async measure(seconds: number): Promise<void> {
    const run = autocannon(this.options(seconds));
    run.on('response', (_client, _status, _bytes, ms) => this.latencies.add(ms));
    const result = await run;
    this.requests += result.requests.total;
    this.seconds += result.duration;
    this.errors += result.errors;
    this.non2xx += result.non2xx;
    this.mismatches += result.mismatches;
  }

  figures(): LoadFigures {
    return {
      requests: this.requests,
      reqPerSec: this.requests / this.seconds,
      p50Ms: this.latencies.percentile(50),
      p99Ms: this.latencies.percentile(99),
      errors: this.errors,
      non2xx: this.non2xx,
      mismatches: this.mismatches,
    };
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
