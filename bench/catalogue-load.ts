import autocannon from 'autocannon';
import type { CatalogueChild } from './catalogue-child.js';
import { LatencyRecorder } from './latency-recorder.js';
import type { LoadSettings } from './load.js';

/** One full `tools/list` walk: the request body of each page, in order, and the exact answer to each. */
export interface Listing {
  readonly url: string;
  readonly headers: Record<string, string>;
  readonly bodies: readonly string[];
  readonly answers: readonly string[];
}

export interface CatalogueLoadFigures {
  /** Pages served (HTTP requests). */
  readonly requests: number;
  readonly reqPerSec: number;
  /** Full listings per second: requests per second over pages per listing. */
  readonly listingsPerSec: number;
  /** Per request (one page). */
  readonly p50Ms: number;
  readonly p99Ms: number;
  /** Response bytes received per second, HTTP headers included. */
  readonly bytesPerSec: number;
  /** CPU (user + system) the server's process spent per full listing while under load. */
  readonly cpuMsPerListing: number;
  readonly errors: number;
  readonly non2xx: number;
  /** Answers that differ from the page's expected answer. */
  readonly mismatches: number;
}

/** A request of an autocannon sequence: each connection sends them in order, then starts over. */
interface SequenceRequest {
  readonly method: 'POST';
  readonly body: string;
  readonly onResponse: (status: number, body: string) => void;
}

/** autocannon's `requests` option, which the shared typings (autocannon.d.ts) leave out. */
interface SequenceOptions extends autocannon.Options {
  readonly requests: readonly SequenceRequest[];
}

/**
 * Load on one catalogue server: every connection walks all pages of the listing, over and over, the
 * next page's request sent when the previous answer arrived, as a client following `nextCursor`
 * would (cursors are stable, so the walk's requests can be prepared once). Measured in slices, like
 * TargetLoad (load.ts), with the server's CPU time read before and after each slice.
 */
export class CatalogueLoad {
  private readonly latencies = new LatencyRecorder();
  private requests = 0;
  private seconds = 0;
  private bytes = 0;
  private cpuMicros = 0;
  private errors = 0;
  private non2xx = 0;
  private mismatches = 0;

  constructor(
    private readonly child: CatalogueChild,
    private readonly listing: Listing,
    private readonly settings: LoadSettings,
  ) {}

  async warmUp(): Promise<void> {
    if (this.settings.warmupSeconds > 0) await autocannon(this.options(this.settings.warmupSeconds, false));
  }

  async measure(seconds: number): Promise<void> {
    const before = await this.child.usage();
    const run = autocannon(this.options(seconds, true));
    run.on('response', (_client, _status, bytes, ms) => {
      this.latencies.add(ms);
      this.bytes += bytes;
    });
    const result = await run;
    const after = await this.child.usage();
    this.cpuMicros += after.cpuMicros - before.cpuMicros;
    this.requests += result.requests.total;
    this.seconds += result.duration;
    this.errors += result.errors;
    this.non2xx += result.non2xx;
  }

  figures(): CatalogueLoadFigures {
    const pages = this.listing.bodies.length;
    const listings = this.requests / pages;
    return {
      requests: this.requests,
      reqPerSec: this.requests / this.seconds,
      listingsPerSec: listings / this.seconds,
      p50Ms: this.latencies.percentile(50),
      p99Ms: this.latencies.percentile(99),
      bytesPerSec: this.bytes / this.seconds,
      cpuMsPerListing: this.cpuMicros / 1000 / listings,
      errors: this.errors,
      non2xx: this.non2xx,
      mismatches: this.mismatches,
    };
  }

  private options(duration: number, counted: boolean): SequenceOptions {
    const { url, headers, bodies, answers } = this.listing;
    const { connections, pipelining } = this.settings;
    const requests = bodies.map((body, page) => ({
      method: 'POST' as const,
      body,
      onResponse: (status: number, answer: string) => {
        if (counted && status === 200 && answer !== answers[page]) this.mismatches++;
      },
    }));
    // autocannon checks whether the duration is over at each sample tick (every second by default), which
    // would round every slice up to whole seconds.
    const sampleInt = 100;
    return { url, method: 'POST', headers, requests, connections, pipelining, duration, timeout: 10, sampleInt };
  }
}
