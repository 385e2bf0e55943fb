import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtempSync, rmSync } from 'node:fs';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';

/** How long a fresh server may take to answer PING. */
const READY_TIMEOUT_MS = 10_000;

/**
 * A real `redis-server` of its own for a test run (Debian's package; `.ci/run` installs it when
 * missing): on a free loopback port, persistence off, its working directory a temporary one, stopped
 * with its process. Never a mock: what the Redis-backed code does is checked against Redis itself.
 */
export class RedisServer {
  private constructor(
    readonly port: number,
    private readonly child: ChildProcess,
    private readonly dir: string,
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
    let lastError: unknown;
    // A free port is only free until someone takes it: try again on another one.
    for (let attempt = 0; attempt < 3; attempt++) {
      const port = await freePort();
      const dir = mkdtempSync(join(tmpdir(), 'mcp42-redis-'));
      const args = ['--port', String(port), '--bind', '127.0.0.1', '--save', '', '--appendonly', 'no'];
      const child = spawn('redis-server', [...args, '--dir', dir, '--loglevel', 'warning'], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
      const server = new RedisServer(port, child, dir);
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
      throw new Error(
        "redis-server is not installed: the Redis tests need Debian's redis-server (apt-get install redis-server; .ci/run installs it)",
      );
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

  /** Stops the server (and removes its directory). */
  async stop(): Promise<void> {
    if (this.child.exitCode === null && this.child.signalCode === null) {
      const exited = new Promise<void>((resolve) => this.child.once('exit', () => resolve()));
      this.child.kill('SIGTERM');
      const killed = await Promise.race([exited.then(() => true), sleep(5_000).then(() => false)]);
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
