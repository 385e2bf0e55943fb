import { execFileSync, fork, type ChildProcess, type ForkOptions } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { availableParallelism, loadavg } from 'node:os';

/**
 * CPU placement of the benchmark: every server process on one core (SERVER_CPU), this process (the
 * load generator, autocannon) on another (CLIENT_CPU), so that the client's work never competes
 * with the server's and a server's figures are its own. With `taskset` (util-linux) and two cores or
 * more; otherwise, or with BENCH_PIN=0, nothing is pinned and the report says so.
 */
export const SERVER_CPU = 0;
export const CLIENT_CPU = 1;

let pinning: boolean | undefined;

/** Whether processes are pinned: decided once, on the first call (which pins this process). */
export function pinned(): boolean {
  if (pinning === undefined) pinning = pinSelf();
  return pinning;
}

/** Where the processes run, for the report. */
export function placement(): string {
  return pinned()
    ? `servers pinned to CPU ${SERVER_CPU}, load generator (this process) to CPU ${CLIENT_CPU} (taskset)`
    : 'not pinned (BENCH_PIN=0, fewer than 2 cores, or no taskset): servers and load generator share the cores';
}

function pinSelf(): boolean {
  if (process.env.BENCH_PIN === '0' || process.platform !== 'linux' || availableParallelism() < 2) return false;
  try {
    // -a: every thread this process has now (libuv's pool, V8's workers); later ones inherit it.
    execFileSync('taskset', ['-a', '-p', '-c', String(CLIENT_CPU), String(process.pid)], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
}

/**
 * Forks a server process (an IPC channel to it, as `fork` gives), on the server core (or `cpu`) when
 * pinned: `taskset` runs Node, which keeps the channel the fork opened.
 */
export function forkServer(
  script: URL,
  args: readonly string[],
  options: ForkOptions = {},
  cpu = SERVER_CPU,
): ChildProcess {
  if (!pinned()) return fork(script, args, options);
  // What fork itself defaults to: this process's Node flags.
  const execArgv = options.execArgv ?? process.execArgv;
  return fork(script, args, {
    ...options,
    execPath: 'taskset',
    execArgv: ['-c', String(cpu), process.execPath, ...execArgv],
  });
}

/**
 * The cores neither the servers nor the load generator use, for extra processes (Redis, a second
 * instance, a proxy): none when nothing is pinned or there are only 2 cores.
 */
export function spareCpus(): number[] {
  if (!pinned()) return [];
  return Array.from({ length: Math.max(0, availableParallelism() - 2) }, (_, index) => index + 2);
}

/** Pins a running process (every thread it has) to `cpu`, when processes are pinned at all. */
export function pinProcess(pid: number, cpu: number): void {
  if (pinned()) execFileSync('taskset', ['-a', '-p', '-c', String(cpu), String(pid)], { stdio: 'ignore' });
}

/** The load averages (1, 5, 15 min), for the report: this benchmark alone keeps about 2 busy. */
export function loadAverage(): string {
  return loadavg()
    .map((load) => load.toFixed(2))
    .join(' ');
}

/** Busy CPU time of the whole machine so far, in µs (Linux: /proc/stat), or undefined where unknown. */
export function machineBusyMicros(): number | undefined {
  try {
    const line = readFileSync('/proc/stat', 'utf8').split('\n', 1)[0]!;
    const [, ...fields] = line.trim().split(/\s+/);
    // user nice system idle iowait irq softirq steal: all but idle and iowait is busy. In clock ticks,
    // USER_HZ, which is 100 on Linux whatever the kernel's own HZ.
    const [user = 0, nice = 0, system = 0, , , irq = 0, softirq = 0, steal = 0] = fields.map(Number);
    return (user + nice + system + irq + softirq + steal) * 10_000;
  } catch {
    return undefined;
  }
}
