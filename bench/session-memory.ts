import { setTimeout as sleep } from 'node:timers/promises';
import type { ServerChild } from './child.js';
import { keepAliveAgent } from './http-client.js';
import { closeSession, openSession } from './mcp-client.js';

const CONCURRENCY = 10;
const WARMUP_SESSIONS = 50;

export interface SessionMemory {
  readonly sessions: number;
  readonly bytesPerSession: number;
}

/**
 * Heap per idle session in the server's process: heapUsed after `count` sessions (each
 * `initialize` + `notifications/initialized`) minus heapUsed before, both after forced GCs, with
 * no client connection open. The sessions are alive when measured: the server must report exactly
 * `count` of them. The client keeps nothing: each session id is dropped once its session is open.
 */
export async function measureSessionMemory(child: ServerChild, count: number): Promise<SessionMemory> {
  await warmUp(child);
  const before = await child.heap();
  if (before.sessions !== 0) throw new Error(`expected no sessions before, the server holds ${before.sessions}`);

  const agent = keepAliveAgent(CONCURRENCY);
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < count) {
      next++;
      await openSession(agent, child.url);
    }
  };
  await Promise.all(Array.from({ length: CONCURRENCY }, worker));
  agent.destroy();
  await sleep(100); // lets the server see its sockets close

  const after = await child.heap();
  if (after.sessions !== count) throw new Error(`expected ${count} live sessions, the server holds ${after.sessions}`);
  return { sessions: after.sessions, bytesPerSession: (after.heapUsed - before.heapUsed) / count };
}

/** Runs the session code paths once (lazy initialisation, JIT) and ends those sessions again. */
async function warmUp(child: ServerChild): Promise<void> {
  const agent = keepAliveAgent(CONCURRENCY);
  for (let i = 0; i < WARMUP_SESSIONS; i++) {
    await closeSession(agent, child.url, await openSession(agent, child.url));
  }
  agent.destroy();
  await sleep(100);
}
