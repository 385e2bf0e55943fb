/**
 * Who sees which tools, with the official SDK client over real HTTP: `@McpScopes()` on a class and
 * a method, `@McpPublic()`, an application role guard, bearer tokens turned into users by an
 * endpoint guard, and `tools/list` pagination (cursors followed by the SDK, invalid cursors,
 * hidden tools on no page).
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ErrorCode, type Tool } from '@modelcontextprotocol/sdk/types.js';
import { McpModule } from '../../../src/index.js';
import {
  AdminTools,
  CallJournal,
  FixtureBearerGuard,
  fillerName,
  fillerTools,
  ScopedWeatherTools,
  WeatherAdminController,
} from '../../fixtures/pipeline.tools.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { mcpErrorOf } from '../../utils/thrown.js';
import { useSdkClients } from '../../utils/sdk-clients.js';

const CLIENT_INFO = { name: 'sdk-tools-e2e', version: '1.0.0' };

type Token = 'guest-token' | 'ops-token' | 'reader-token' | 'writer-token' | 'admin-token';

const FILLERS_BEFORE = 4;
const FILLERS_AFTER = 5;
const FILLERS = Array.from({ length: FILLERS_BEFORE + FILLERS_AFTER }, (_, index) => fillerName(index));

/** The tools each caller may see, fillers aside. */
const VISIBLE: Record<Token, string[]> = {
  'guest-token': ['weather_status'],
  'ops-token': ['weather_status', 'publish_bulletin'],
  'reader-token': ['forecast', 'radar', 'weather_status'],
  'writer-token': ['forecast', 'radar', 'set_alert', 'weather_status', 'publish_bulletin'],
  'admin-token': ['forecast', 'radar', 'set_alert', 'weather_status', 'publish_bulletin', 'purge_cache'],
};
const DECORATED = VISIBLE['admin-token'];

const mcpRoot = (options: Partial<Parameters<typeof McpModule.forRoot>[0]> = {}) =>
  McpModule.forRoot({ name: 'sdk-tools-e2e', version: '1.0.0', guards: [FixtureBearerGuard], ...options });

/** Every page of `tools/list`, following `nextCursor` with the SDK client. */
async function allPages(client: Client): Promise<Tool[][]> {
  const pages: Tool[][] = [];
  let cursor: string | undefined;
  do {
    const result = await client.listTools(cursor === undefined ? undefined : { cursor });
    pages.push(result.tools);
    cursor = result.nextCursor;
    expect(pages.length).toBeLessThan(100);
  } while (cursor !== undefined);
  return pages;
}

const names = (pages: Tool[][]): string[] => pages.flat().map((tool) => tool.name);

function unknownTool(name: string): object {
  return { content: [{ type: 'text', text: `Unknown tool: ${name}` }], isError: true };
}

describe('tool visibility and pagination with the official SDK client (e2e)', () => {
  const sdk = useSdkClients();

  const connect = async (running: RunningApp, token: string): Promise<Client> =>
    (await sdk.connect(running.mcpUrl, { info: CLIENT_INFO, headers: { authorization: `Bearer ${token}` } })).client;

  describe('scopes, @McpPublic and a role guard, pageSize 3', () => {
    let running: RunningApp;
    let journal: CallJournal;

    beforeAll(async () => {
      running = await startApp({
        imports: [mcpRoot({ limits: { pageSize: 3 } })],
        providers: [CallJournal, ScopedWeatherTools, AdminTools, ...fillerTools(FILLERS_BEFORE, FILLERS_AFTER)],
      });
      journal = running.app.get(CallJournal);
    });

    afterEach(() => journal.reset());

    afterAll(async () => {
      await running.close();
    });

    test('the decorated tools sit between plain ones, so hidden ones fall inside and across pages', async () => {
      const order = names(await allPages(await connect(running, 'admin-token')));
      expect(order).toHaveLength(FILLERS.length + DECORATED.length);
      expect(order.slice(0, FILLERS_BEFORE)).toEqual(FILLERS.slice(0, FILLERS_BEFORE));
      expect(order.slice(-FILLERS_AFTER)).toEqual(FILLERS.slice(FILLERS_BEFORE));
      expect([...order.slice(FILLERS_BEFORE, -FILLERS_AFTER)].sort()).toEqual([...DECORATED].sort());
    });

    test.each<Token>(['guest-token', 'ops-token', 'reader-token', 'writer-token', 'admin-token'])(
      'with %s, following nextCursor lists every visible tool exactly once, and no hidden one',
      async (token) => {
        const pages = await allPages(await connect(running, token));
        const listed = names(pages);

        expect(new Set(listed).size).toBe(listed.length);
        expect([...listed].sort()).toEqual([...FILLERS, ...VISIBLE[token]].sort());
        for (const hidden of DECORATED.filter((name) => !VISIBLE[token].includes(name))) {
          expect(listed).not.toContain(hidden);
        }
        // Full pages of 3 until the last, which may be shorter (even empty when only hidden tools followed).
        for (const page of pages.slice(0, -1)) expect(page).toHaveLength(3);
        expect(pages.at(-1)!.length).toBeLessThanOrEqual(3);
        expect(pages.length).toBeGreaterThanOrEqual(Math.ceil(listed.length / 3));
      },
    );

    test('a guest sees the @McpPublic tool of a scoped class, and can call it', async () => {
      const guest = await connect(running, 'guest-token');
      expect(await guest.callTool({ name: 'weather_status', arguments: {} })).toEqual({
        content: [{ type: 'text', text: 'all stations up' }],
      });
    });

    test.each<[Token, string, Record<string, unknown>]>([
      ['guest-token', 'forecast', { city: 'Lisbon' }],
      ['guest-token', 'radar', {}],
      ['guest-token', 'publish_bulletin', {}],
      ['reader-token', 'publish_bulletin', {}],
      ['ops-token', 'set_alert', { city: 'Lisbon' }],
      ['reader-token', 'set_alert', { city: 'Lisbon' }],
      ['writer-token', 'purge_cache', {}],
      ['reader-token', 'purge_cache', {}],
    ])(
      'with %s, %s is answered exactly like an unknown tool, and its handler never runs',
      async (token, name, args) => {
        const client = await connect(running, token);

        expect(await client.callTool({ name, arguments: args })).toEqual(unknownTool(name));
        expect(await client.callTool({ name: `${name}_nonexistent`, arguments: args })).toEqual(
          unknownTool(`${name}_nonexistent`),
        );
        expect(journal.handled.get(name)).toBeUndefined();
      },
    );

    test('a denied call with invalid arguments is still just unknown: guards run before validation', async () => {
      const guest = await connect(running, 'guest-token');
      expect(await guest.callTool({ name: 'forecast', arguments: { city: 42, extra: true } })).toEqual(
        unknownTool('forecast'),
      );
    });

    test('the same tools are visible and callable with a token that grants them', async () => {
      const reader = await connect(running, 'reader-token');
      expect(await reader.callTool({ name: 'forecast', arguments: { city: 'Lisbon' } })).toEqual({
        content: [{ type: 'text', text: 'Forecast for Lisbon: sunny' }],
      });

      const writer = await connect(running, 'writer-token');
      expect(await writer.callTool({ name: 'set_alert', arguments: { city: 'Porto' } })).toEqual({
        content: [{ type: 'text', text: 'Alert set for Porto' }],
      });

      const ops = await connect(running, 'ops-token');
      expect(await ops.callTool({ name: 'publish_bulletin', arguments: {} })).toEqual({
        content: [{ type: 'text', text: 'bulletin published' }],
      });

      const admin = await connect(running, 'admin-token');
      expect(await admin.callTool({ name: 'purge_cache', arguments: {} })).toEqual({
        content: [{ type: 'text', text: 'cache purged by admin' }],
      });
      expect(Object.fromEntries(journal.handled)).toEqual({
        forecast: 1,
        set_alert: 1,
        publish_bulletin: 1,
        purge_cache: 1,
      });
    });

    test('an allowed caller still gets argument validation after the guards', async () => {
      const reader = await connect(running, 'reader-token');
      const result = await reader.callTool({ name: 'forecast', arguments: { city: '' } });
      expect(result.isError).toBe(true);
      expect((result.content as { text: string }[])[0]!.text).toMatch(/^Invalid arguments for tool forecast:/);
      expect(journal.handled.get('forecast')).toBeUndefined();
    });

    test("the role guard runs in an 'mcp' context, for listing and for calling, with request.user", async () => {
      const writer = await connect(running, 'writer-token');
      await allPages(writer);
      // Paging may judge a tool more than once (the rest of a batch is judged again for the next page).
      const listed = journal.guardChecks.splice(0);
      expect(listed.length).toBeGreaterThanOrEqual(1);
      expect(listed).toEqual(
        listed.map(() => ({
          type: 'mcp',
          phase: 'list',
          tool: 'purge_cache',
          handler: 'purgeCache',
          user: 'writer',
          allowed: false,
        })),
      );

      await writer.callTool({ name: 'purge_cache', arguments: {} });
      const admin = await connect(running, 'admin-token');
      await admin.callTool({ name: 'purge_cache', arguments: {} });

      expect(journal.guardChecks).toEqual([
        { type: 'mcp', phase: 'call', tool: 'purge_cache', handler: 'purgeCache', user: 'writer', allowed: false },
        { type: 'mcp', phase: 'call', tool: 'purge_cache', handler: 'purgeCache', user: 'admin', allowed: true },
      ]);
    });

    test('an invalid cursor is JSON-RPC -32602, whatever it looks like', async () => {
      const client = await connect(running, 'admin-token');
      const { nextCursor } = await client.listTools();
      expect(nextCursor).toEqual(expect.any(String));

      const forged = Buffer.from(JSON.stringify({ v: 1, k: 'forecast', i: -1 })).toString('base64url');
      for (const cursor of ['not a cursor!', 'eyJ2IjoxfQ', forged, `${nextCursor}x`, '']) {
        expect((await mcpErrorOf(client.listTools({ cursor }))).code).toBe(ErrorCode.InvalidParams);
      }
      // The session is unharmed.
      expect((await client.listTools({ cursor: nextCursor })).tools).toHaveLength(3);
    });

    test("a cursor of another caller's listing is refused: cursors are sealed to the session that got them", async () => {
      const admin = await connect(running, 'admin-token');
      const guest = await connect(running, 'guest-token');
      const adminFirst = await admin.listTools();
      expect(adminFirst.nextCursor).toBeDefined();
      await expect(guest.listTools({ cursor: adminFirst.nextCursor })).rejects.toMatchObject({ code: -32602 });
      // The admin's own session follows it.
      await expect(admin.listTools({ cursor: adminFirst.nextCursor })).resolves.toBeDefined();
    });
  });

  describe('tools on a controller, with class-level @McpScopes and a method-level role guard', () => {
    let running: RunningApp;
    let journal: CallJournal;

    beforeAll(async () => {
      running = await startApp({
        imports: [mcpRoot()],
        providers: [CallJournal],
        controllers: [WeatherAdminController],
      });
      journal = running.app.get(CallJournal);
    });

    afterAll(async () => {
      await running.close();
    });

    test.each<[Token, string[]]>([
      ['reader-token', []],
      ['writer-token', ['rotate_keys']],
      ['admin-token', ['purge_logs', 'rotate_keys']],
    ])('with %s, only the tools its scopes and roles allow are listed and callable', async (token, visible) => {
      journal.reset();
      const client = await connect(running, token);

      const listed = (await client.listTools()).tools.map((tool) => tool.name).sort();
      expect(listed).toEqual(visible);

      for (const name of ['rotate_keys', 'purge_logs']) {
        const result = await client.callTool({ name, arguments: {} });
        if (visible.includes(name)) expect(result.isError).toBeUndefined();
        else expect(result).toEqual(unknownTool(name));
      }
      expect([...journal.handled.keys()].sort()).toEqual(visible);
    });
  });

  describe('250 tools with the default pageSize', () => {
    let running: RunningApp;

    beforeAll(async () => {
      running = await startApp({ imports: [mcpRoot()], providers: [...fillerTools(250)] });
    });

    afterAll(async () => {
      await running.close();
    });

    test('come in pages of 100, 100 and 50, each tool exactly once, in order', async () => {
      const pages = await allPages(await connect(running, 'guest-token'));
      expect(pages.map((page) => page.length)).toEqual([100, 100, 50]);
      expect(names(pages)).toEqual(Array.from({ length: 250 }, (_, index) => fillerName(index)));
    });

    test('the last page has no nextCursor, and a page can be asked for again with the same cursor', async () => {
      const client = await connect(running, 'guest-token');
      const first = await client.listTools();
      const second = await client.listTools({ cursor: first.nextCursor! });
      const again = await client.listTools({ cursor: first.nextCursor! });
      expect(again).toEqual(second);
      const third = await client.listTools({ cursor: second.nextCursor! });
      expect(third.nextCursor).toBeUndefined();
      expect(third.tools.at(-1)?.name).toBe(fillerName(249));
    });
  });
});
