/**
 * The built sample application as `npm start` runs it: `node dist/sample-app/main.js` in a process
 * of its own, configured by PORT, MCP_BEARER_TOKEN and MCP_ADMIN_TOKEN, talked to over real HTTP.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readdirSync, statSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import {
  CLEAR_FORECAST_CACHE_TOOL_DEFINITION,
  ECHO_TOOL_DEFINITION,
  REFRESH_FORECASTS_TOOL_DEFINITION,
  SAMPLE_ADMIN_TOOL_NAMES,
  SAMPLE_OPEN_TOOL_NAMES,
  SAMPLE_TOOL_NAMES,
  WEATHER_FORECAST_TOOL_DEFINITION,
  WEATHER_SUMMARY_TOOL_DEFINITION,
} from '../../fixtures/sample-tool-definitions.js';
import { httpExchange } from '../../utils/http-exchange.js';
import { initializeRequest, MCP_POST_HEADERS, TEST_ADAPTER } from '../../utils/start-app.js';
import { orTimeout } from '../../utils/wait.js';

const ROOT = fileURLToPath(new URL('../../..', import.meta.url));
const MAIN = fileURLToPath(new URL('../../../dist/sample-app/main.js', import.meta.url));
/**
 * How long the sample may take to start, or to exit when it must: several start at once, and a
 * loaded 2-core machine took over 10 s (a bound, not a measure: a sample that hangs still fails).
 */
const START_TIMEOUT_MS = 30_000;
const READY_LINE = /MCP endpoint: http:\/\/127\.0\.0\.1:\d+\/mcp/;
/** The sources `dist/sample-app/main.js` is built from (spec files are not part of the build). */
const SOURCE_DIRS = ['src', 'sample-app'].map((dir) => join(ROOT, dir));

/** The newest modification time of a built source file under `dir`. */
function newestSourceMtime(dir: string): number {
  return readdirSync(dir, { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts') && !/\.(e2e-)?spec\.ts$/.test(file))
    .reduce((newest, file) => Math.max(newest, statSync(join(dir, file)).mtimeMs), 0);
}

/** Whether dist is missing or older than a source it is built from: it would test code that is gone. */
function distIsStale(): boolean {
  if (!existsSync(MAIN)) return true;
  const built = statSync(MAIN).mtimeMs;
  return SOURCE_DIRS.some((dir) => newestSourceMtime(dir) > built);
}

/** The sample's environment: a value left undefined is unset, not inherited. */
interface SampleEnv {
  readonly bearerToken?: string;
  readonly adminToken?: string;
  readonly stateSecret?: string;
  /** `MCP_HTTP_ADAPTER`: the platform of the test run unless given. */
  readonly adapter?: string;
}

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

  /** Starts the built sample on a free port; a token left undefined is unset in its environment. */
  static async start({ bearerToken, adminToken, stateSecret, adapter }: SampleEnv): Promise<SampleProcess> {
    const port = await freePort();
    const env: NodeJS.ProcessEnv = { ...process.env, PORT: String(port), NO_COLOR: '1' };
    // Jest's own flags are not the sample's; and an inherited token must not change the scenario.
    delete env.NODE_OPTIONS;
    delete env.MCP_BEARER_TOKEN;
    delete env.MCP_ADMIN_TOKEN;
    delete env.MCP_STATE_SECRET;
    // The sample runs on the platform of the test run (MCP_HTTP_ADAPTER is what its entry reads).
    env.MCP_HTTP_ADAPTER = adapter ?? TEST_ADAPTER;
    if (stateSecret !== undefined) env.MCP_STATE_SECRET = stateSecret;
    if (bearerToken !== undefined) env.MCP_BEARER_TOKEN = bearerToken;
    if (adminToken !== undefined) env.MCP_ADMIN_TOKEN = adminToken;
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
    if ((await orTimeout(this.exited, 3000)) !== 'timeout') return;
    this.child.kill('SIGKILL');
    await orTimeout(this.exited, 3000);
  }
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
  // `npm test` builds before jest runs. Run alone, a dist that is missing or older than its sources is
  // built here, or these tests would pass or fail on code that no longer exists (run this spec alone
  // then: in a run of both projects, two such builds would empty dist under each other).
  if (distIsStale()) {
    try {
      execFileSync('npm', ['run', 'build'], { cwd: ROOT, stdio: 'pipe', timeout: 120_000 });
    } catch (error) {
      // tsc reports its errors on stdout, which the error's own message leaves out.
      const stdout = (error as { stdout?: Buffer }).stdout?.toString('utf8') ?? '';
      throw new Error(`npm run build failed:\n${stdout}`, { cause: error });
    }
  }
  expect(existsSync(MAIN)).toBe(true);
}, 130_000);

describe('the built sample app (node dist/sample-app/main.js)', () => {
  const running: SampleProcess[] = [];

  afterEach(async () => {
    await Promise.all(running.splice(0).map((sample) => sample.stop()));
  });

  async function start(env: SampleEnv): Promise<SampleProcess> {
    const sample = await SampleProcess.start(env);
    running.push(sample);
    return sample;
  }

  describe('without MCP_BEARER_TOKEN', () => {
    // One process serves every test of this block (it is only read from); it is stopped after them.
    let sample: SampleProcess | undefined;

    beforeAll(async () => {
      sample = await SampleProcess.start({});
      await sample.waitForOutput(READY_LINE);
    }, START_TIMEOUT_MS + 2000);

    afterAll(async () => {
      await sample?.stop();
    });

    it('warns that it runs WITHOUT authentication, on 127.0.0.1 only', () => {
      expect(sample!.text).toMatch(/WITHOUT authentication/);
      expect(sample!.text).toMatch(/127\.0\.0\.1 only/);
      expect(sample!.text).toContain(`MCP endpoint: http://127.0.0.1:${sample!.port}/mcp on ${TEST_ADAPTER}`);
      expect(sample!.text).not.toMatch(/bearer token required/);
    });

    it('serves tools/list to an MCP client', async () => {
      const client = new Client({ name: 'sample-process-e2e', version: '1.0.0' });
      const transport = new StreamableHTTPClientTransport(new URL(sample!.url));
      await client.connect(transport);
      try {
        expect(client.getServerVersion()).toMatchObject({ name: 'mcp42-sample', version: '1.0.0' });
        const { tools } = await client.listTools();
        const byName = new Map(tools.map((tool) => [tool.name, tool]));
        // No token, so no weather:admin scope: clear_forecast_cache is hidden.
        expect([...byName.keys()].sort()).toEqual(SAMPLE_OPEN_TOOL_NAMES);
        expect(byName.get('echo')).toEqual(ECHO_TOOL_DEFINITION);
        expect(byName.get('weather_forecast')).toEqual(WEATHER_FORECAST_TOOL_DEFINITION);
        expect(byName.get('weather_summary')).toEqual(WEATHER_SUMMARY_TOOL_DEFINITION);
        expect(byName.get('refresh_forecasts')).toEqual(REFRESH_FORECASTS_TOOL_DEFINITION);
        expect(await client.callTool({ name: 'echo', arguments: { text: 'from a child process ✓' } })).toEqual({
          content: [{ type: 'text', text: 'from a child process ✓' }],
        });
        await transport.terminateSession();
      } finally {
        await client.close();
      }
    });

    it('answers a CORS preflight of a loopback page (cors on, for its allowed origins), and no other origin', async () => {
      const preflight = (origin: string): Promise<Response> =>
        fetch(sample!.url, {
          method: 'OPTIONS',
          headers: {
            origin,
            'access-control-request-method': 'POST',
            'access-control-request-headers': 'content-type, mcp-session-id',
          },
        });
      const allowed = await preflight('http://localhost:5173');
      expect(allowed.status).toBe(204);
      expect(allowed.headers.get('access-control-allow-origin')).toBe('http://localhost:5173');
      expect((await preflight('https://evil.example')).status).toBe(403);
    });

    it("listens on 127.0.0.1 only: the machine's other addresses refuse connections", async () => {
      expect(await tryConnect('127.0.0.1', sample!.port)).toBe('connected');
      const external = externalIPv4();
      if (external === undefined) return; // No other address to try on this machine.
      expect(await tryConnect(external, sample!.port)).toBe('ECONNREFUSED');
    });
  });

  describe('with MCP_BEARER_TOKEN=secret and MCP_ADMIN_TOKEN=admin-secret', () => {
    it('answers 401 with WWW-Authenticate: Bearer without a token, 200 with either, and lists by scope', async () => {
      const sample = await start({ bearerToken: 'secret', adminToken: 'admin-secret' });
      await sample.waitForOutput(READY_LINE);
      expect(sample.text).toMatch(/bearer token required/);
      expect(sample.text).not.toMatch(/WITHOUT authentication/);
      const body = JSON.stringify(initializeRequest());

      for (const authorization of [undefined, 'Bearer wrong', 'secret', 'admin-secret', 'Bearer admin-secretx']) {
        const headers = { ...MCP_POST_HEADERS, ...(authorization ? { authorization } : {}) };
        const refused = await httpExchange(sample.url, 'POST', headers, body);
        expect(refused.status).toBe(401);
        expect(refused.headers['www-authenticate']).toMatch(/^Bearer\b/);
        expect(refused.headers['mcp-session-id']).toBeUndefined();
      }

      /** The tools a session opened with `token` is given. */
      const toolsFor = async (token: string): Promise<{ name: string }[]> => {
        const authorization = `Bearer ${token}`;
        const accepted = await httpExchange(sample.url, 'POST', { ...MCP_POST_HEADERS, authorization }, body);
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
          { ...MCP_POST_HEADERS, authorization, 'mcp-session-id': sessionId as string },
          JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
        );
        expect(listed.status).toBe(200);
        return (JSON.parse(listed.text) as { result: { tools: { name: string }[] } }).result.tools;
      };
      const names = (tools: { name: string }[]): string[] => tools.map((tool) => tool.name).sort();

      expect(names(await toolsFor('secret'))).toEqual(SAMPLE_TOOL_NAMES);
      // Only the admin token grants weather:admin: main.ts hands MCP_ADMIN_TOKEN to the module.
      const adminTools = await toolsFor('admin-secret');
      expect(names(adminTools)).toEqual(SAMPLE_ADMIN_TOOL_NAMES);
      expect(adminTools.find((tool) => tool.name === 'clear_forecast_cache')).toEqual(
        CLEAR_FORECAST_CACHE_TOOL_DEFINITION,
      );
    });
  });

  describe('refusing a misconfiguration: exit code 1, an error line, never listening', () => {
    const cases: [string, SampleEnv, RegExp][] = [
      ['MCP_BEARER_TOKEN set to the empty string', { bearerToken: '' }, /ERROR.*MCP_BEARER_TOKEN is set but empty/],
      [
        'MCP_ADMIN_TOKEN set to the empty string',
        { bearerToken: 'secret', adminToken: '' },
        /ERROR.*MCP_ADMIN_TOKEN is set but empty/,
      ],
      [
        'MCP_ADMIN_TOKEN without MCP_BEARER_TOKEN',
        { adminToken: 'admin-secret' },
        /ERROR.*MCP_ADMIN_TOKEN needs MCP_BEARER_TOKEN/,
      ],
      [
        'MCP_STATE_SECRET shorter than 32 bytes',
        { stateSecret: 'short' },
        /ERROR.*MCP_STATE_SECRET must have at least 32 bytes/,
      ],
      ['MCP_HTTP_ADAPTER naming no platform', { adapter: 'koa' }, /ERROR.*MCP_HTTP_ADAPTER must be express or fastify/],
    ];
    const samples = new Map<string, SampleProcess>();

    // Each process takes a second or two just to load its modules: they start together, not one per test.
    beforeAll(async () => {
      const started = await Promise.all(cases.map(([, env]) => SampleProcess.start(env)));
      cases.forEach(([label], index) => samples.set(label, started[index]!));
    });

    afterAll(async () => {
      await Promise.all([...samples.values()].map((sample) => sample.stop()));
    });

    it.each(cases)(
      '%s',
      async (label, _env, errorLine) => {
        const sample = samples.get(label)!;
        const exit = await orTimeout(sample.exited, START_TIMEOUT_MS);
        expect(exit).toEqual({ code: 1, signal: null });
        expect(sample.text).toMatch(errorLine);
        expect(sample.text).not.toMatch(/MCP endpoint/);
        expect(await tryConnect('127.0.0.1', sample.port)).toBe('ECONNREFUSED');
      },
      START_TIMEOUT_MS + 5000,
    );
  });
});
