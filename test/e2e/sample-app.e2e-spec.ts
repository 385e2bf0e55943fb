/**
 * The built sample application as `npm start` runs it: `node dist/sample-app/main.js` in a process
 * of its own, configured by PORT and MCP_BEARER_TOKEN, talked to over real HTTP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { fileURLToPath } from 'node:url';
import { ECHO_TOOL_DEFINITION, WEATHER_FORECAST_TOOL_DEFINITION } from '../fixtures/sample-tool-definitions.js';
import { httpExchange } from '../utils/http-exchange.js';
import { initializeRequest, MCP_POST_HEADERS } from '../utils/start-app.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../dist/sample-app/main.js', import.meta.url));
/** How long the sample may take to start, or to exit when it must. */
const START_TIMEOUT_MS = 10_000;
const READY_LINE = /MCP endpoint: http:\/\/127\.0\.0\.1:\d+\/mcp/;

/** A free TCP port on 127.0.0.1: listen on port 0, note the port, close. */
function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });
}

/** The sample running in a child process, with everything it printed. */
class SampleProcess {
  private output = '';
  private readonly listeners = new Set<() => void>();
  /** Resolves when the process has exited. */
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  private exit: { code: number | null; signal: NodeJS.Signals | null } | undefined;

  private constructor(
    private readonly child: ChildProcess,
    readonly port: number,
  ) {
    const collect = (chunk: Buffer): void => {
      this.output += chunk.toString('utf8');
      for (const listener of this.listeners) listener();
    };
    child.stdout?.on('data', collect);
    child.stderr?.on('data', collect);
    this.exited = new Promise((resolve) => {
      child.once('exit', (code, signal) => {
        this.exit = { code, signal };
        resolve(this.exit);
        for (const listener of this.listeners) listener();
      });
    });
  }

  /** Starts the built sample on a free port; `token` undefined leaves MCP_BEARER_TOKEN unset. */
  static async start(token: string | undefined): Promise<SampleProcess> {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), NO_COLOR: '1' };
    // Jest's own flags are not the sample's; and an inherited token must not change the scenario.
    delete env.NODE_OPTIONS;
    delete env.MCP_BEARER_TOKEN;
    if (token !== undefined) env.MCP_BEARER_TOKEN = token;
    const child = spawn(process.execPath, [MAIN], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    return new SampleProcess(child, port);
  }

  get url(): string {
    return `http://127.0.0.1:${this.port}/mcp`;
  }

  /** Everything the process wrote to stdout and stderr so far. */
  get text(): string {
    return this.output;
  }

  /** Resolves once the output matches `pattern`; rejects if the process exits first, or after `timeoutMs`. */
  waitForOutput(pattern: RegExp, timeoutMs = START_TIMEOUT_MS): Promise<void> {
    return new Promise((resolve, reject) => {
      const check = (): void => {
        if (pattern.test(this.output)) finish();
        else if (this.exit) finish(new Error(`the sample exited (${JSON.stringify(this.exit)}):\n${this.output}`));
      };
      const finish = (error?: Error): void => {
        clearTimeout(timer);
        this.listeners.delete(check);
        if (error) reject(error);
        else resolve();
      };
      const timer = setTimeout(
        () => finish(new Error(`no output matching ${pattern} within ${timeoutMs} ms:\n${this.output}`)),
        timeoutMs,
      );
      this.listeners.add(check);
      check();
    });
  }

  /** Ends the process: SIGTERM, then SIGKILL if it is still there 3 s later. */
  async stop(): Promise<void> {
    if (this.exit) return;
    this.child.kill('SIGTERM');
    if ((await within(this.exited, 3000)) !== 'timeout') return;
    this.child.kill('SIGKILL');
    await within(this.exited, 3000);
  }
}

/** Resolves to the first of `promise` or 'timeout'. */
function within<T>(promise: Promise<T>, ms: number): Promise<T | 'timeout'> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<'timeout'>((resolve) => {
    timer = setTimeout(() => resolve('timeout'), ms);
  });
  return Promise.race([promise, timeout]).finally(() => clearTimeout(timer));
}

/** How a TCP connection attempt ended: 'connected', or the error code. */
function tryConnect(host: string, port: number): Promise<string> {
  return new Promise((resolve) => {
    const socket = net.connect({ host, port });
    const done = (outcome: string): void => {
      socket.destroy();
      resolve(outcome);
    };
    socket.setTimeout(3000, () => done('timeout'));
    socket.once('connect', () => done('connected'));
    socket.once('error', (error: NodeJS.ErrnoException) => done(error.code ?? error.message));
  });
}

/** The first non-internal IPv4 address of this machine, if it has one. */
function externalIPv4(): string | undefined {
  return Object.values(os.networkInterfaces())
    .flat()
    .find((entry) => entry !== undefined && entry.family === 'IPv4' && !entry.internal)?.address;
}

beforeAll(() => {
  if (!existsSync(MAIN)) execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'ignore', timeout: 120_000 });
  expect(existsSync(MAIN)).toBe(true);
}, 130_000);

describe('the built sample app (node dist/sample-app/main.js)', () => {
  const running: SampleProcess[] = [];

  afterEach(async () => {
    await Promise.all(running.splice(0).map((sample) => sample.stop()));
  });

  async function start(token: string | undefined): Promise<SampleProcess> {
    const sample = await SampleProcess.start(token);
    running.push(sample);
    return sample;
  }

  describe('without MCP_BEARER_TOKEN', () => {
    // One process serves every test of this block (it is only read from); it is stopped after them.
    let sample: SampleProcess | undefined;

    beforeAll(async () => {
      sample = await SampleProcess.start(undefined);
      await sample.waitForOutput(READY_LINE);
    }, START_TIMEOUT_MS + 2000);

    afterAll(async () => {
      await sample?.stop();
    });

    it('warns that it runs WITHOUT authentication, on 127.0.0.1 only', () => {
      expect(sample!.text).toMatch(/WITHOUT authentication/);
      expect(sample!.text).toMatch(/127\.0\.0\.1 only/);
      expect(sample!.text).toContain(`MCP endpoint: http://127.0.0.1:${sample!.port}/mcp`);
      expect(sample!.text).not.toMatch(/bearer token required/);
    });

    it('serves tools/list to an MCP client', async () => {
      const client = new Client({ name: 'sample-process-e2e', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(sample!.url));
      await client.connect(transport);
      try {
        expect(client.getServerVersion()).toMatchObject({ name: 'mcp42-sample', version: '0.1.0' });
        const { tools } = await client.listTools();
        const byName = new Map(tools.map((tool) => [tool.name, tool]));
        expect([...byName.keys()].sort()).toEqual(['echo', 'weather_forecast']);
        expect(byName.get('echo')).toEqual(ECHO_TOOL_DEFINITION);
        expect(byName.get('weather_forecast')).toEqual(WEATHER_FORECAST_TOOL_DEFINITION);
        expect(await client.callTool({ name: 'echo', arguments: { text: 'from a child process ✓' } })).toEqual({
          content: [{ type: 'text', text: 'from a child process ✓' }],
        });
        await transport.terminateSession();
      } finally {
        await client.close();
      }
    });

    it("listens on 127.0.0.1 only: the machine's other addresses refuse connections", async () => {
      expect(await tryConnect('127.0.0.1', sample!.port)).toBe('connected');
      const external = externalIPv4();
      if (external === undefined) return; // No other address to try on this machine.
      expect(await tryConnect(external, sample!.port)).toBe('ECONNREFUSED');
    });
  });

  describe('with MCP_BEARER_TOKEN=secret', () => {
    it('answers 401 with WWW-Authenticate: Bearer without the token, 200 with it', async () => {
      const sample = await start('secret');
      await sample.waitForOutput(READY_LINE);
      expect(sample.text).toMatch(/bearer token required/);
      expect(sample.text).not.toMatch(/WITHOUT authentication/);
      const body = JSON.stringify(initializeRequest());

      for (const authorization of [undefined, 'Bearer wrong', 'secret']) {
        const headers = { ...MCP_POST_HEADERS, ...(authorization ? { authorization } : {}) };
        const refused = await httpExchange(sample.url, 'POST', headers, body);
        expect(refused.status).toBe(401);
        expect(refused.headers['www-authenticate']).toMatch(/^Bearer\b/);
        expect(refused.headers['mcp-session-id']).toBeUndefined();
      }

      const accepted = await httpExchange(
        sample.url,
        'POST',
        { ...MCP_POST_HEADERS, authorization: 'Bearer secret' },
        body,
      );
      expect(accepted.status).toBe(200);
      expect(accepted.headers['www-authenticate']).toBeUndefined();
      const sessionId = accepted.headers['mcp-session-id'];
      expect(typeof sessionId).toBe('string');
      expect(JSON.parse(accepted.text)).toMatchObject({
        jsonrpc: '2.0',
        id: 0,
        result: { protocolVersion: '2025-06-18' },
      });

      const listed = await httpExchange(
        sample.url,
        'POST',
        { ...MCP_POST_HEADERS, authorization: 'Bearer secret', 'mcp-session-id': sessionId as string },
        JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      );
      expect(listed.status).toBe(200);
      expect((JSON.parse(listed.text) as { result: { tools: unknown[] } }).result.tools).toHaveLength(2);
    });
  });

  describe('with MCP_BEARER_TOKEN set to the empty string', () => {
    it('refuses to start: exits with code 1 and an error line', async () => {
      const sample = await start('');
      const exit = await within(sample.exited, START_TIMEOUT_MS);
      expect(exit).toEqual({ code: 1, signal: null });
      expect(sample.text).toMatch(/ERROR.*MCP_BEARER_TOKEN is set but empty/);
      expect(sample.text).not.toMatch(/MCP endpoint/);
      expect(await tryConnect('127.0.0.1', sample.port)).toBe('ECONNREFUSED');
    });
  });
});
