import type { IncomingMessage } from 'node:http';

/**
 * Marks a connection that the testing kit (`mcp42/testing`) opened inside the process: a stream
 * pair handed to the app's own HTTP server, never a network socket. Nothing that arrives from the
 * network can carry it (a symbol property is not something bytes can set), so the endpoint's door
 * may trust it to skip the Host/Origin check, which guards against DNS rebinding and cross-site
 * browsers, neither of which exists inside a test.
 */
export const IN_PROCESS_CONNECTION: unique symbol = Symbol('mcp42:in-process-connection');

/** Whether `raw` came over a connection the testing kit opened in process. */
export function isInProcess(raw: IncomingMessage): boolean {
  const socket = raw.socket as (IncomingMessage['socket'] & { [IN_PROCESS_CONNECTION]?: true }) | null;
  return socket?.[IN_PROCESS_CONNECTION] === true;
}
