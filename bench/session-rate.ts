import type { ServerChild } from './child.js';
import { measureRate } from './load.js';
import { INITIALIZE_BODY, initializeHeaders } from './mcp-client.js';

export const RATE_CONNECTIONS = 10;

/**
 * Sessions created per second: `count` `initialize` requests over RATE_CONNECTIONS keep-alive
 * connections (no `notifications/initialized`). The server must hold `count` more sessions after.
 */
export async function measureSessionRate(child: ServerChild, count: number): Promise<number> {
  const { sessions: before = 0 } = await child.heap();
  const { perSecond, failures } = await measureRate(
    { url: child.url, headers: initializeHeaders(), body: INITIALIZE_BODY },
    count,
    RATE_CONNECTIONS,
  );
  const { sessions: after = 0 } = await child.heap();
  if (failures > 0) throw new Error(`${failures} initialize requests failed`);
  if (after - before !== count) throw new Error(`expected ${count} new sessions, the server has ${after - before}`);
  return perSecond;
}
