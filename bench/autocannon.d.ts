// Just the part of autocannon's programmatic API the benchmark uses (the package ships no types).
declare module 'autocannon' {
  import type { EventEmitter } from 'node:events';

  namespace autocannon {
    interface Options {
      url: string;
      method?: 'GET' | 'POST' | 'PUT' | 'DELETE';
      headers?: Record<string, string>;
      body?: string;
      connections?: number;
      pipelining?: number;
      /** Seconds; ignored when `amount` is set. */
      duration?: number;
      /** Total requests to send, instead of a duration. */
      amount?: number;
      /** Seconds before a request counts as timed out. */
      timeout?: number;
      /** A response whose body differs is counted in `mismatches`. */
      expectBody?: string;
      /** Milliseconds between samples of the request and throughput counters (default 1000). */
      sampleInt?: number;
    }

    interface Stats {
      average: number;
      mean: number;
      stddev: number;
      min: number;
      max: number;
      total: number;
      p50: number;
      p99: number;
    }

    interface Result {
      requests: Stats;
      latency: Stats;
      throughput: Stats;
      errors: number;
      timeouts: number;
      mismatches: number;
      non2xx: number;
      resets: number;
      duration: number;
      '2xx': number;
    }

    interface Client {
      readonly opts: Options;
    }

    interface Instance extends EventEmitter, PromiseLike<Result> {
      on(event: 'response', listener: (client: Client, status: number, bytes: number, ms: number) => void): this;
      on(event: string, listener: (...args: unknown[]) => void): this;
      stop(): void;
    }
  }

  function autocannon(options: autocannon.Options): autocannon.Instance;
  export = autocannon;
}
