/**
 * Resources, resource templates and subscriptions with the official SDK client over real HTTP:
 * what is listed and read (text, bytes, JSON, template variables), who sees what behind guards,
 * an interceptor and filters on resource methods, `resources/updated` for subscribers only,
 * resources added and removed at run time, pagination, and two applications side by side.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import {
  ErrorCode,
  ResourceListChangedNotificationSchema,
  ResourceUpdatedNotificationSchema,
  type Notification,
  type Resource,
} from '@modelcontextprotocol/sdk/types.js';
import { McpModule, McpResourceRegistry, McpResourceTemplateRegistry } from '../../../src/index.js';
import { FixtureBearerGuard, fillerTools } from '../../fixtures/pipeline.tools.js';
import {
  AdminResources,
  RADAR_BYTES,
  ResourceJournal,
  ShelfResources,
  WeatherResources,
} from '../../fixtures/resources.fixture.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { delay, until } from '../../utils/wait.js';
import { mcpErrorOf } from '../../utils/thrown.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { type ClientSession as McpSession, SessionStore } from '../../internals/index.js';

const CLIENT_INFO = { name: 'sdk-resources-e2e', version: '1.0.0' };
const MARKER = 'notifications/test/marker';

const mcpRoot = (options: Partial<Parameters<typeof McpModule.forRoot>[0]> = {}) =>
  McpModule.forRoot({ name: 'sdk-resources-e2e', version: '1.0.0', guards: [FixtureBearerGuard], ...options });

/** A connected SDK client, what it heard, and its server-side session. */
interface Connection {
  readonly client: Client;
  readonly transport: StreamableHTTPClientTransport;
  /** URIs of the `notifications/resources/updated` it received, in order. */
  readonly updated: string[];
  /** How many `notifications/resources/list_changed` it received. */
  readonly listChanged: { count: number };
  /** Markers received: sent by the test on the GET stream, after which nothing earlier is in flight. */
  readonly markers: number[];
  session(): McpSession;
}

describe('resources with the official SDK client (e2e)', () => {
  const sdk = useSdkClients();
  const usedApps = new Set<RunningApp>();

  afterEach(() => {
    // Closing an SDK client leaves its session alive: end them, or their subscriptions skew later counts.
    for (const running of usedApps) for (const session of running.app.get(SessionStore).all()) session.end('deleted');
    usedApps.clear();
  });

  async function connect(running: RunningApp, token = 'reader-token'): Promise<Connection> {
    const updated: string[] = [];
    const listChanged = { count: 0 };
    const markers: number[] = [];
    usedApps.add(running);
    const { client, transport } = await sdk.connect(running.mcpUrl, {
      info: CLIENT_INFO,
      headers: { authorization: `Bearer ${token}` },
      prepare: (client) => {
        client.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
          updated.push(notification.params.uri);
        });
        client.setNotificationHandler(ResourceListChangedNotificationSchema, () => {
          listChanged.count++;
        });
        client.fallbackNotificationHandler = (notification: Notification) => {
          if (notification.method === MARKER) markers.push(notification.params?.n as number);
          return Promise.resolve();
        };
      },
    });
    const sessions = running.app.get(SessionStore);
    const session = (): McpSession => {
      const found = sessions.get(transport.sessionId!);
      expect(found).toBeDefined();
      return found!;
    };
    // The SDK opens its GET stream in the background after connecting; notifications travel on it.
    await until(() => session().hasStream, 'the GET stream of the SDK client');
    return { client, transport, updated, listChanged, markers, session };
  }

  /**
   * Sends a marker on the connection's GET stream and waits for it: whatever the server sent on
   * that stream before has arrived by then, so what the client lacks was never sent.
   */
  async function sync(connection: Connection, n: number): Promise<void> {
    expect(connection.session().notify(MARKER, { n })).toBe(true);
    await until(() => connection.markers.includes(n), `marker ${n}`);
  }

  describe('the weather resources, behind an endpoint guard and role guards', () => {
    let running: RunningApp;
    let journal: ResourceJournal;
    let registry: McpResourceRegistry;
    let templates: McpResourceTemplateRegistry;

    beforeAll(async () => {
      running = await startApp({
        imports: [mcpRoot()],
        providers: [ResourceJournal, WeatherResources, AdminResources],
      });
      journal = running.app.get(ResourceJournal);
      registry = running.app.get(McpResourceRegistry);
      templates = running.app.get(McpResourceTemplateRegistry);
    });

    afterEach(() => journal.reset());

    afterAll(async () => {
      await running.close();
    });

    const README: Resource = {
      uri: 'weather://readme',
      name: 'readme',
      title: 'Read me first',
      description: 'How to use the weather service',
      mimeType: 'text/markdown',
      annotations: { audience: ['user', 'assistant'], priority: 0.8, lastModified: '2025-01-12T15:00:58Z' },
    };
    const PUBLIC_RESOURCES: Resource[] = [
      README,
      {
        uri: 'weather://radar/latest.png',
        name: 'radar',
        title: 'Latest radar image',
        mimeType: 'image/png',
        size: 256,
      },
      { uri: 'weather://stations', name: 'stations', description: 'The weather stations' },
      { uri: 'weather://stations/HQ', name: 'headquarters' },
      { uri: 'weather://missing', name: 'missing' },
      { uri: 'weather://gone', name: 'gone' },
      { uri: 'weather://bad-request', name: 'bad_request' },
      { uri: 'weather://crash', name: 'crash' },
      { uri: 'weather://slow', name: 'slow' },
      { uri: 'weather://hold', name: 'hold' },
      { uri: 'weather://bulletin', name: 'bulletin', mimeType: 'text/plain' },
      { uri: 'weather://embargo', name: 'embargo' },
      { uri: 'weather://embargo-strict', name: 'embargo_strict' },
    ];
    const MAINTENANCE: Resource = { uri: 'weather://maintenance', name: 'maintenance' };
    const AUDIT_LOG: Resource = { uri: 'admin://audit-log', name: 'audit_log', mimeType: 'text/plain' };
    const PUBLIC_TEMPLATES = [
      {
        uriTemplate: 'weather://forecast/{city}{?days}',
        name: 'forecast',
        title: 'City forecast',
        description: 'The forecast for a city, for 1 to 7 days',
        mimeType: 'application/json',
      },
      { uriTemplate: 'weather://stations/{id}', name: 'station' },
      { uriTemplate: 'weather://alerts/{region}', name: 'alerts' },
      { uriTemplate: 'archive://reports/{year}', name: 'yearly_report' },
      { uriTemplate: 'archive://{+path}', name: 'archive' },
    ];

    describe('listing and reading', () => {
      test('listResources gives every visible resource with its declared fields, in declaration order', async () => {
        const { client } = await connect(running);
        expect(await client.listResources()).toEqual({ resources: PUBLIC_RESOURCES });
      });

      test('readResource of a text resource: its text, its URI and declared MIME type', async () => {
        const { client } = await connect(running);
        expect(await client.readResource({ uri: 'weather://readme' })).toEqual({
          contents: [{ uri: 'weather://readme', mimeType: 'text/markdown', text: '# Weather\nAsk for a forecast.' }],
        });
      });

      test('readResource of a binary resource: a base64 blob that decodes to the very bytes', async () => {
        const { client } = await connect(running);
        const result = await client.readResource({ uri: 'weather://radar/latest.png' });

        expect(result.contents).toHaveLength(1);
        const [contents] = result.contents as { uri: string; mimeType?: string; blob?: string; text?: string }[];
        expect(contents).toEqual({
          uri: 'weather://radar/latest.png',
          mimeType: 'image/png',
          blob: expect.any(String),
        });
        const bytes = Buffer.from(contents!.blob!, 'base64');
        expect(bytes.equals(RADAR_BYTES)).toBe(true);
        expect(contents!.blob).toBe(RADAR_BYTES.toString('base64'));
      });

      test('readResource of a JSON value: its JSON text, as application/json', async () => {
        const { client } = await connect(running);
        const result = await client.readResource({ uri: 'weather://stations' });
        expect(result).toEqual({
          contents: [{ uri: 'weather://stations', mimeType: 'application/json', text: expect.any(String) }],
        });
        expect(JSON.parse((result.contents[0] as { text: string }).text)).toEqual({
          stations: [
            { id: 'LIS', city: 'Lisbon' },
            { id: 'OPO', city: 'Porto' },
          ],
        });
      });

      test('listResourceTemplates gives every visible template with its declared fields', async () => {
        const { client } = await connect(running);
        expect(await client.listResourceTemplates()).toEqual({ resourceTemplates: PUBLIC_TEMPLATES });
      });

      test.each<[string, object]>([
        ['weather://forecast/Lisbon', { city: 'Lisbon', daysType: 'undefined', isDto: true }],
        ['weather://forecast/Porto?days=3', { city: 'Porto', days: 3, daysType: 'number', isDto: true }],
        ['weather://forecast/New%20York', { city: 'New York', daysType: 'undefined', isDto: true }],
        ['weather://forecast/S%C3%A3o%20Paulo?days=7', { city: 'São Paulo', days: 7, daysType: 'number', isDto: true }],
      ])(
        'reading %s through the template: the DTO validated and converted, values percent-decoded',
        async (uri, expected) => {
          const { client } = await connect(running);
          const result = await client.readResource({ uri });
          expect(result.contents).toEqual([{ uri, mimeType: 'application/json', text: expect.any(String) }]);
          expect(JSON.parse((result.contents[0] as { text: string }).text)).toEqual(expected);
        },
      );

      test.each<[string, string]>([
        [
          'weather://forecast/Paris',
          'city: city must be one of the following values: Lisbon, Porto, New York, São Paulo',
        ],
        ['weather://forecast/Lisbon?days=9', 'days: days must not be greater than 7'],
      ])('reading %s: -32602 naming the variable and its problem', async (uri, problem) => {
        const { client } = await connect(running);
        const error = await mcpErrorOf(client.readResource({ uri }));
        expect(error.code).toBe(ErrorCode.InvalidParams);
        expect(error.message).toBe(
          `MCP error -32602: Invalid params: invalid variables for weather://forecast/{city}{?days}: ${problem}`,
        );
        expect(journal.reads.get('forecast')).toBeUndefined();
      });

      test('a template without a variables schema gets its variables as strings; @McpUri() gives the URI read', async () => {
        const { client } = await connect(running);
        const uri = 'weather://stations/LIS%2F2';
        const result = await client.readResource({ uri });
        expect(JSON.parse((result.contents[0] as { text: string }).text)).toEqual({
          variables: { id: 'LIS/2' },
          uri,
          name: 'station',
        });
      });

      test('the resource with the exact URI wins over a template that matches it too', async () => {
        const { client } = await connect(running);
        expect(await client.readResource({ uri: 'weather://stations/HQ' })).toEqual({
          contents: [{ uri: 'weather://stations/HQ', text: 'the headquarters station' }],
        });
      });

      test('templates are tried in registration order: the first that matches serves the URI', async () => {
        const { client } = await connect(running);
        expect(await client.readResource({ uri: 'archive://reports/2024' })).toEqual({
          contents: [{ uri: 'archive://reports/2024', text: 'report of 2024' }],
        });
        expect(await client.readResource({ uri: 'archive://misc/2024/notes' })).toEqual({
          contents: [{ uri: 'archive://misc/2024/notes', text: 'archived misc/2024/notes' }],
        });
      });

      test('an unknown URI: McpError -32002 with the URI in data', async () => {
        const { client } = await connect(running);
        const error = await mcpErrorOf(client.readResource({ uri: 'weather://nowhere' }));
        expect(error.code).toBe(-32002);
        expect(error.message).toBe('MCP error -32002: Resource not found');
        expect(error.data).toEqual({ uri: 'weather://nowhere' });
      });
    });

    describe("Nest's pipeline on resource methods", () => {
      test('an interceptor wraps the read, and sees the resource, its URI and the call phase', async () => {
        const { client } = await connect(running);
        expect(await client.readResource({ uri: 'weather://bulletin' })).toEqual({
          contents: [
            {
              uri: 'weather://bulletin',
              mimeType: 'text/plain',
              text: 'Calm seas [stamped: resource bulletin weather://bulletin call]',
            },
          ],
        });
      });

      test('a filter maps a domain error to the contents the client reads', async () => {
        const { client } = await connect(running);
        expect(await client.readResource({ uri: 'weather://embargo' })).toEqual({
          contents: [{ uri: 'weather://embargo', mimeType: 'text/plain', text: 'withheld: embargoed until noon' }],
        });
      });

      test('a filter maps a domain error to a BadRequestException: -32602 with its message', async () => {
        const { client } = await connect(running);
        const error = await mcpErrorOf(client.readResource({ uri: 'weather://embargo-strict' }));
        expect(error.code).toBe(ErrorCode.InvalidParams);
        expect(error.message).toBe(
          'MCP error -32602: Invalid params: Resource embargo_strict: refused: embargoed until noon',
        );
      });

      test('a class guard and a method guard hide resources and templates from one token and show them to another', async () => {
        const reader = await connect(running, 'reader-token');
        const admin = await connect(running, 'admin-token');

        expect((await reader.client.listResources()).resources).toEqual(PUBLIC_RESOURCES);
        expect((await admin.client.listResources()).resources).toEqual([...PUBLIC_RESOURCES, MAINTENANCE, AUDIT_LOG]);
        expect((await reader.client.listResourceTemplates()).resourceTemplates).toEqual(PUBLIC_TEMPLATES);
        expect((await admin.client.listResourceTemplates()).resourceTemplates).toEqual([
          ...PUBLIC_TEMPLATES,
          { uriTemplate: 'admin://users/{user}', name: 'admin_user' },
        ]);

        expect(await admin.client.readResource({ uri: 'admin://users/ada' })).toEqual({
          contents: [{ uri: 'admin://users/ada', text: 'user ada' }],
        });
        expect(await admin.client.readResource({ uri: 'weather://maintenance' })).toEqual({
          contents: [{ uri: 'weather://maintenance', text: 'maintenance window: Sunday 02:00' }],
        });
        journal.reads.clear();

        for (const uri of ['admin://users/ada', 'weather://maintenance', 'admin://audit-log']) {
          const error = await mcpErrorOf(reader.client.readResource({ uri }));
          expect([error.code, error.message, error.data]).toEqual([
            -32002,
            'MCP error -32002: Resource not found',
            { uri },
          ]);
        }
        expect([...journal.reads.keys()]).toEqual([]);
      });

      test("the guard's McpExecutionContext: kind, name, URI and phase of listing, reading and subscribing", async () => {
        const admin = await connect(running, 'admin-token');
        const check = (kind: string, name: string, uri: string | undefined, phase: string, handler: string) => ({
          type: 'mcp',
          kind,
          name,
          uri,
          phase,
          handler,
          user: 'admin',
          allowed: true,
        });

        await admin.client.listResources();
        expect(journal.guardChecks).toEqual([
          check('resource', 'maintenance', 'weather://maintenance', 'list', 'maintenance'),
          check('resource', 'audit_log', 'admin://audit-log', 'list', 'auditLog'),
        ]);
        journal.reset();

        await admin.client.listResourceTemplates();
        expect(journal.guardChecks).toEqual([check('resourceTemplate', 'admin_user', undefined, 'list', 'user')]);
        journal.reset();

        await admin.client.readResource({ uri: 'admin://users/grace' });
        expect(journal.guardChecks).toEqual([
          check('resourceTemplate', 'admin_user', 'admin://users/grace', 'call', 'user'),
        ]);
        journal.reset();

        await admin.client.readResource({ uri: 'weather://maintenance' });
        expect(journal.guardChecks).toEqual([
          check('resource', 'maintenance', 'weather://maintenance', 'call', 'maintenance'),
        ]);
        journal.reset();

        await admin.client.subscribeResource({ uri: 'admin://users/grace' });
        expect(journal.guardChecks).toEqual([
          check('resourceTemplate', 'admin_user', 'admin://users/grace', 'list', 'user'),
        ]);
      });
    });

    describe('subscriptions', () => {
      test('a subscriber hears resources/updated for the URI; a client that did not subscribe hears nothing', async () => {
        const subscriber = await connect(running);
        const bystander = await connect(running);

        expect(await subscriber.client.subscribeResource({ uri: 'weather://readme' })).toEqual({});
        expect(subscriber.session().isSubscribed('weather://readme')).toBe(true);
        expect(bystander.session().isSubscribed('weather://readme')).toBe(false);

        expect(registry.notifyUpdated('weather://readme')).toBe(1);
        await until(() => subscriber.updated.length > 0, 'notifications/resources/updated');
        await sync(subscriber, 1);
        expect(subscriber.updated).toEqual(['weather://readme']);

        await sync(bystander, 1);
        // A fixed wait on purpose: the bystander must hear NOTHING, and 300 ms is time enough to.
        await delay(300);
        expect(bystander.updated).toEqual([]);
      });

      test('unsubscribeResource: notifyUpdated reaches no one, while another subscription still works', async () => {
        const { client, updated, session } = await connect(running);
        expect(await client.subscribeResource({ uri: 'weather://readme' })).toEqual({});
        expect(await client.subscribeResource({ uri: 'weather://stations' })).toEqual({});

        expect(await client.unsubscribeResource({ uri: 'weather://readme' })).toEqual({});
        expect(session().isSubscribed('weather://readme')).toBe(false);
        expect(registry.notifyUpdated('weather://readme')).toBe(0);
        // The positive control travels after the update that must not exist, on the same stream.
        expect(registry.notifyUpdated('weather://stations')).toBe(1);
        await until(() => updated.length > 0, 'the update of weather://stations');
        // A fixed wait on purpose: no update of weather://readme may follow.
        await delay(300);
        expect(updated).toEqual(['weather://stations']);
      });

      test('subscribing twice to one URI is one subscription: one notification per update', async () => {
        const connection = await connect(running);
        expect(await connection.client.subscribeResource({ uri: 'weather://stations' })).toEqual({});
        expect(await connection.client.subscribeResource({ uri: 'weather://stations' })).toEqual({});
        expect(connection.session().subscriptionCount).toBe(1);

        expect(registry.notifyUpdated('weather://stations')).toBe(1);
        await sync(connection, 1);
        expect(connection.updated).toEqual(['weather://stations']);
      });

      test('a URI served by a template can be subscribed to, the exact URI only', async () => {
        const connection = await connect(running);
        expect(await connection.client.subscribeResource({ uri: 'weather://forecast/New%20York' })).toEqual({});

        expect(registry.notifyUpdated('weather://forecast/Lisbon')).toBe(0);
        expect(registry.notifyUpdated('weather://forecast/New%20York')).toBe(1);
        await sync(connection, 1);
        expect(connection.updated).toEqual(['weather://forecast/New%20York']);
      });

      test('subscribing to an unknown URI: McpError -32002, nothing recorded', async () => {
        const { client, session } = await connect(running);
        const error = await mcpErrorOf(client.subscribeResource({ uri: 'weather://nowhere' }));
        expect(error.code).toBe(-32002);
        expect(error.data).toEqual({ uri: 'weather://nowhere' });
        expect(session().subscriptionCount).toBe(0);
        expect(registry.notifyUpdated('weather://nowhere')).toBe(0);
      });

      test('subscribing to a resource the guards hide: -32002 for one token, {} for the other', async () => {
        const reader = await connect(running, 'reader-token');
        const admin = await connect(running, 'admin-token');

        const error = await mcpErrorOf(reader.client.subscribeResource({ uri: 'weather://maintenance' }));
        expect([error.code, error.data]).toEqual([-32002, { uri: 'weather://maintenance' }]);
        expect(await admin.client.subscribeResource({ uri: 'weather://maintenance' })).toEqual({});

        expect(registry.notifyUpdated('weather://maintenance')).toBe(1);
        await sync(admin, 1);
        await sync(reader, 1);
        expect(admin.updated).toEqual(['weather://maintenance']);
        expect(reader.updated).toEqual([]);
      });

      test('a session that ended is told nothing more', async () => {
        const { client, transport } = await connect(running);
        expect(await client.subscribeResource({ uri: 'weather://readme' })).toEqual({});
        expect(registry.notifyUpdated('weather://readme')).toBe(1);

        await transport.terminateSession();
        expect(registry.notifyUpdated('weather://readme')).toBe(0);
      });
    });

    describe('the runtime registry', () => {
      afterEach(() => {
        registry.remove('runtime://note');
        templates.remove('runtime://notes/{id}');
      });

      test('a resource and a template added while connected are announced, listed and readable; removed, they are gone', async () => {
        const connection = await connect(running);
        const { client } = connection;

        registry.add({ uri: 'runtime://note', name: 'note', mimeType: 'text/plain' }, (_args, ctx, uri) =>
          JSON.stringify({ uri, name: ctx.name }),
        );
        await until(() => connection.listChanged.count > 0, 'notifications/resources/list_changed');
        await sync(connection, 1);
        expect(connection.listChanged.count).toBe(1);
        expect((await client.listResources()).resources.at(-1)).toEqual({
          uri: 'runtime://note',
          name: 'note',
          mimeType: 'text/plain',
        });
        expect(await client.readResource({ uri: 'runtime://note' })).toEqual({
          contents: [{ uri: 'runtime://note', mimeType: 'text/plain', text: '{"uri":"runtime://note","name":"note"}' }],
        });

        templates.add<{ id: string }>(
          { uriTemplate: 'runtime://notes/{id}', name: 'notes' },
          ({ id }, _ctx, uri) => `note ${id} at ${uri}`,
        );
        await until(() => connection.listChanged.count > 1, 'the second list_changed');
        expect((await client.listResourceTemplates()).resourceTemplates.at(-1)).toEqual({
          uriTemplate: 'runtime://notes/{id}',
          name: 'notes',
        });
        expect(await client.readResource({ uri: 'runtime://notes/7' })).toEqual({
          contents: [{ uri: 'runtime://notes/7', text: 'note 7 at runtime://notes/7' }],
        });

        expect(registry.remove('runtime://note')).toBe(true);
        expect(templates.remove('runtime://notes/{id}')).toBe(true);
        await until(() => connection.listChanged.count > 2, 'the list_changed of the removals');
        expect((await client.listResources()).resources.map((resource) => resource.uri)).not.toContain(
          'runtime://note',
        );
        for (const uri of ['runtime://note', 'runtime://notes/7']) {
          const error = await mcpErrorOf(client.readResource({ uri }));
          expect([error.code, error.data]).toEqual([-32002, { uri }]);
        }
      });
    });
  });

  describe('pagination, pageSize 2', () => {
    let running: RunningApp;

    beforeAll(async () => {
      running = await startApp({
        imports: [mcpRoot({ limits: { pageSize: 2 } })],
        providers: [ResourceJournal, ShelfResources, AdminResources, ...fillerTools(3)],
      });
    });

    afterAll(async () => {
      await running.close();
    });

    async function allResourcePages(client: Client): Promise<Resource[][]> {
      const pages: Resource[][] = [];
      let cursor: string | undefined;
      do {
        const result = await client.listResources(cursor === undefined ? undefined : { cursor });
        pages.push(result.resources);
        cursor = result.nextCursor;
        expect(pages.length).toBeLessThan(20);
      } while (cursor !== undefined);
      return pages;
    }

    const SHELF = [1, 2, 3, 4, 5].map((n) => `shelf://book/${n}`);

    test.each<[string, string[]]>([
      ['reader-token', SHELF],
      ['admin-token', [...SHELF, 'admin://audit-log']],
    ])('with %s, following nextCursor lists every visible resource exactly once', async (token, expected) => {
      const { client } = await connect(running, token);
      const pages = await allResourcePages(client);
      const uris = pages.flat().map((resource) => resource.uri);

      expect(uris).toEqual(expected);
      for (const page of pages.slice(0, -1)) expect(page).toHaveLength(2);
      expect(pages.at(-1)!.length).toBeLessThanOrEqual(2);
    });

    test('a cursor of tools/list, or of another list, or of another session, is refused: -32602 invalid cursor', async () => {
      const { client } = await connect(running);
      const other = await connect(running);
      const toolsCursor = (await client.listTools()).nextCursor;
      const resourcesCursor = (await client.listResources()).nextCursor;
      expect(toolsCursor).toEqual(expect.any(String));
      expect(resourcesCursor).toEqual(expect.any(String));

      const refusals = [
        client.listResources({ cursor: toolsCursor! }),
        client.listResourceTemplates({ cursor: resourcesCursor! }),
        client.listTools({ cursor: resourcesCursor! }),
        other.client.listResources({ cursor: resourcesCursor! }),
      ];
      for (const refusal of refusals) {
        const error = await mcpErrorOf(refusal);
        expect([error.code, error.message]).toEqual([-32602, 'MCP error -32602: Invalid params: invalid cursor']);
      }
      // The cursor still works where it belongs.
      expect((await client.listResources({ cursor: resourcesCursor! })).resources.map((r) => r.uri)).toEqual([
        'shelf://book/3',
        'shelf://book/4',
      ]);
    });
  });

  describe('two applications in one process', () => {
    let first: RunningApp;
    let second: RunningApp;

    beforeAll(async () => {
      [first, second] = await Promise.all(
        ['first', 'second'].map((name) =>
          startApp({
            imports: [McpModule.forRoot({ name, version: '1.0.0', guards: [FixtureBearerGuard] })],
            providers: [ShelfResources],
          }),
        ),
      );
    });

    afterAll(async () => {
      await Promise.all([first?.close(), second?.close()]);
    });

    test("a resource added at run time to one is neither listed, read nor announced by the other; updates don't cross", async () => {
      const inFirst = await connect(first);
      const inSecond = await connect(second);
      const firstRegistry = first.app.get(McpResourceRegistry);
      const secondRegistry = second.app.get(McpResourceRegistry);
      expect(firstRegistry).not.toBe(secondRegistry);

      firstRegistry.add({ uri: 'runtime://only-first', name: 'only_first' }, () => 'first only');
      try {
        await until(() => inFirst.listChanged.count > 0, 'list_changed in the first application');
        await sync(inSecond, 1);
        expect(inSecond.listChanged.count).toBe(0);
        expect(secondRegistry.isEnabled('runtime://only-first')).toBe(false);

        expect((await inFirst.client.listResources()).resources.map((r) => r.uri)).toContain('runtime://only-first');
        expect((await inSecond.client.listResources()).resources.map((r) => r.uri)).not.toContain(
          'runtime://only-first',
        );
        expect(await inFirst.client.readResource({ uri: 'runtime://only-first' })).toEqual({
          contents: [{ uri: 'runtime://only-first', text: 'first only' }],
        });
        const error = await mcpErrorOf(inSecond.client.readResource({ uri: 'runtime://only-first' }));
        expect(error.code).toBe(-32002);

        // Both subscribe to the same URI: each application tells its own sessions only.
        expect(await inFirst.client.subscribeResource({ uri: 'shelf://book/1' })).toEqual({});
        expect(await inSecond.client.subscribeResource({ uri: 'shelf://book/1' })).toEqual({});
        expect(secondRegistry.notifyUpdated('shelf://book/1')).toBe(1);
        await sync(inFirst, 2);
        await sync(inSecond, 2);
        expect(inFirst.updated).toEqual([]);
        expect(inSecond.updated).toEqual(['shelf://book/1']);
      } finally {
        firstRegistry.remove('runtime://only-first');
      }
    });
  });
});
