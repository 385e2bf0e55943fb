/**
 * `subscriptions/listen` (2026-07-28) on a real Nest app over raw HTTP: the acknowledgment first,
 * with the part of the filter the server honours; change notifications tagged with the subscription
 * id, only of the kinds asked for; keep-alive comments; the graceful end at shutdown; the limits on
 * open streams; and 2025 sessions hearing the same changes beside it. Every message received is
 * checked against the revision's JSON Schema by the modern client.
 */
import {
  Injectable,
  UseGuards,
  type BeforeApplicationShutdown,
  type CanActivate,
  type ModuleMetadata,
} from '@nestjs/common';
import {
  McpModule,
  McpPromptRegistry,
  McpResource,
  McpResourceRegistry,
  McpTool,
  McpToolRegistry,
  type McpModuleOptions,
} from '../../../src/index.js';
import { Gate } from '../../fixtures/gate.js';
import { ADMIN, bearer, modernApp } from '../../fixtures/modern.fixture.js';
import { useModernApp } from '../../utils/modern-app.js';
import { expectErrorAnswer, Meta, ModernClient, type ModernExchange } from '../../utils/modern-client.js';
import { startApp } from '../../utils/start-app.js';
import { until, within } from '../../utils/wait.js';

const ACK = 'notifications/subscriptions/acknowledged';
const TOOLS_CHANGED = 'notifications/tools/list_changed';
const PROMPTS_CHANGED = 'notifications/prompts/list_changed';
const RESOURCES_CHANGED = 'notifications/resources/list_changed';
const UPDATED = 'notifications/resources/updated';

/** Opens a listen stream with `filter` and waits for its acknowledgment. */
async function listen(
  client: ModernClient,
  notifications: Record<string, unknown>,
  id?: string | number,
): Promise<ModernExchange> {
  const stream = await client.open('subscriptions/listen', { notifications }, id === undefined ? {} : { id });
  expect(stream.status).toBe(200);
  await stream.nextMessage((message) => message.method === ACK);
  return stream;
}

const methodsOf = (stream: ModernExchange): string[] => stream.messages.map((message) => message.method ?? 'response');

/** Where the guard of `test://held` waits, and how often it ran. */
const heldGuards = { gate: new Gate(), runs: 0 };

/** The guard of `test://held`: counts its runs, and admits once the test opens its gate. */
@Injectable()
class HeldGuard implements CanActivate {
  async canActivate(): Promise<boolean> {
    heldGuards.runs++;
    await heldGuards.gate.pass();
    return true;
  }
}

/** A resource whose guard the test holds: a listen subscribing to it waits for its verdict. */
@Injectable()
class HeldResource {
  @McpResource({ uri: 'test://held', name: 'held', description: 'Guarded by a guard the test holds' })
  @UseGuards(HeldGuard)
  held(): string {
    return 'held';
  }
}

/**
 * Once `holding`, holds the shutdown at its gate, after the destroy hooks and before the library's
 * own `beforeApplicationShutdown` (the root module's hooks run before those of the modules it imports).
 */
@Injectable()
class ShutdownHold implements BeforeApplicationShutdown {
  readonly gate = new Gate();
  holding = false;

  async beforeApplicationShutdown(): Promise<void> {
    if (this.holding) await this.gate.pass();
  }
}

/** The modern fixture app with `test://held`, and {@link ShutdownHold}, on top of `options`. */
function heldApp(options: Partial<McpModuleOptions> = {}): ModuleMetadata {
  const base = modernApp(options);
  return { ...base, providers: [...(base.providers ?? []), HeldGuard, HeldResource, ShutdownHold] };
}

/** The graceful end of a listen: its result, tagged with its subscription id. */
const endOf = (id: string | number) => ({
  jsonrpc: '2.0',
  id,
  result: { resultType: 'complete', _meta: { [Meta.SubscriptionId]: id, [Meta.ServerInfo]: expect.any(Object) } },
});

@Injectable()
class OnlyTools {
  @McpTool({ name: 'only_tool', description: 'The one tool' })
  only(): string {
    return 'only';
  }
}

describe('2026-07-28 subscriptions/listen (e2e)', () => {
  const app = useModernApp(modernApp({ http: { keepAliveMs: 40 }, limits: { listenStreamsPerPrincipal: 50 } }));
  const client = app.client;

  describe('the acknowledgment', () => {
    it('comes first, on an SSE stream, tagged with the request id, with the honoured filter', async () => {
      const stream = await client.open(
        'subscriptions/listen',
        {
          notifications: {
            toolsListChanged: true,
            promptsListChanged: true,
            resourcesListChanged: true,
            resourceSubscriptions: ['test://static', 'test://secret', 'test://nowhere', 'test://items/3'],
          },
        },
        { id: 'sub-1' },
      );
      expect(stream.status).toBe(200);
      expect(stream.headers['content-type']).toMatch(/^text\/event-stream\b/);
      expect(stream.headers['x-accel-buffering']).toBe('no');
      const ack = await stream.nextMessage(() => true);
      expect(ack).toEqual({
        jsonrpc: '2.0',
        method: ACK,
        params: {
          _meta: { [Meta.SubscriptionId]: 'sub-1' },
          notifications: {
            toolsListChanged: true,
            promptsListChanged: true,
            resourcesListChanged: true,
            // Not the guarded resource, nor one nothing serves; a template's resource is readable.
            resourceSubscriptions: ['test://static', 'test://items/3'],
          },
        },
      });
    });

    it('honours what the caller may read: an admin gets the guarded resource', async () => {
      const stream = await listen(client.with(ADMIN), { resourceSubscriptions: ['test://secret'] }, 7);
      expect(stream.messages[0]!.params).toEqual({
        _meta: { [Meta.SubscriptionId]: 7 },
        notifications: { resourceSubscriptions: ['test://secret'] },
      });
    });

    it('omits what was not asked for, false flags, and resource lists with nothing readable', async () => {
      const stream = await listen(client, {
        toolsListChanged: false,
        promptsListChanged: true,
        resourceSubscriptions: ['test://secret'],
      });
      expect(stream.messages[0]!.params?.notifications).toEqual({ promptsListChanged: true });
      // Nothing honoured, nothing would ever come: the subscription ends at once, gracefully.
      const empty = await listen(client, { resourceSubscriptions: ['test://nowhere'] }, 'empty');
      expect(await empty.untilEnd()).toBe('end');
      expect(empty.messages).toEqual([
        expect.objectContaining({
          method: ACK,
          params: { _meta: { [Meta.SubscriptionId]: 'empty' }, notifications: {} },
        }),
        {
          jsonrpc: '2.0',
          id: 'empty',
          result: {
            resultType: 'complete',
            _meta: { [Meta.SubscriptionId]: 'empty', [Meta.ServerInfo]: expect.any(Object) },
          },
        },
      ]);
    });

    it('sends keep-alive comments while nothing happens', async () => {
      const stream = await listen(client, { toolsListChanged: true });
      await stream.waitFor((exchange) => /(^|\n):[^\n]*\n/.test(exchange.text), 1000);
      expect(methodsOf(stream)).toEqual([ACK]);
    });
  });

  describe('change notifications', () => {
    it('sends each stream the kinds it asked for, tagged with its subscription id', async () => {
      const tools = app.get(McpToolRegistry);
      const prompts = app.get(McpPromptRegistry);
      const resources = app.get(McpResourceRegistry);
      const toolsOnly = await listen(client, { toolsListChanged: true }, 'tools-sub');
      const others = await listen(
        client,
        { promptsListChanged: true, resourcesListChanged: true, resourceSubscriptions: ['test://static'] },
        42,
      );
      const tagged = (id: string | number, method: string, params: Record<string, unknown> = {}) => ({
        jsonrpc: '2.0',
        method,
        params: { ...params, _meta: { [Meta.SubscriptionId]: id } },
      });

      tools.add({ name: 'transient_tool', description: 'Comes and goes' }, () => 'here');
      await toolsOnly.nextMessage((message) => message.method === TOOLS_CHANGED);
      tools.remove('transient_tool');
      await toolsOnly.waitFor((stream) => stream.withMethod(TOOLS_CHANGED).length === 2);
      prompts.add({ name: 'transient_prompt', description: 'Comes and goes' }, () => 'here');
      await others.nextMessage((message) => message.method === PROMPTS_CHANGED);
      prompts.remove('transient_prompt');
      await others.waitFor((stream) => stream.withMethod(PROMPTS_CHANGED).length === 2);
      expect(resources.notifyUpdated('test://plain')).toBe(0);
      expect(resources.notifyUpdated('test://static')).toBe(1);
      await others.nextMessage((message) => message.method === UPDATED);
      // A last change both hear: whatever either was sent before it has arrived by then.
      resources.add({ uri: 'test://late', name: 'late', description: 'Added late' }, () => 'late');
      tools.add({ name: 'last_tool', description: 'The last change' }, () => 'last');
      try {
        await others.nextMessage((message) => message.method === RESOURCES_CHANGED);
        await toolsOnly.waitFor((stream) => stream.withMethod(TOOLS_CHANGED).length === 3);
      } finally {
        resources.remove('test://late');
        tools.remove('last_tool');
      }

      expect(toolsOnly.messages.slice(1)).toEqual([
        tagged('tools-sub', TOOLS_CHANGED),
        tagged('tools-sub', TOOLS_CHANGED),
        tagged('tools-sub', TOOLS_CHANGED),
      ]);
      expect(others.messages.slice(1)).toEqual([
        tagged(42, PROMPTS_CHANGED),
        tagged(42, PROMPTS_CHANGED),
        tagged(42, UPDATED, { uri: 'test://static' }),
        tagged(42, RESOURCES_CHANGED),
      ]);
    });

    it('reaches a 2025 session GET stream with the same changes', async () => {
      const session = await app.legacy.initialize();
      expect((await app.legacy.request(session, 'resources/subscribe', { uri: 'test://static' }, 1)).result).toEqual(
        {},
      );
      const get = await app.legacy.openGet(session);
      expect(get.status).toBe(200);
      const stream = await listen(client, { toolsListChanged: true, resourceSubscriptions: ['test://static'] }, 'both');

      const tools = app.get(McpToolRegistry);
      tools.add({ name: 'shared_tool', description: 'Heard by both eras' }, () => 'x');
      try {
        await stream.nextMessage((message) => message.method === TOOLS_CHANGED);
        await get.nextMessage((message) => message.method === TOOLS_CHANGED);
      } finally {
        tools.remove('shared_tool');
      }
      await stream.waitFor((open) => open.withMethod(TOOLS_CHANGED).length === 2);
      await get.waitFor((open) => open.withMethod(TOOLS_CHANGED).length === 2);
      expect(app.get(McpResourceRegistry).notifyUpdated('test://static')).toBe(2);
      await stream.nextMessage((message) => message.method === UPDATED);
      const updated = await get.nextMessage((message) => message.method === UPDATED);
      // The session hears it untagged: it is not a subscription of the 2026-07-28 kind.
      expect(updated).toEqual({ jsonrpc: '2.0', method: UPDATED, params: { uri: 'test://static' } });
      expect(get.messages.map((message) => message.method)).toEqual([TOOLS_CHANGED, TOOLS_CHANGED, UPDATED]);
    });

    it("ignores notifications/cancelled over HTTP, its own principal's included: closing the stream is the cancellation", async () => {
      const alice = client.with(bearer('alice'));
      const stream = await listen(alice, { toolsListChanged: true }, 'alices');
      // A listen id is a small guessable value: a notification naming it could be anyone's.
      for (const sender of [client.with(bearer('mallory')), client, alice]) {
        expect(await sender.notify('notifications/cancelled', { requestId: 'alices' })).toEqual({
          status: 202,
          text: '',
        });
      }
      const tools = app.get(McpToolRegistry);
      tools.add({ name: 'after_cancel', description: 'Still heard' }, () => 'x');
      try {
        await stream.nextMessage((message) => message.method === TOOLS_CHANGED);
      } finally {
        tools.remove('after_cancel');
      }
      expect(stream.ended).toBe(false);
    });
  });
});

describe('2026-07-28 subscriptions/listen on an application without prompts or resources (e2e)', () => {
  const app = useModernApp({
    imports: [McpModule.forRoot({ name: 'tools-only', version: '0.1.0' })],
    providers: [OnlyTools],
  });

  it('omits the kinds it has no items of from the acknowledgment', async () => {
    const stream = await listen(app.client, {
      toolsListChanged: true,
      promptsListChanged: true,
      resourcesListChanged: true,
      resourceSubscriptions: ['test://static'],
    });
    expect(stream.messages[0]!.params?.notifications).toEqual({ toolsListChanged: true });
  });
});

describe('2026-07-28 subscriptions/listen limits (e2e)', () => {
  const app = useModernApp(modernApp({ limits: { listenStreams: 3, listenStreamsPerPrincipal: 2 } }));

  it('refuses streams past the limits with 429 and a JSON-RPC error echoing the id; a closed stream frees its slot', async () => {
    const alice = app.client.with(bearer('alice'));
    const bob = app.client.with(bearer('bob'));
    const first = await listen(alice, { toolsListChanged: true });
    await listen(alice, { toolsListChanged: true });
    const third = await alice.send('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'a3' });
    expect(expectErrorAnswer(third, 429)).toMatchObject({ code: -32000 });
    expect(third.headers['retry-after']).toBeDefined();

    await listen(bob, { toolsListChanged: true });
    // Three open in all: bob's second is refused by the global limit.
    const global = await bob.send('subscriptions/listen', { notifications: { toolsListChanged: true } }, { id: 'b2' });
    expect(expectErrorAnswer(global, 429).code).toBe(-32000);

    first.close();
    await until(async () => {
      const retry = await alice.open('subscriptions/listen', { notifications: { toolsListChanged: true } });
      if (retry.status === 200) return true;
      await retry.untilEnd();
      expect(expectErrorAnswer(retry, 429).code).toBe(-32000);
      return false;
    }, 'a slot freed by the closed stream');
  });
});

describe('2026-07-28 subscriptions/listen limits, counted from arrival (e2e)', () => {
  const app = useModernApp(heldApp({ limits: { listenStreams: 10, listenStreamsPerPrincipal: 2 } }), {
    afterEach: () => heldGuards.gate.releaseAll(),
  });

  beforeEach(() => {
    heldGuards.runs = 0;
  });

  // Was a bug, fixed (src/dispatch/listen-streams.ts): listens were counted once acknowledged, after
  // their resource guards; concurrent listens all passed the check, all ran their guards, and the
  // extra ones were then refused with 200 and -32000 instead of 429.
  it('refuses with 429 the listens of a principal past its limit while the guards of the first still decide', async () => {
    const alice = app.client.with(bearer('alice'));
    const settled: ModernExchange[] = [];
    const opening = ['a1', 'a2', 'a3', 'a4'].map((id) =>
      alice
        .open('subscriptions/listen', { notifications: { resourceSubscriptions: ['test://held'] } }, { id })
        .then((exchange) => {
          settled.push(exchange);
          return exchange;
        }),
    );
    await until(() => settled.length === 2, 'two listens answered while the guards of two others decide');
    for (const refused of settled) {
      await refused.untilEnd();
      expect(expectErrorAnswer(refused, 429).code).toBe(-32000);
      expect(refused.headers['retry-after']).toBeDefined();
    }
    expect(heldGuards.runs).toBe(2);
    heldGuards.gate.releaseAll();
    const opened = (await Promise.all(opening)).filter((exchange) => !settled.slice(0, 2).includes(exchange));
    expect(opened).toHaveLength(2);
    for (const stream of opened) {
      expect(stream.status).toBe(200);
      await stream.nextMessage((message) => message.method === ACK);
      expect(stream.messages[0]!.params?.notifications).toEqual({ resourceSubscriptions: ['test://held'] });
    }
    expect(heldGuards.runs).toBe(2);
  });
});

describe('2026-07-28 subscriptions/listen limits of anonymous callers (e2e)', () => {
  const app = useModernApp(modernApp({ limits: { listenStreams: 3, listenStreamsPerPrincipal: 1 } }));

  // Was a bug, fixed (src/dispatch/listen-streams.ts): anonymous callers shared one per-principal
  // count, so one anonymous listen locked every other anonymous caller out.
  it('bounds anonymous listens by maxListenStreams alone, not per principal', async () => {
    for (let opened = 0; opened < 3; opened++) await listen(app.client, { toolsListChanged: true });
    const fourth = await app.client.send('subscriptions/listen', { notifications: { toolsListChanged: true } });
    expect(expectErrorAnswer(fourth, 429).code).toBe(-32000);
  });
});

describe('2026-07-28 subscriptions/listen at shutdown (e2e)', () => {
  it('ends each stream gracefully with its result when the application closes', async () => {
    const running = await startApp(modernApp());
    try {
      const client = new ModernClient(() => running.mcpUrl);
      const stream = await listen(client, { toolsListChanged: true }, 'graceful');
      const numeric = await listen(client, { promptsListChanged: true }, 5);
      await within(running.close(), 5000, 'the application closing');
      for (const [open, id] of [
        [stream, 'graceful'],
        [numeric, 5],
      ] as const) {
        expect(await open.untilEnd()).toBe('end');
        expect(open.messages.slice(1)).toEqual([
          {
            jsonrpc: '2.0',
            id,
            result: {
              resultType: 'complete',
              _meta: { [Meta.SubscriptionId]: id, [Meta.ServerInfo]: expect.any(Object) },
            },
          },
        ]);
      }
    } finally {
      await running.close().catch(() => undefined);
    }
  });
  // Was a bug, fixed (src/dispatch/listen-streams.ts): a listen that arrived once the destroy hooks
  // had ended the streams was acknowledged and then kept open, so close() waited for it for ever.
  it('ends at once, with its result, a listen that arrives while the application shuts down; close() does not wait', async () => {
    const running = await startApp(heldApp(), { forceCloseConnections: false });
    const hold = running.app.get(ShutdownHold);
    hold.holding = true;
    const client = new ModernClient(() => running.mcpUrl);
    let closing: Promise<void> | undefined;
    try {
      closing = running.close();
      // The destroy hooks have run; the server still accepts requests.
      await within(hold.gate.whenWaiting(), 2000, 'the shutdown reaching beforeApplicationShutdown');
      const late = await listen(client, { toolsListChanged: true }, 'late');
      expect(await late.untilEnd()).toBe('end');
      expect(late.messages.slice(1)).toEqual([endOf('late')]);
      hold.gate.releaseAll();
      await within(closing, 2000, 'the application closing');
    } finally {
      hold.gate.releaseAll();
      client.closeAll();
      await closing?.catch(() => undefined);
    }
  });

  // Was a bug, fixed (src/dispatch/listen-streams.ts): a listen whose resource guards were still
  // deciding when the streams were ended became a stream afterwards, never ended.
  it('ends at once, with its result, a listen whose guards decided while the application shut down', async () => {
    const running = await startApp(heldApp(), { forceCloseConnections: false });
    const hold = running.app.get(ShutdownHold);
    hold.holding = true;
    const client = new ModernClient(() => running.mcpUrl);
    heldGuards.gate.releaseAll();
    let closing: Promise<void> | undefined;
    try {
      const opening = client.open(
        'subscriptions/listen',
        { notifications: { toolsListChanged: true, resourceSubscriptions: ['test://held'] } },
        { id: 'guarded' },
      );
      await within(heldGuards.gate.whenWaiting(), 2000, 'the guard of test://held deciding');
      closing = running.close();
      await within(hold.gate.whenWaiting(), 2000, 'the shutdown reaching beforeApplicationShutdown');
      heldGuards.gate.releaseAll();
      const stream = await opening;
      expect(stream.status).toBe(200);
      expect(await stream.untilEnd()).toBe('end');
      expect(stream.messages).toEqual([
        {
          jsonrpc: '2.0',
          method: ACK,
          params: {
            _meta: { [Meta.SubscriptionId]: 'guarded' },
            notifications: { toolsListChanged: true, resourceSubscriptions: ['test://held'] },
          },
        },
        endOf('guarded'),
      ]);
      hold.gate.releaseAll();
      await within(closing, 2000, 'the application closing');
    } finally {
      heldGuards.gate.releaseAll();
      hold.gate.releaseAll();
      client.closeAll();
      await closing?.catch(() => undefined);
    }
  });
});
