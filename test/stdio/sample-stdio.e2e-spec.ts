/**
 * The sample as a local MCP server: the official SDK clients spawn `node dist/sample-app/main.js
 * --stdio` as Claude Desktop or VS Code would, and drive it — SDK v1 over a 2025-11-25 session, the
 * v2 client with `versionNegotiation: { mode: 'auto' }` probing `server/discover` and going stateless
 * (2026-07-28). Between client and server, a wrapper (`test/stdio/app/stdout-tee.ts`) copies every
 * byte of the server's stdout, so that the test checks it held JSON-RPC lines only, from the first
 * byte to the exit, and how the server exited when the client closed stdin. Run once, in the Express
 * project: stdio has no HTTP platform.
 */
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stream } from 'node:stream';
import { Client as ModernClient, type Progress as ModernProgress } from '@modelcontextprotocol/client';
import { StdioClientTransport as ModernStdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import {
  ElicitRequestSchema,
  LoggingMessageNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type ElicitRequest,
  type Progress,
} from '@modelcontextprotocol/sdk/types.js';
import { SAMPLE_TOOL_NAMES } from '../fixtures/sample-tool-definitions.js';
import { ensureBuilt, ROOT, SAMPLE_MAIN } from '../utils/stdio-process.js';
import { onlyText } from '../utils/tool-results.js';
import { until } from '../utils/wait.js';

/**
 * What the sample serves on stdio: every item of the main server (the local user holds every scope),
 * but its route-backed tools (`get_forecast`, `create_alert`): no HTTP server runs their routes there.
 */
const STDIO_TOOL_NAMES = ['clear_forecast_cache', ...SAMPLE_TOOL_NAMES.filter((name) => name !== 'get_forecast')];

const TEE = join(ROOT, 'dist/test/stdio/app/stdout-tee.js');
const SERVER_INFO = { name: 'mcp42-sample', title: 'mcp42 sample: echo and weather', version: '1.0.0' };
const CITIES = ['Lisbon', 'Oslo', 'Nairobi', 'Lima', 'Osaka', 'Toronto', 'Cairo', 'Sydney'];
const EXPECTED_PROGRESS = [
  ...CITIES.map((city, index) => ({ progress: index, total: 8, message: `Refreshing ${city}` })),
  { progress: 8, total: 8, message: 'Done' },
];
const CONFIRM_SCHEMA = {
  type: 'object',
  properties: { confirm: { type: 'boolean', title: 'Yes, delete them', default: false } },
  required: ['confirm'],
};

/** Where the servers a client spawned leave their stdout copies and exit records. */
interface Capture {
  readonly dir: string;
  /** The command line the client spawns: the wrapper, then the sample with `--stdio`. */
  readonly params: { command: string; args: string[]; cwd: string; stderr: 'pipe' };
}

let root: string;
beforeAll(() => {
  ensureBuilt();
  root = mkdtempSync(join(tmpdir(), 'mcp42-stdio-'));
}, 130_000);
afterAll(() => rmSync(root, { recursive: true, force: true }));

/** Clients of the test, closed after it even when it failed midway (closing twice is harmless). */
const clients: { close(): Promise<void> }[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
});

let captures = 0;
function capture(): Capture {
  const dir = join(root, `client-${++captures}`);
  mkdirSync(dir);
  return {
    dir,
    params: { command: process.execPath, args: [TEE, dir, SAMPLE_MAIN, '--stdio'], cwd: ROOT, stderr: 'pipe' },
  };
}

/** One server process a client spawned: every message it wrote to stdout, and how it exited. */
interface ServerRun {
  readonly messages: Record<string, unknown>[];
  readonly exit: { code: number | null; signal: string | null; signals: string[] };
}

/**
 * The server processes spawned into `dir`, once all have exited. Every byte each wrote to stdout must
 * be a JSON-RPC message on a line of its own: parsing fails the test on anything else.
 */
function serverRuns(dir: string): ServerRun[] {
  const pids = readdirSync(dir)
    .filter((file) => file.endsWith('.out'))
    .map((file) => file.slice(0, -'.out'.length));
  return pids.map((pid) => {
    const text = readFileSync(join(dir, `${pid}.out`), 'utf8');
    expect(text.endsWith('\n')).toBe(true);
    const messages = text
      .slice(0, -1)
      .split('\n')
      .map((line) => {
        const message = JSON.parse(line) as Record<string, unknown>;
        expect(message.jsonrpc).toBe('2.0');
        return message;
      });
    const exit = JSON.parse(readFileSync(join(dir, `${pid}.exit.json`), 'utf8')) as ServerRun['exit'];
    return { messages, exit };
  });
}

/** The text of a message that is a tool's result with one text block. */
function onlyTextOf(message: Record<string, unknown>): string | undefined {
  const content = (message.result as { content?: { type: string; text?: string }[] } | undefined)?.content;
  return content?.length === 1 && content[0]!.type === 'text' ? content[0]!.text : undefined;
}

/** Progress params without their token (the client picks it). */
function omitToken(params: unknown): unknown {
  const { progressToken: _token, ...rest } = params as { progressToken: unknown };
  return rest;
}

/**
 * The progress of refresh_forecasts: every report the server wrote before the result, and what the
 * client's callback heard of them. The SDK clients hand a notification to its handler a microtask
 * later but settle a response at once: the last report, read in the same chunk as the result, finds
 * the call's progress handler gone. So the callback hears all of them but perhaps the last, and
 * stdout is where all nine are checked.
 */
function expectRefreshProgress(messages: Record<string, unknown>[], heard: readonly object[]): void {
  const resultAt = messages.findIndex((message) => onlyTextOf(message) === 'Refreshed 8 forecasts');
  expect(resultAt).toBeGreaterThan(0);
  const sent = messages.slice(0, resultAt).filter((message) => message.method === 'notifications/progress');
  expect(sent.map((message) => omitToken(message.params))).toEqual(EXPECTED_PROGRESS);
  expect(heard.length).toBeGreaterThanOrEqual(EXPECTED_PROGRESS.length - 1);
  expect(heard).toEqual(EXPECTED_PROGRESS.slice(0, heard.length));
}

/** Collects a child's stderr, to tell why it failed. */
function stderrOf(transport: { stderr: Stream | null }): () => string {
  let text = '';
  transport.stderr?.on('data', (chunk: Buffer) => (text += chunk.toString('utf8')));
  return () => text;
}

describe('the sample on stdio, driven by the official SDK clients', () => {
  it('SDK v1: a 2025-11-25 session with list, call, progress, logging, a subscription and an answered elicitation; exit 0 on EOF', async () => {
    const { dir, params } = capture();
    const transport = new StdioClientTransport(params);
    const stderr = stderrOf(transport);
    const asked: ElicitRequest['params'][] = [];
    const logs: unknown[] = [];
    const updated: string[] = [];
    const client = new Client({ name: 'stdio-v1', version: '1.0.0' }, { capabilities: { elicitation: {} } });
    clients.push(client);
    client.setRequestHandler(ElicitRequestSchema, (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { confirm: true } };
    });
    client.setNotificationHandler(LoggingMessageNotificationSchema, (notification) => {
      logs.push(notification.params);
    });
    client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
      updated.push(notification.params.uri);
    });

    await client.connect(transport);
    expect(client.getServerVersion()).toEqual(SERVER_INFO);
    const { tools } = await client.listTools();
    // The main server's items, all of them: the public HTTP server is not part of the stdio process.
    expect(tools.map((tool) => tool.name).sort()).toEqual(STDIO_TOOL_NAMES);
    expect(onlyText(await client.callTool({ name: 'echo', arguments: { text: 'over stdio' } }))).toBe('over stdio');

    await client.setLoggingLevel('info');
    await client.subscribeResource({ uri: 'weather://forecast/Lima' });
    const seen: Progress[] = [];
    const refreshed = await client.callTool({ name: 'refresh_forecasts', arguments: {} }, undefined, {
      onprogress: (progress) => seen.push(progress),
    });
    expect(onlyText(refreshed)).toBe('Refreshed 8 forecasts');
    expect(logs).toContainEqual({ level: 'info', data: 'Refreshing 8 cities' });
    await until(() => updated.length > 0, 'the update of the subscribed forecast', 5000);
    expect(updated).toEqual(['weather://forecast/Lima']);

    // No headers on stdio: the local user holds weather:admin, and confirms through the elicitation.
    const cleared = await client.callTool({ name: 'clear_forecast_cache', arguments: {} });
    expect(cleared.isError).toBeFalsy();
    expect(onlyText(cleared)).toBe('Deleted 8 cached forecast(s)');
    expect(asked).toEqual([{ message: 'Delete 8 cached forecast(s)?', requestedSchema: CONFIRM_SCHEMA }]);

    await client.close();
    const [run, ...more] = serverRuns(dir);
    expect(more).toEqual([]);
    // Ended by the client's EOF alone: no signal reached it, exit code 0.
    expect(run!.exit).toEqual({ code: 0, signal: null, signals: [] });
    const { messages } = run!;
    expectRefreshProgress(messages, seen);
    expect(messages[0]).toMatchObject({ id: 0, result: { protocolVersion: '2025-11-25', serverInfo: SERVER_INFO } });
    expect(messages.filter((message) => message.method === 'elicitation/create')).toHaveLength(1);
    expect(stderr()).toContain('Serving MCP server mcp42-sample 1.0.0 on stdio');
  });

  it('SDK v2 (auto): server/discover, then stateless 2026-07-28 requests: list, call, progress, an answered elicitation; exit 0 on EOF', async () => {
    const { dir, params } = capture();
    const transport = new ModernStdioClientTransport(params);
    const stderr = stderrOf(transport);
    const asked: unknown[] = [];
    const client = new ModernClient(
      { name: 'stdio-v2', version: '1.0.0' },
      { capabilities: { elicitation: { form: {} } }, versionNegotiation: { mode: 'auto' } },
    );
    clients.push(client);
    client.setRequestHandler('elicitation/create', (request) => {
      asked.push(request.params);
      return { action: 'accept', content: { confirm: true } };
    });

    await client.connect(transport);
    expect(client.getProtocolEra()).toBe('modern');
    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(STDIO_TOOL_NAMES);
    const forecast = await client.callTool({ name: 'weather_forecast', arguments: { city: 'Lisbon', days: 1 } });
    expect(forecast.isError).toBeFalsy();
    const seen: ModernProgress[] = [];
    const refreshed = await client.callTool(
      { name: 'refresh_forecasts', arguments: {} },
      { onprogress: (progress) => seen.push(progress) },
    );
    expect(onlyText(refreshed)).toBe('Refreshed 8 forecasts');
    // An input round on stdio: the call answers input_required, the client asks the user and calls again.
    const cleared = await client.callTool({ name: 'clear_forecast_cache', arguments: {} });
    expect(cleared.isError).toBeFalsy();
    expect(onlyText(cleared)).toBe('Deleted 8 cached forecast(s)');
    expect(asked).toEqual([{ message: 'Delete 8 cached forecast(s)?', requestedSchema: CONFIRM_SCHEMA }]);

    await client.close();
    // Two processes: the client probes server/discover on a sibling it then disposes of (EOF and
    // SIGTERM at once), and serves the session on a process of its own.
    const runs = serverRuns(dir);
    expect(runs).toHaveLength(2);
    const isDiscover = (message: Record<string, unknown>): boolean =>
      (message.result as { supportedVersions?: unknown } | undefined)?.supportedVersions !== undefined;
    const probe = runs.find((run) => run.messages.some(isDiscover))!;
    const run = runs.find((other) => other !== probe)!;
    expect(probe.messages).toEqual([
      expect.objectContaining({
        result: expect.objectContaining({ supportedVersions: expect.arrayContaining(['2026-07-28']) }),
      }),
    ]);
    expect(probe.exit).toMatchObject({ code: 0, signal: null });
    // The session's process ended by the client's EOF alone: no signal reached it, exit code 0.
    expect(run.exit).toEqual({ code: 0, signal: null, signals: [] });
    const { messages } = run;
    // Stateless throughout: no initialize was answered, and every result says it is complete or needs input.
    expect(
      messages.some((message) => (message.result as { protocolVersion?: unknown } | undefined)?.protocolVersion),
    ).toBe(false);
    const rounds = messages.filter(
      (message) => (message.result as { resultType?: unknown } | undefined)?.resultType === 'input_required',
    );
    expect(rounds).toHaveLength(1);
    expectRefreshProgress(messages, seen);
    expect(messages.some((message) => 'method' in message && message.method === 'elicitation/create')).toBe(false);
    expect(stderr()).toContain('Serving MCP server mcp42-sample 1.0.0 on stdio');
  });
});
