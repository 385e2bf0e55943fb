import { Duplex } from 'node:stream';
import { IN_PROCESS_CONNECTION } from '../http/door/in-process-connection.js';

/**
 * One end of a connection that exists only in memory: what one end writes, the other reads. It
 * stands in for a `net.Socket` under Node's own HTTP client and server, so a request made over it
 * is parsed, routed and answered exactly as one from the network, with no port and no socket.
 */
class MemorySocket extends Duplex {
  peer: MemorySocket | undefined;
  // What Node's HTTP server and the frameworks read of a socket: a loopback peer.
  readonly remoteAddress = '127.0.0.1';
  readonly remoteFamily = 'IPv4';
  readonly remotePort = 0;
  readonly localAddress = '127.0.0.1';
  readonly localPort = 0;

  override _read(): void {
    // Data arrives when the peer writes it (`push` from the peer's `_write`).
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    if (this.peer && !this.peer.destroyed) this.peer.push(chunk);
    callback();
  }

  override _final(callback: (error?: Error | null) => void): void {
    if (this.peer && !this.peer.destroyed) this.peer.push(null);
    callback();
  }

  /** A connection dropped at one end is dropped at the other: that is how the server sees a client leave. */
  override _destroy(error: Error | null, callback: (error?: Error | null) => void): void {
    const { peer } = this;
    this.peer = undefined;
    if (peer && !peer.destroyed) peer.destroy();
    callback(error);
  }

  // The socket methods Node's HTTP code may call; timeouts and keep-alive mean nothing in memory.
  setTimeout(): this {
    return this;
  }

  setNoDelay(): this {
    return this;
  }

  setKeepAlive(): this {
    return this;
  }

  ref(): this {
    return this;
  }

  unref(): this {
    return this;
  }
}

/**
 * A connection in memory: the client's end, and the server's end marked as opened in process
 * ({@link IN_PROCESS_CONNECTION}), which the endpoint's door reads to skip its Host/Origin check.
 */
export function memoryConnection(): { client: Duplex; server: Duplex } {
  const client = new MemorySocket();
  const server = new MemorySocket();
  client.peer = server;
  server.peer = client;
  Object.defineProperty(server, IN_PROCESS_CONNECTION, { value: true });
  return { client, server };
}
