import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { MISSING_BINARY_ADVICE, redisServerPath } from './system-binaries.js';

/** How long a fresh server may take to answer PING. */
const READY_TIMEOUT_MS = 10_000;

/** A reply as {@link RedisServer.value} reads it: arrays nest, integers are numbers, nil is null. */
export type RespValue = string | number | null | RespValue[];

/**
 * A real `redis-server` of its own for a test run (`REDIS_SERVER` or the PATH's; npm test's first step
 * installs it when missing): on a free loopback port, persistence off, its working directory a temporary one, stopped
 * with its process. Never a mock: what the Redis-backed code does is checked against Redis itself.
 */
export class RedisServer {
  private paused = false;

  private constructor(
    readonly port: number,
    private readonly binary: string,
    private child: ChildProcess,
    private dir: string,
  ) {}

  /** `redis://127.0.0.1:<port>` */
  get url(): string {
    return `redis://127.0.0.1:${this.port}`;
  }

  /**
   * Starts one and waits until it answers PING.
   * @throws Error naming what to install when there is no `redis-server` on the PATH.
   */
  static async start(): Promise<RedisServer> {
    const binary = await redisServerPath();
    if (binary === undefined) throw new Error(`No redis-server found for the Redis tests: ${MISSING_BINARY_ADVICE}`);
    let lastError: unknown;
    // A free port is only free until someone takes it: try again on another one.
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const { child, dir } = spawnServer(binary, port);
      const server = new RedisServer(port, binary, child, dir);
      try {
        await server.ready();
        return server;
      } catch (error) {
        lastError = error;
        await server.stop();
        if ((error as NodeJS.ErrnoException).code === 'ENOENT') break;
      }
    }
    if ((lastError as NodeJS.ErrnoException | undefined)?.code === 'ENOENT') {
      throw new Error(`No redis-server found for the Redis tests: ${MISSING_BINARY_ADVICE}`);
    }
    throw lastError;
  }

  /** Sends one command (RESP) and returns the raw reply, for tests that look at Redis directly. */
  command(...args: string[]): Promise<string> {
    const payload = `*${args.length}\r\n${args.map((arg) => `$${Buffer.byteLength(arg)}\r\n${arg}\r\n`).join('')}`;
    return new Promise((resolve, reject) => {
      const socket = createConnection({ host: '127.0.0.1', port: this.port });
      let reply = '';
      socket.setEncoding('utf8');
      socket.setTimeout(2_000, () => socket.destroy(new Error('Redis did not answer in 2 s')));
      socket.on('data', (chunk: string) => {
        reply += chunk;
        if (respEnd(reply, 0) === reply.length) {
          socket.end();
          resolve(reply.slice(0, -2));
        }
      });
      socket.once('error', reject);
      socket.write(payload);
    });
  }

  /**
   * Sends one command and parses the reply, for tests that look at Redis directly.
   * @throws Error carrying the message of an error reply.
   */
  async value(...args: string[]): Promise<RespValue> {
    const reply = `${await this.command(...args)}\r\n`;
    return parseResp(reply, 0)[0];
  }

  /** Every key matching `pattern` (a SCAN loop, as a test that counts what is left wants). */
  async keys(pattern = '*'): Promise<string[]> {
    const found = new Set<string>();
    let cursor = '0';
    do {
      const [next, batch] = (await this.value('SCAN', cursor, 'MATCH', pattern, 'COUNT', '1000')) as [string, string[]];
      for (const key of batch) found.add(key);
      cursor = next;
    } while (cursor !== '0');
    return [...found].sort();
  }

  /** Freezes the server (SIGSTOP): connections stay open, nothing answers, the data is kept. */
  pause(): void {
    if (this.paused) return;
    this.child.kill('SIGSTOP');
    this.paused = true;
  }

  /** Lets a paused server go on (SIGCONT). */
  resume(): void {
    if (!this.paused) return;
    this.child.kill('SIGCONT');
    this.paused = false;
  }

  /** Starts a stopped server again on the same port, with the same flags, empty. */
  async restart(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      throw new Error('RedisServer.restart(): stop it first');
    }
    ({ child: this.child, dir: this.dir } = spawnServer(this.binary, this.port));
    try {
      await this.ready();
    } catch (error) {
      await this.stop();
      throw error;
    }
  }

  /** Stops the server (and removes its directory). */
  async stop(): Promise<void> {
    // A stopped process would hold SIGTERM until it runs again.
    this.resume();
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGTERM');
      // The grace timer is cancelled once the process exits: a pending one would keep Jest from exiting.
      const grace = new AbortController();
      const killed = await Promise.race([
        exited.then(() => true),
        sleep(5_000, false, { signal: grace.signal }).catch(() => false),
      ]);
      grace.abort();
      if (!killed) {
        this.child.kill('SIGKILL');
        await exited;
      }
    }
    rmSync(this.dir, { recursive: true, force: true });
  }

  private async ready(): Promise<void> {
    const spawned = new Promise<never>((_, reject) => {
      this.child.once('error', reject);
      this.child.once('exit', (code) => reject(new Error(`redis-server exited with code ${String(code)}`)));
    });
    spawned.catch(() => undefined);
    const deadline = Date.now() + READY_TIMEOUT_MS;
    for (;;) {
      const answer = await Promise.race([this.command('PING').catch(() => undefined), spawned]);
      if (answer === '+PONG') return;
      if (Date.now() > deadline) throw new Error(`redis-server on port ${this.port} did not answer PING`);
      await sleep(25);
    }
  }
}

/** Spawns `redis-server` on `port`: loopback only, no persistence, a fresh temporary directory. */
function spawnServer(binary: string, port: number): { child: ChildProcess; dir: string } {
  const dir = mkdtempSync(join(tmpdir(), 'mcp42-redis-'));
  const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
  const child = spawn(binary, [...args, '--dir', dir, '--loglevel', 'warning'], {
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  return { child, dir };
}

/** A port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return port;
}

/** Where the RESP reply starting at `from` ends, or -1 while it is incomplete. */
function respEnd(text: string, from: number): number {
  const lineEnd = text.indexOf('\r\n', from);
  if (lineEnd === -1) return -1;
  const type = text[from];
  const size = Number(text.slice(from + 1, lineEnd));
  if (type === '$') {
    if (size < 0) return lineEnd + 2;
    // Lengths count bytes and `text` characters: the same for the ASCII replies tests read.
    const end = lineEnd + 2 + size + 2;
    return end <= text.length ? end : -1;
  }
  if (type === '*') {
    let at = lineEnd + 2;
    for (let item = 0; item < size; item++) {
      at = respEnd(text, at);
      if (at === -1) return -1;
    }
    return at;
  }
  return lineEnd + 2;
}

/** Parses the RESP reply starting at `from`: the value and where it ends. */
function parseResp(text: string, from: number): [RespValue, number] {
  const lineEnd = text.indexOf('\r\n', from);
  const type = text[from];
  const line = text.slice(from + 1, lineEnd);
  switch (type) {
    case '+':
      return [line, lineEnd + 2];
    case '-':
      throw new Error(line);
    case ':':
      return [Number(line), lineEnd + 2];
    case '$': {
      const size = Number(line);
      if (size < 0) return [null, lineEnd + 2];
      const start = lineEnd + 2;
      return [text.slice(start, start + size), start + size + 2];
    }
    case '*': {
      const size = Number(line);
      if (size < 0) return [null, lineEnd + 2];
      const items: RespValue[] = [];
      let at = lineEnd + 2;
      for (let item = 0; item < size; item++) {
        const [value, next] = parseResp(text, at);
        items.push(value);
        at = next;
      }
      return [items, at];
    }
    default:
      throw new Error(`Unexpected RESP reply: ${JSON.stringify(text.slice(from, from + 40))}`);
  }
}
