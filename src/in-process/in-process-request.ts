import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { memoryConnection } from './memory-socket.js';

/** A request to the application's own HTTP server, made inside the process. */
export interface InProcessRequest {
  readonly method: string;
  /** Path and query string. */
  readonly path: string;
  readonly headers: Readonly<Record<string, string>>;
  readonly body?: string;
  /**
   * Whether the connection is the testing kit's, which the MCP endpoint's door trusts to skip its
   * Host/Origin check. Never for a request that acts for a remote caller.
   */
  readonly trusted: boolean;
  /** Aborting it drops the connection, before or after the answer's head: the server sees the client go. */
  readonly signal?: AbortSignal;
}

/** The answer to one request, as its head arrived; its body is read as it comes. */
export interface HttpReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: IncomingMessage;
  /** Whether {@link close} was called: a read that fails after it is no failure. */
  readonly closed: boolean;
  /** Drops the connection: the server sees the client go away (its response's `close`). */
  close(): void;
}

/**
 * Sends a request to an application's own Node server, inside the process: the request gets a
 * connection in memory that the server accepts as it accepts a socket (its `connection` event), so
 * Express or Fastify run their whole pipeline (middleware, hooks, guards, filters) on a real
 * `IncomingMessage`, and the answer streams back as it is written. No port, no socket.
 * @param server the application's HTTP server (`app.getHttpServer()`); it need not listen.
 * @returns once the answer's head arrived; rejects when no answer comes.
 */
export function sendInProcess(server: Server, request: InProcessRequest): Promise<HttpReply> {
  const { method, path, headers, body, trusted, signal } = request;
  return new Promise<HttpReply>((resolve, reject) => {
    let socket: Socket | undefined;
    if (signal?.aborted) return reject(signal.reason as Error);
    const outgoing = httpRequest(
      {
        method,
        path,
        headers: {
          host: 'localhost',
          ...headers,
          ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
        },
        createConnection: () => {
          const { client, server: accepted } = memoryConnection(trusted);
          server.emit('connection', accepted);
          socket = client as Socket;
          return socket;
        },
      },
      (incoming) => {
        let closed = false;
        resolve({
          status: incoming.statusCode ?? 0,
          headers: incoming.headers,
          body: incoming,
          get closed() {
            return closed;
          },
          close() {
            closed = true;
            incoming.destroy();
            socket?.destroy();
          },
        });
      },
    );
    outgoing.once('error', reject);
    if (signal) {
      const drop = (): void => {
        outgoing.destroy(signal.reason as Error);
        socket?.destroy();
      };
      signal.addEventListener('abort', drop, { once: true });
      outgoing.once('close', () => signal.removeEventListener('abort', drop));
    }
    outgoing.end(body);
  });
}
