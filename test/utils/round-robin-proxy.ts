import {
  createServer,
  request as httpRequest,
  type IncomingMessage,
  type Server,
  type ServerResponse,
} from 'node:http';
import type { AddressInfo, Socket } from 'node:net';

/**
 * A small round-robin HTTP proxy on loopback, standing for the load balancer in front of several
 * replicas: each request goes to the next target in turn, whatever it is (a session's second request
 * lands on another replica), streamed both ways so SSE responses pass through as they are written.
 * A target that cannot be reached answers 502, as a balancer does for a dead backend.
 */
export class RoundRobinProxy {
  /** The target each request went to, in arrival order. */
  readonly routed: string[] = [];
  private next = 0;
  private readonly sockets = new Set<Socket>();

  private constructor(
    private readonly server: Server,
    private targets: string[],
  ) {
    server.on('connection', (socket) => {
      this.sockets.add(socket);
      socket.once('close', () => this.sockets.delete(socket));
    });
    server.on('request', (req: IncomingMessage, res: ServerResponse) => this.forward(req, res));
  }

  /** Starts a proxy on 127.0.0.1 in front of `targets` (base URLs such as `http://127.0.0.1:3001`). */
  static async start(targets: readonly string[]): Promise<RoundRobinProxy> {
    const proxy = new RoundRobinProxy(createServer(), [...targets]);
    await new Promise<void>((resolve) => proxy.server.listen(0, '127.0.0.1', resolve));
    return proxy;
  }

  /** The proxy's base URL. */
  get url(): string {
    const { port } = this.server.address() as AddressInfo;
    return `http://127.0.0.1:${port}`;
  }

  /** Takes a target out of the rotation (its replica was stopped, and the balancer noticed). */
  remove(target: string): void {
    this.targets = this.targets.filter((candidate) => candidate !== target);
  }

  /** Puts a target into the rotation (a replica that joined). */
  add(target: string): void {
    if (!this.targets.includes(target)) this.targets.push(target);
  }

  /** Stops accepting, and cuts every connection still open. */
  async close(): Promise<void> {
    const closed = new Promise<void>((resolve) => this.server.close(() => resolve()));
    for (const socket of this.sockets) socket.destroy();
    await closed;
  }

  private forward(req: IncomingMessage, res: ServerResponse): void {
    if (this.targets.length === 0) return void res.writeHead(503).end();
    const target = this.targets[this.next++ % this.targets.length]!;
    this.routed.push(target);
    const { hostname, port } = new URL(target);
    const upstream = httpRequest(
      { host: hostname, port, method: req.method, path: req.url, headers: req.headers },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, answer.headers);
        // An SSE response must reach the client as it is written, not when it ends.
        res.flushHeaders();
        answer.pipe(res);
        answer.once('error', () => res.destroy());
      },
    );
    upstream.once('error', () => {
      if (res.headersSent) res.destroy();
      else res.writeHead(502).end();
    });
    // The client going away ends the upstream exchange too, as a balancer's does.
    res.once('close', () => {
      if (!res.writableFinished) upstream.destroy();
    });
    req.pipe(upstream);
  }
}
