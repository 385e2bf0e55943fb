import { request, type Agent, type ClientRequest } from 'node:http';
import { setTimeout as sleep } from 'node:timers/promises';
import { CITIES_URI, forecastUri } from '../sample-app/weather.uris.js';
import type { RedisServer } from '../test/utils/redis-server.js';
import type { ServerChild } from './child.js';
import { keepAliveAgent, send } from './http-client.js';
import { openSession, PROTOCOL_VERSION, sessionHeaders } from './mcp-client.js';
import { memoryPer, memoryUsage, redisMemory, sessionEventsKey, type RedisMemory } from './redis-stats.js';

/** Sessions that each hear every city's refresh on their standalone (GET) stream. */
const EVENT_SESSIONS = 20;
/**
 * Refreshes called at once for the per-event figure: enough events per stream to fill several stream
 * nodes (Redis allocates a node's bytes ahead), within `maxStoredEvents` (1,000 per session).
 */
const REFRESHES_AT_ONCE = 40;
const WAIT_MS = 30_000;

export interface RedisEventFigures {
  readonly sessions: number;
  /** Events one refresh of every city stores per session: a notifications/resources/updated per city. */
  readonly eventsPerRefresh: number;
  readonly refreshesAtOnce: number;
  /** Characters of one stored event's data (the JSON-RPC notification). */
  readonly dataChars: number;
  /** `stream-node-max-bytes` and `stream-node-max-entries` of the server. */
  readonly node: { readonly bytes: string; readonly entries: string };
  /** After the first refresh: `MEMORY USAGE` of one session's event stream, and what Redis allocated per session. */
  readonly firstEvents: { readonly streamBytes: number; readonly perSession: RedisMemory };
  /** The refreshes at once (every stream there already), per event: `MEMORY USAGE` of the streams, and what Redis allocated. */
  readonly bytesPerEvent: number;
  readonly memoryPerEvent: RedisMemory;
  /** Events stored by the refreshes at once, in all. */
  readonly events: number;
}

/**
 * Redis memory per stored event: EVENT_SESSIONS sessions subscribe to every city's forecast and keep
 * their standalone stream open (its events are stored for resumption); another session calls
 * `refresh_forecasts` (its own log level set to error, so that its answers are plain JSON and store
 * nothing), once for each session's first events (which create its stream), then REFRESHES_AT_ONCE
 * times at once. Each refresh stores one event per city and session.
 */
export async function measureRedisEvents(child: ServerChild, redis: RedisServer): Promise<RedisEventFigures> {
  const { url } = child;
  const agent = keepAliveAgent(REFRESHES_AT_ONCE);
  const streams: ClientRequest[] = [];
  try {
    const driver = await openSession(agent, url);
    const cities = await knownCities(agent, url, driver);
    await rpc(agent, url, driver, 'logging/setLevel', { level: 'error' });
    const sessions: string[] = [];
    for (let index = 0; index < EVENT_SESSIONS; index++) {
      const sessionId = await openSession(agent, url);
      for (const city of cities) await rpc(agent, url, sessionId, 'resources/subscribe', { uri: forecastUri(city) });
      sessions.push(sessionId);
    }
    for (const sessionId of sessions) streams.push(await openStandalone(url, sessionId));
    await sleep(200);

    const eventsPerRefresh = cities.length;
    const streamsNow = async (): Promise<{ events: number; bytes: number }> => {
      const keys = sessions.map(sessionEventsKey);
      const [lengths, sizes] = await Promise.all([
        Promise.all(keys.map(async (key) => Number(await redis.value('XLEN', key)))),
        Promise.all(keys.map((key) => memoryUsage(redis, key))),
      ]);
      return { events: lengths.reduce((a, b) => a + b, 0), bytes: sizes.reduce((a, b) => a + b, 0) };
    };
    /** Calls `times` refreshes at once; resolves once Redis holds every event they stored. */
    const refresh = async (times: number): Promise<{ events: number; bytes: number }> => {
      const before = await streamsNow();
      const expected = before.events + times * eventsPerRefresh * sessions.length;
      const call = (): Promise<unknown> =>
        rpc(agent, url, driver, 'tools/call', { name: 'refresh_forecasts', arguments: {} });
      await Promise.all(Array.from({ length: times }, call));
      const deadline = Date.now() + WAIT_MS;
      for (;;) {
        const now = await streamsNow();
        if (now.events === expected) return now;
        if (Date.now() > deadline) throw new Error(`expected ${expected} stored events, Redis has ${now.events}`);
        await sleep(50);
      }
    };

    const m0 = await redisMemory(redis);
    const first = await refresh(1);
    const m1 = await redisMemory(redis);
    const streamBytes = await memoryUsage(redis, sessionEventsKey(sessions[0]!));
    const many = await refresh(REFRESHES_AT_ONCE);
    const m2 = await redisMemory(redis);
    const config = (await redis.value('CONFIG', 'GET', 'stream-node-max-*')) as string[];
    const setting = (name: string): string => config[config.indexOf(name) + 1] ?? '?';
    const events = many.events - first.events;
    return {
      sessions: sessions.length,
      eventsPerRefresh,
      refreshesAtOnce: REFRESHES_AT_ONCE,
      dataChars: await eventDataChars(redis, sessionEventsKey(sessions[0]!)),
      node: { bytes: setting('stream-node-max-bytes'), entries: setting('stream-node-max-entries') },
      firstEvents: { streamBytes, perSession: memoryPer(m0, m1, sessions.length) },
      bytesPerEvent: (many.bytes - first.bytes) / events,
      memoryPerEvent: memoryPer(m1, m2, events),
      events,
    };
  } finally {
    for (const stream of streams) stream.destroy();
    agent.destroy();
  }
}

let nextId = 100;

/** One JSON-RPC request on a session; its result (a JSON answer, or the last message of an SSE one). */
async function rpc(agent: Agent, url: string, sessionId: string, method: string, params: object): Promise<unknown> {
  const id = nextId++;
  const reply = await send(
    agent,
    'POST',
    url,
    sessionHeaders(sessionId),
    JSON.stringify({ jsonrpc: '2.0', id, method, params }),
  );
  const text = String(reply.headers['content-type']).startsWith('text/event-stream')
    ? (reply.body
        .match(/^data: ?(.*)$/gm)
        ?.at(-1)
        ?.replace(/^data: ?/, '') ?? '')
    : reply.body;
  const message = (reply.status === 200 ? JSON.parse(text) : {}) as { id?: unknown; result?: unknown };
  if (message.id !== id || message.result === undefined) {
    throw new Error(`${method} answered ${reply.status}: ${reply.body.slice(0, 300)}`);
  }
  return message.result;
}

/** The cities of the sample's backend, from its `weather://cities` resource. */
async function knownCities(agent: Agent, url: string, sessionId: string): Promise<string[]> {
  const result = (await rpc(agent, url, sessionId, 'resources/read', { uri: CITIES_URI })) as {
    contents: { text: string }[];
  };
  return JSON.parse(result.contents[0]!.text) as string[];
}

/** Opens the session's standalone stream (GET) and reads it until destroyed. */
function openStandalone(url: string, sessionId: string): Promise<ClientRequest> {
  return new Promise((resolve, reject) => {
    const headers = {
      accept: 'text/event-stream',
      'mcp-session-id': sessionId,
      'mcp-protocol-version': PROTOCOL_VERSION,
    };
    const req = request(url, { method: 'GET', headers, agent: false }, (res) => {
      if (res.statusCode !== 200) return reject(new Error(`GET stream answered ${res.statusCode}`));
      res.resume();
      res.on('error', () => undefined);
      resolve(req);
    });
    req.on('error', reject);
    req.end();
  });
}

/** Characters of the data (field `d`) of a stream's first event. */
async function eventDataChars(redis: RedisServer, key: string): Promise<number> {
  const [[, fields] = []] = (await redis.value('XRANGE', key, '-', '+', 'COUNT', '1')) as [string, string[]][];
  const data = fields?.[fields.indexOf('d') + 1];
  if (fields === undefined || !fields.includes('d') || data === undefined) throw new Error(`${key} has no event data`);
  return data.length;
}
