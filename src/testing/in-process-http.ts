import { request as httpRequest, type IncomingHttpHeaders, type IncomingMessage, type Server } from 'node:http';
import type { Socket } from 'node:net';
import { memoryConnection } from './memory-socket.js';

/** The answer to one HTTP request, as its head arrived; its body is read as it comes. */
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
 * HTTP requests to an application's own Node server, inside the process: each request gets a
 * connection in memory that the server accepts as it accepts a socket (its `connection` event), so
 * Express or Fastify run their whole pipeline (middleware, hooks, guards, filters) on a real
 * `IncomingMessage`, and the answer streams back as it is written.
 */
export class InProcessHttp {
  /**
   * @param server the application's HTTP server (`app.getHttpServer()`); it need not listen.
   * @param path the endpoint's path.
   * @param headers headers every request carries (names lower-cased), under those of the request.
   */
  constructor(
    private readonly server: Server,
    private readonly path: string,
    private readonly headers: Readonly<Record<string, string>>,
  ) {}

  /** Sends a request; resolves once the answer's head arrived, rejects when no answer comes. */
  request(method: string, headers: Readonly<Record<string, string>>, body?: string): Promise<HttpReply> {
    return new Promise<HttpReply>((resolve, reject) => {
      let socket: Socket | undefined;
      const outgoing = httpRequest(
        {
          method,
          path: this.path,
          headers: {
            host: 'localhost',
            ...this.headers,
            ...headers,
            ...(body === undefined ? {} : { 'content-length': String(Buffer.byteLength(body)) }),
          },
          createConnection: () => {
            const { client, server } = memoryConnection();
            this.server.emit('connection', server);
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
      outgoing.end(body);
    });
  }
}
