/**
 * Resources over raw HTTP, where the SDK client hides the details: the exact JSON-RPC errors of
 * `resources/read` and `resources/subscribe` (codes, messages, data), hidden resources answered
 * exactly like unknown ones, timeouts and cancellation, 2025-03-26 batches, the subscription limit,
 * and one `notifications/resources/list_changed` per burst of runtime changes on the GET stream.
 */
import { McpModule, McpResourceRegistry, McpResourceTemplateRegistry } from '../../../src/index.js';
import { MAX_SUBSCRIPTIONS_PER_SESSION, MAX_SUBSCRIBED_URI_CHARS } from '../../internals/index.js';
import { FixtureBearerGuard } from '../../fixtures/pipeline.tools.js';
import {
  AdminResources,
  RESOURCE_SECRET,
  ResourceJournal,
  WeatherResources,
} from '../../fixtures/resources.fixture.js';
import { RecordingLogger } from '../../utils/recording-logger.js';
import { resourceNotFound as notFound, unmarked, useRawApp, type RawSession } from '../../utils/raw-http-client.js';
import type { HttpStream, RpcMessage } from '../../utils/sse-reader.js';
import { nextTurn, until } from '../../utils/wait.js';
import { type ClientSession as McpSession } from '../../internals/index.js';

const invalidParams = (id: string | number, message: string): RpcMessage => ({
  jsonrpc: '2.0',
  id,
  error: { code: -32602, message: `Invalid params: ${message}` },
});

const read = (id: string | number, uri: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'resources/read',
  params: uri === undefined ? {} : { uri },
});

const subscribe = (id: string | number, uri: unknown) => ({
  jsonrpc: '2.0',
  id,
  method: 'resources/subscribe',
  params: { uri },
});

describe('resources over raw HTTP (e2e)', () => {
  const logger = new RecordingLogger();
  // Ending the sessions after each test aborts whatever a failed test left waiting, and keeps
  // list_changed counts exact.
  const app = useRawApp(
    {
      imports: [McpModule.forRoot({ name: 'resources-e2e', version: '1.0.0', guards: [FixtureBearerGuard] })],
      providers: [ResourceJournal, WeatherResources, AdminResources],
    },
    { logger },
  );
  const { client, syncGet } = app;
  let journal: ResourceJournal;
  let registry: McpResourceRegistry;
  let templates: McpResourceTemplateRegistry;

  beforeAll(() => {
    journal = app.get(ResourceJournal);
    registry = app.get(McpResourceRegistry);
    templates = app.get(McpResourceTemplateRegistry);
  });

  beforeEach(() => {
    logger.entries.length = 0;
    journal.reset();
  });

  /** A session of the caller `token` names, which the server offers subscriptions and list_changed. */
  async function initialize(token = 'reader-token', protocolVersion = '2025-06-18'): Promise<RawSession> {
    const session = await client.initialize({ protocolVersion, headers: { authorization: `Bearer ${token}` } });
    expect(session.initializeResult.capabilities).toMatchObject({ resources: { subscribe: true, listChanged: true } });
    return session;
  }

  const post = (session: RawSession, body: unknown): Promise<HttpStream> => client.post(session, body);

  const send = (session: RawSession, body: unknown): Promise<HttpStream> => client.send(session, body);

  /** The one message answering `body`. */
  async function answer(session: RawSession, body: unknown): Promise<RpcMessage> {
    const res = await send(session, body);
    expect(res.status).toBe(200);
    expect(res.messages).toHaveLength(1);
    return res.messages[0]!;
  }

  const live = (session: RawSession): McpSession => app.live(session);

  const openGet = (session: RawSession): Promise<HttpStream> => client.openGet(session);

  describe('resources/read errors', () => {
    test.each([
      ['an unknown URI', 'weather://nowhere'],
      ['a URI of an unknown scheme', 'nowhere:at-all'],
      ['a URI no template matches (an extra path segment)', 'weather://forecast/Lisbon/extra'],
      ['malformed percent-encoding (not UTF-8) in a template URI', 'weather://forecast/%C3'],
      ['malformed percent-encoding (not hex) in a template URI', 'weather://forecast/%ZZ'],
    ])('%s: -32002 "Resource not found" with { uri } in data', async (_what, uri) => {
      const session = await initialize();
      expect(await answer(session, read(1, uri))).toEqual(notFound(1, uri));
    });

    test('a handler returning undefined: -32002 with { uri }, after the handler ran', async () => {
      const session = await initialize();
      expect(await answer(session, read('m', 'weather://missing'))).toEqual(notFound('m', 'weather://missing'));
      expect(journal.reads.get('missing')).toBe(1);
    });

    test('a handler throwing NotFoundException: -32002 with { uri }, its message not sent', async () => {
      const session = await initialize();
      const res = await send(session, read(2, 'weather://gone'));
      expect(res.messages).toEqual([notFound(2, 'weather://gone')]);
      expect(res.text).not.toContain('decommissioned');
    });

    test('a handler throwing BadRequestException: -32602 with its message', async () => {
      const session = await initialize();
      expect(await answer(session, read(3, 'weather://bad-request'))).toEqual(
        invalidParams(3, 'Resource bad_request: station code must be 3 letters'),
      );
    });

    test('a handler throwing an Error: -32603 "Internal error", nothing of it sent; logged with its stack', async () => {
      const session = await initialize();
      const res = await send(session, read(4, 'weather://crash'));
      expect(res.messages).toEqual([{ jsonrpc: '2.0', id: 4, error: { code: -32603, message: 'Internal error' } }]);
      expect(res.text).not.toContain(RESOURCE_SECRET);
      expect(res.text).not.toContain('db-3');
      expect(res.text).not.toMatch(/\bat \S+ \(|\.ts:\d+/);
      const errors = logger.at('error').join('\n');
      expect(errors).toContain('WeatherResources.crash');
      expect(errors).toContain(RESOURCE_SECRET);
    });

    test.each<[string, string]>([
      [
        'weather://forecast/Paris',
        'invalid variables for weather://forecast/{city}{?days}: city: city must be one of the following values: Lisbon, Porto, New York, São Paulo',
      ],
      [
        'weather://forecast/Lisbon?days=0',
        'invalid variables for weather://forecast/{city}{?days}: days: days must not be less than 1',
      ],
      [
        'weather://forecast/?days=2',
        'invalid variables for weather://forecast/{city}{?days}: city: city must be one of the following values: Lisbon, Porto, New York, São Paulo',
      ],
    ])('invalid DTO variables, %s: -32602 naming the problem; the handler never runs', async (uri, message) => {
      const session = await initialize();
      expect(await answer(session, read(5, uri))).toEqual(invalidParams(5, message));
      expect(journal.reads.get('forecast')).toBeUndefined();
    });

    test('a non-numeric numeric variable: -32602 naming each problem of days, and nothing else', async () => {
      const session = await initialize();
      expect(await answer(session, read(6, 'weather://forecast/Lisbon?days=soon'))).toEqual(
        invalidParams(
          6,
          'invalid variables for weather://forecast/{city}{?days}: days: days must not be greater than 7; ' +
            'days: days must not be less than 1; days: days must be an integer number',
        ),
      );
    });

    test('invalid JSON Schema variables: -32602 naming the variable', async () => {
      const session = await initialize();
      expect(await answer(session, read(7, 'weather://alerts/east'))).toEqual(
        invalidParams(7, 'invalid variables for weather://alerts/{region}: /region: must be one of "north", "south"'),
      );
      expect(await answer(session, read(8, 'weather://alerts/north'))).toEqual({
        jsonrpc: '2.0',
        id: 8,
        result: { contents: [{ uri: 'weather://alerts/north', text: 'no alerts in the north' }] },
      });
    });

    test.each<[string, unknown]>([
      ['missing', undefined],
      ['relative', 'readme'],
      ['empty', ''],
      ['not a string', 42],
      ['with a space', 'weather://read me'],
      ['with a control character', 'weather://readme\u0007'],
      ['longer than 8192 characters', `weather://${'x'.repeat(8192)}`],
    ])('a uri that is %s: -32602, for read, subscribe and unsubscribe alike', async (_what, uri) => {
      const session = await initialize();
      const message = 'uri must be an absolute URI of at most 8192 characters';
      expect(await answer(session, read(9, uri))).toEqual(invalidParams(9, message));
      expect(await answer(session, subscribe(10, uri))).toEqual(invalidParams(10, message));
      expect(
        await answer(session, { jsonrpc: '2.0', id: 11, method: 'resources/unsubscribe', params: { uri } }),
      ).toEqual(invalidParams(11, message));
    });

    test('timeoutMs passed: -32001, and the handler\'s signal aborted with kind "timeout"', async () => {
      const session = await initialize();
      expect(await answer(session, read(12, 'weather://slow'))).toEqual({
        jsonrpc: '2.0',
        id: 12,
        error: { code: -32001, message: 'Resource slow timed out' },
      });
      expect(journal.aborts).toEqual([{ name: 'slow', requestId: 12, aborted: true, reasonKind: 'timeout' }]);
      expect(live(session).runningCalls).toBe(0);
    });
  });

  describe('cancellation', () => {
    const cancel = (session: RawSession, requestId: string | number): Promise<HttpStream> =>
      send(session, { jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId, reason: 'stop' } });

    test('notifications/cancelled for a slow read: no response at all, and ctx.signal aborted with kind "cancelled"', async () => {
      const session = await initialize();
      const pending = post(session, read(21, 'weather://hold'));
      await until(() => journal.started.includes('hold:21'), 'the start of the read');
      expect(live(session).isRunning(21)).toBe(true);

      expect((await cancel(session, 21)).status).toBe(202);
      const res = await pending;
      await res.untilEnd();
      // Nothing may be said about a cancelled request: an event stream without a single event.
      expect(res.status).toBe(200);
      expect(res.headers['content-type']).toMatch(/^text\/event-stream\b/);
      expect(res.text).toBe('');
      expect(journal.aborts).toEqual([{ name: 'hold', requestId: 21, aborted: true, reasonKind: 'cancelled' }]);
      expect(live(session).runningCalls).toBe(0);
      expect(await answer(session, read(22, 'weather://readme'))).toMatchObject({ id: 22, result: {} });
    });

    test('in a 2025-03-26 batch, only the read that was not cancelled is answered', async () => {
      const session = await initialize('reader-token', '2025-03-26');
      const pending = post(session, [read('a', 'weather://hold'), read('b', 'weather://readme')]);
      await until(() => journal.started.includes('hold:a'), 'the start of the held read');
      expect((await cancel(session, 'a')).status).toBe(202);

      const res = await pending;
      await res.untilEnd();
      expect(res.status).toBe(200);
      expect(JSON.parse(res.text)).toEqual([
        {
          jsonrpc: '2.0',
          id: 'b',
          result: {
            contents: [{ uri: 'weather://readme', mimeType: 'text/markdown', text: '# Weather\nAsk for a forecast.' }],
          },
        },
      ]);
      expect(journal.aborts).toEqual([{ name: 'hold', requestId: 'a', aborted: true, reasonKind: 'cancelled' }]);
    });
  });

  describe('batches (2025-03-26)', () => {
    test('reads, errors, subscriptions and lists in one batch: each answered under its id', async () => {
      const session = await initialize('reader-token', '2025-03-26');
      const res = await send(session, [
        read(1, 'weather://readme'),
        read(2, 'weather://nowhere'),
        read(3, 'weather://forecast/Paris'),
        subscribe(4, 'weather://stations'),
        subscribe(5, 'weather://maintenance'),
        { jsonrpc: '2.0', id: 6, method: 'resources/unsubscribe', params: { uri: 'weather://never-subscribed' } },
        read(7, 'weather://crash'),
        { jsonrpc: '2.0', id: 8, method: 'resources/templates/list' },
      ]);
      expect(res.status).toBe(200);
      const replies = JSON.parse(res.text) as RpcMessage[];
      const byId = new Map(replies.map((reply) => [reply.id, reply]));
      expect(replies).toHaveLength(8);

      expect(byId.get(1)).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {
          contents: [{ uri: 'weather://readme', mimeType: 'text/markdown', text: '# Weather\nAsk for a forecast.' }],
        },
      });
      expect(byId.get(2)).toEqual(notFound(2, 'weather://nowhere'));
      expect(byId.get(3)).toEqual(
        invalidParams(
          3,
          'invalid variables for weather://forecast/{city}{?days}: city: city must be one of the following values: Lisbon, Porto, New York, São Paulo',
        ),
      );
      expect(byId.get(4)).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
      expect(byId.get(5)).toEqual(notFound(5, 'weather://maintenance'));
      expect(byId.get(6)).toEqual({ jsonrpc: '2.0', id: 6, result: {} });
      expect(byId.get(7)).toEqual({ jsonrpc: '2.0', id: 7, error: { code: -32603, message: 'Internal error' } });
      expect((byId.get(8)!.result!.resourceTemplates as { name: string }[]).map((template) => template.name)).toEqual([
        'forecast',
        'station',
        'alerts',
        'yearly_report',
        'archive',
      ]);

      expect(live(session).isSubscribed('weather://stations')).toBe(true);
      expect(live(session).subscriptionCount).toBe(1);
    });

    test(`a session may hold ${MAX_SUBSCRIPTIONS_PER_SESSION} subscriptions; one more is -32602, a repeat is not`, async () => {
      const session = await initialize('reader-token', '2025-03-26');
      const uris = Array.from({ length: MAX_SUBSCRIPTIONS_PER_SESSION + 1 }, (_, n) => `weather://stations/S${n}`);
      const res = await send(session, [...uris.map((uri, n) => subscribe(n, uri)), subscribe('again', uris[0])]);
      const replies = JSON.parse(res.text) as RpcMessage[];
      const refused = replies.filter((reply) => reply.error !== undefined);

      expect(replies).toHaveLength(MAX_SUBSCRIPTIONS_PER_SESSION + 2);
      expect(refused).toHaveLength(1);
      expect(refused[0]).toEqual(
        invalidParams(
          refused[0]!.id as number,
          `a session may subscribe to at most ${MAX_SUBSCRIPTIONS_PER_SESSION} resources ` +
            `(${MAX_SUBSCRIBED_URI_CHARS} characters of URIs); unsubscribe from some first`,
        ),
      );
      expect(replies.find((reply) => reply.id === 'again')).toEqual({ jsonrpc: '2.0', id: 'again', result: {} });
      expect(live(session).subscriptionCount).toBe(MAX_SUBSCRIPTIONS_PER_SESSION);
      expect(live(session).isSubscribed(uris[refused[0]!.id as number]!)).toBe(false);
    });
  });

  describe('guards: a hidden resource is an unknown resource', () => {
    test.each([
      ['a method-guarded resource', 'weather://maintenance'],
      ['a class-guarded resource', 'admin://audit-log'],
      ['a URI of a class-guarded template', 'admin://users/ada'],
    ])('%s: read and subscribe answer exactly as for an unknown URI; the handler never runs', async (_what, uri) => {
      const reader = await initialize('reader-token');
      const unknown = uri.replace(/:\/\//, '://no-such-');

      const hiddenRead = await answer(reader, read(1, uri));
      const unknownRead = await answer(reader, read(1, unknown));
      expect(hiddenRead).toEqual(notFound(1, uri));
      expect({ ...hiddenRead, error: { ...hiddenRead.error, data: { uri: unknown } } }).toEqual(unknownRead);

      expect(await answer(reader, subscribe(2, uri))).toEqual(notFound(2, uri));
      expect(await answer(reader, subscribe(2, unknown))).toEqual(notFound(2, unknown));
      expect(live(reader).subscriptionCount).toBe(0);
      expect([...journal.reads.keys()]).toEqual([]);

      const admin = await initialize('admin-token');
      expect((await answer(admin, read(3, uri))).result).toEqual({ contents: [expect.objectContaining({ uri })] });
      expect(await answer(admin, subscribe(4, uri))).toEqual({ jsonrpc: '2.0', id: 4, result: {} });
    });

    test('the lists leave them out for one token and show them to the other', async () => {
      const list = async (session: RawSession, method: string, key: string): Promise<string[]> => {
        const reply = await answer(session, { jsonrpc: '2.0', id: 'l', method });
        return (reply.result![key] as { name: string }[]).map((item) => item.name);
      };
      const reader = await initialize('reader-token');
      const admin = await initialize('admin-token');

      const readerResources = await list(reader, 'resources/list', 'resources');
      const adminResources = await list(admin, 'resources/list', 'resources');
      expect(readerResources).not.toContain('maintenance');
      expect(readerResources).not.toContain('audit_log');
      expect(adminResources).toEqual([...readerResources, 'maintenance', 'audit_log']);

      const readerTemplates = await list(reader, 'resources/templates/list', 'resourceTemplates');
      const adminTemplates = await list(admin, 'resources/templates/list', 'resourceTemplates');
      expect(readerTemplates).toEqual(['forecast', 'station', 'alerts', 'yearly_report', 'archive']);
      expect(adminTemplates).toEqual([...readerTemplates, 'admin_user']);
    });
  });

  describe('runtime changes and resources/updated on the GET stream', () => {
    afterEach(() => {
      for (const uri of ['runtime://one', 'runtime://two']) registry.remove(uri);
      templates.remove('runtime://items/{id}');
    });

    test('one notifications/resources/list_changed per burst of resource changes, to sessions with a GET stream only', async () => {
      const connected = await initialize();
      const disconnected = await initialize();
      const get = await openGet(connected);
      await syncGet(connected, get, 0);

      // One burst: three changes to the resources in one tick.
      registry.add({ uri: 'runtime://one', name: 'one' }, () => 'one');
      registry.add({ uri: 'runtime://two', name: 'two' }, () => 'two');
      expect(registry.remove('runtime://two')).toBe(true);
      await nextTurn();
      await syncGet(connected, get, 1);
      expect(unmarked(get)).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/list_changed' }]);
      expect(live(disconnected).undeliveredMessages).toBe(0);

      // A second burst, of templates: one more.
      templates.add<{ id: string }>({ uriTemplate: 'runtime://items/{id}', name: 'items' }, ({ id }) => `item ${id}`);
      await nextTurn();
      await syncGet(connected, get, 2);
      expect(get.withMethod('notifications/resources/list_changed')).toHaveLength(2);

      // What was added is served; what was removed is not.
      expect(await answer(connected, read(1, 'runtime://one'))).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: { contents: [{ uri: 'runtime://one', text: 'one' }] },
      });
      expect(await answer(connected, read(2, 'runtime://items/42'))).toEqual({
        jsonrpc: '2.0',
        id: 2,
        result: { contents: [{ uri: 'runtime://items/42', text: 'item 42' }] },
      });
      expect(await answer(connected, read(3, 'runtime://two'))).toEqual(notFound(3, 'runtime://two'));
      const listed = await answer(connected, { jsonrpc: '2.0', id: 4, method: 'resources/list' });
      const uris = (listed.result!.resources as { uri: string }[]).map((resource) => resource.uri);
      expect(uris.filter((uri) => uri.startsWith('runtime://'))).toEqual(['runtime://one']);

      expect(registry.remove('runtime://one')).toBe(true);
      expect(registry.remove('runtime://one')).toBe(false);
      await nextTurn();
      await syncGet(connected, get, 3);
      expect(get.withMethod('notifications/resources/list_changed')).toHaveLength(3);
      expect(await answer(connected, read(5, 'runtime://one'))).toEqual(notFound(5, 'runtime://one'));

      // The session that was not listening finds nothing waiting when it connects.
      const late = await openGet(disconnected);
      await syncGet(disconnected, late, 4);
      expect(unmarked(late)).toEqual([]);
    });

    // Resources and templates share one change burst: clients hear of them in one list.
    test('one burst that changes both resources and templates is still one notifications/resources/list_changed', async () => {
      const connected = await initialize();
      const get = await openGet(connected);
      await syncGet(connected, get, 0);

      registry.add({ uri: 'runtime://one', name: 'one' }, () => 'one');
      templates.add({ uriTemplate: 'runtime://items/{id}', name: 'items' }, () => 'item');
      await nextTurn();
      await syncGet(connected, get, 1);
      expect(unmarked(get)).toEqual([{ jsonrpc: '2.0', method: 'notifications/resources/list_changed' }]);
    });

    test('resources/updated reaches the GET stream of the subscribed session only, with the uri', async () => {
      const subscriber = await initialize();
      const bystander = await initialize();
      const subscriberGet = await openGet(subscriber);
      const bystanderGet = await openGet(bystander);
      expect(await answer(subscriber, subscribe(1, 'weather://forecast/New%20York'))).toEqual({
        jsonrpc: '2.0',
        id: 1,
        result: {},
      });

      expect(registry.notifyUpdated('weather://forecast/New%20York')).toBe(1);
      await syncGet(subscriber, subscriberGet, 1);
      await syncGet(bystander, bystanderGet, 1);
      expect(unmarked(subscriberGet)).toEqual([
        { jsonrpc: '2.0', method: 'notifications/resources/updated', params: { uri: 'weather://forecast/New%20York' } },
      ]);
      expect(unmarked(bystanderGet)).toEqual([]);

      expect(
        await answer(subscriber, {
          jsonrpc: '2.0',
          id: 2,
          method: 'resources/unsubscribe',
          params: { uri: 'weather://forecast/New%20York' },
        }),
      ).toEqual({ jsonrpc: '2.0', id: 2, result: {} });
      expect(registry.notifyUpdated('weather://forecast/New%20York')).toBe(0);
      await syncGet(subscriber, subscriberGet, 2);
      expect(subscriberGet.withMethod('notifications/resources/updated')).toHaveLength(1);
    });
  });
});
