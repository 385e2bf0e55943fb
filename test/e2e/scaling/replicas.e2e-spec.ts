/**
 * Three instances of one application sharing state through a real Redis, behind a round-robin
 * proxy that sends every request to the next instance: an official SDK v1 client runs a whole 2025
 * session across them (initialize, tools, progress, an elicitation answered through its handler, a
 * resource update, cancellation, a resume after the instance holding its GET stream stopped, DELETE
 * seen by all), and an SDK v2 client's `listen()` on one instance hears an update issued on another.
 */
import { Redis } from 'ioredis';
import { createHash } from 'node:crypto';
import type { Client } from '@modelcontextprotocol/sdk/client/index.js';
import {
  ElicitRequestSchema,
  ResourceUpdatedNotificationSchema,
  type ElicitResult,
} from '@modelcontextprotocol/sdk/types.js';
import { McpResourceRegistry, McpSessionRegistry } from '../../../src/index.js';
import { redisState } from '../../../src/redis/index.js';
import { SessionStore } from '../../internals/index.js';
import { ReplicaProbe, ReplicasModule } from '../../fixtures/replicas.module.js';
import { useModernSdkClients } from '../../utils/modern-sdk-clients.js';
import { RedisServer } from '../../utils/redis-server.js';
import { RoundRobinProxy } from '../../utils/round-robin-proxy.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { delay, until } from '../../utils/wait.js';

const URI = 'status://replicas';

describe('several instances sharing state through Redis (e2e)', () => {
  let redis: RedisServer;
  const clients: Redis[] = [];
  let replicas: RunningApp[] = [];
  let proxy: RoundRobinProxy;
  const prefix = `replicas-${process.pid}:`;

  beforeAll(async () => {
    redis = await RedisServer.start();
    for (let index = 0; index < 3; index++) {
      const client = new Redis(redis.url);
      clients.push(client);
      replicas.push(
        await startApp(ReplicasModule.register(redisState({ client, keyPrefix: prefix, replicaLeaseMs: 1_500 }))),
      );
    }
    proxy = await RoundRobinProxy.start(replicas.map((replica) => replica.baseUrl));
  });

  afterAll(async () => {
    await proxy?.close();
    for (const replica of replicas) await replica.close();
    for (const client of clients) client.disconnect();
    await redis?.stop();
  });

  const sdk = useSdkClients({ closeAfter: 'all' });
  const modern = useModernSdkClients();

  /** The instance whose cache holds the session with an open GET stream, if any. */
  const holderOf = (sessionId: string): RunningApp | undefined =>
    replicas.find((replica) => replica.app.get(SessionStore).get(sessionId)?.hasStream === true);

  it('serves one SDK v1 session with every request on another instance', async () => {
    const asked: unknown[] = [];
    const updated: string[] = [];
    const { client, transport } = await sdk.connect(`${proxy.url}/mcp`, {
      capabilities: { elicitation: {} },
      prepare: (c: Client) => {
        c.setRequestHandler(ElicitRequestSchema, (request): ElicitResult => {
          asked.push(request.params.message);
          return { action: 'accept', content: { ok: true } };
        });
        c.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
          updated.push(notification.params.uri);
        });
      },
    });
    const sessionId = transport.sessionId!;
    expect(sessionId).toMatch(/^[0-9a-f-]{36}$/);
    await until(() => holderOf(sessionId) !== undefined, 'the GET stream held by one instance', 5_000);

    const { tools } = await client.listTools();
    expect(tools.map((tool) => tool.name).sort()).toEqual(['confirm', 'echo', 'progress', 'slow']);
    expect(await client.callTool({ name: 'echo', arguments: { text: 'hello' } })).toMatchObject({
      content: [{ type: 'text', text: 'hello' }],
    });

    const progress: number[] = [];
    const done = await client.callTool({ name: 'progress', arguments: { steps: 5, delayMs: 10 } }, undefined, {
      onprogress: (p) => progress.push(p.progress),
    });
    expect(done).toMatchObject({ content: [{ type: 'text', text: 'done 5' }] });
    expect(progress).toEqual([1, 2, 3, 4, 5]);

    // The client's answer is POSTed to the next instance; it reaches the call waiting on this one.
    const confirmed = await client.callTool({ name: 'confirm', arguments: {} });
    expect(confirmed).toMatchObject({ content: [{ type: 'text', text: 'accept:{"ok":true}' }] });
    expect(asked).toEqual(['Confirm?']);

    await client.subscribeResource({ uri: URI });
    const holder = holderOf(sessionId)!;
    const other = replicas.find((replica) => replica !== holder)!;
    // The subscription recorded in Redis first (the set of its URI's subscribers, which an update reads).
    const subscribers = `${prefix}u:${createHash('sha256').update(URI).digest('base64url')}`;
    await until(async () => (await redis.value('SISMEMBER', subscribers, sessionId)) === 1, 'the subscription', 5_000);
    other.app.get(McpResourceRegistry).notifyUpdated(URI);
    await until(() => updated.length === 1, 'the update issued on another instance', 5_000);
    // A fixed wait on purpose: the update must come once, and 300 ms is time enough for a repeat.
    await delay(300);
    expect(updated).toEqual([URI]);

    // Cancelled through the next instance; the call runs on another.
    const abort = new AbortController();
    const cancelled = client.callTool({ name: 'slow', arguments: { key: 'cancel-me' } }, undefined, {
      signal: abort.signal,
    });
    const probes = replicas.map((replica) => replica.app.get(ReplicaProbe));
    await until(() => probes.some((probe) => probe.began.has('cancel-me')), 'the slow call running', 5_000);
    abort.abort('the user gave up');
    await expect(cancelled).rejects.toThrow();
    await until(
      () => probes.some((probe) => probe.aborted.get('cancel-me') === 'cancelled'),
      'the call aborted on its instance',
      5_000,
    );

    // Every consecutive request went to another instance.
    const routed = proxy.routed;
    for (let index = 1; index < routed.length; index++) expect(routed[index]).not.toBe(routed[index - 1]);
  });

  it('resumes the GET stream on another instance when the one holding it stops, and DELETE ends the session everywhere', async () => {
    const updated: string[] = [];
    const { client, transport } = await sdk.connect(`${proxy.url}/mcp`, {
      prepare: (c: Client) =>
        c.setNotificationHandler(ResourceUpdatedNotificationSchema, (notification) => {
          updated.push(notification.params.uri);
        }),
    });
    const sessionId = transport.sessionId!;
    const live = await replicas[1]!.app.get(McpSessionRegistry).countAll();
    await client.subscribeResource({ uri: URI });
    await until(() => holderOf(sessionId) !== undefined, 'the GET stream held by one instance', 5_000);
    const holder = holderOf(sessionId)!;
    replicas[0]!.app.get(McpResourceRegistry).notifyUpdated(URI);
    await until(() => updated.length === 1, 'the first update', 5_000);

    proxy.remove(holder.baseUrl);
    await holder.close();
    replicas = replicas.filter((replica) => replica !== holder);
    // Issued while the client reconnects: it waits in the stream's backlog or reaches the new holder.
    replicas[0]!.app.get(McpResourceRegistry).notifyUpdated(URI);
    await until(() => holderOf(sessionId) !== undefined, 'the GET stream taken over', 10_000);
    await until(() => updated.length >= 2, 'the update after the takeover', 10_000);
    replicas[1]!.app.get(McpResourceRegistry).notifyUpdated(URI);
    await until(() => updated.length >= 3, 'an update to the new holder', 5_000);
    // A fixed wait on purpose: no repeat may follow.
    await delay(300);
    expect(updated).toEqual([URI, URI, URI]);

    // A call running somewhere when the client deletes its session.
    const running = client.callTool({ name: 'slow', arguments: { key: 'deleted-under-me' } }).catch(() => 'ended');
    const probes = replicas.map((replica) => replica.app.get(ReplicaProbe));
    await until(() => probes.some((probe) => probe.began.has('deleted-under-me')), 'the slow call running', 5_000);
    await transport.terminateSession();
    await until(
      () => probes.some((probe) => probe.aborted.get('deleted-under-me') === 'session-ended'),
      'the call ended with its session',
      5_000,
    );
    await running;
    for (const replica of replicas) {
      const answer = await fetch(`${replica.mcpUrl}`, {
        method: 'POST',
        headers: {
          'content-type': 'application/json',
          accept: 'application/json, text/event-stream',
          'mcp-session-id': sessionId,
          'mcp-protocol-version': '2025-11-25',
        },
        body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/list' }),
      });
      expect(answer.status).toBe(404);
    }
    expect(await redis.keys(`${prefix}s:{${sessionId}}*`)).toEqual([]);
    expect(await replicas[0]!.app.get(McpSessionRegistry).countAll()).toBe(live - 1);
  });

  it("delivers an update issued on one instance to an SDK v2 client's listen() on another", async () => {
    const heard: string[] = [];
    const [a, c] = [replicas[0]!, replicas[replicas.length - 1]!];
    const { client } = await modern.connect(a.mcpUrl, {
      prepare: (v2) =>
        v2.setNotificationHandler('notifications/resources/updated', (notification) => {
          heard.push(notification.params.uri);
        }),
    });
    await client.listen({ resourceSubscriptions: [URI] });
    c.app.get(McpResourceRegistry).notifyUpdated(URI);
    await until(() => heard.length === 1, 'the update from the other instance', 5_000);
    // A fixed wait on purpose: the update must come once, and 300 ms is time enough for a repeat.
    await delay(300);
    expect(heard).toEqual([URI]);
  });
});
