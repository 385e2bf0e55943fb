import { RoundRobinProxy } from '../../test/utils/round-robin-proxy.js';
import type { BenchServer } from './bench-server.js';

/**
 * The round-robin proxy of the tests (test/utils/round-robin-proxy.ts) in front of the endpoints
 * BENCH_PROXY_TARGETS names (comma-separated `/mcp` URLs of one origin path), standing for a load
 * balancer: each request goes to the next instance in turn.
 */
export async function startRoundRobin(): Promise<BenchServer> {
  const endpoints = (process.env.BENCH_PROXY_TARGETS ?? '').split(',').filter((url) => url !== '');
  if (endpoints.length === 0) throw new Error('the round-robin proxy needs BENCH_PROXY_TARGETS');
  const paths = new Set(endpoints.map((url) => new URL(url).pathname));
  if (paths.size !== 1) throw new Error(`BENCH_PROXY_TARGETS must share one path, got ${[...paths].join(', ')}`);
  const proxy = await RoundRobinProxy.start(endpoints.map((url) => new URL(url).origin));
  return {
    url: `${proxy.url}${[...paths][0]}`,
    sessionCount: () => undefined,
    close: () => proxy.close(),
  };
}
