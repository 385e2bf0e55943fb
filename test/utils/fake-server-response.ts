import { EventEmitter } from 'node:events';
import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';

/**
 * A ServerResponse stand-in that keeps Node's contract: headers once, nothing after `end`; `write`
 * buffers and returns false (setting `writableNeedDrain`) once `highWaterMark` bytes wait for the
 * socket; `drainSocket()` empties the buffer and emits 'drain'; `destroy()` is the client going away.
 */
export class FakeServerResponse extends EventEmitter {
  statusCode = 0;
  headers: OutgoingHttpHeaders = {};
  headersSent = false;
  flushed = false;
  writableEnded = false;
  destroyed = false;
  writableNeedDrain = false;
  readonly chunks: string[] = [];
  endCalls = 0;
  private buffered = 0;

  /** @param highWaterMark bytes the socket buffers before `write` asks to wait; unbounded unless given. */
  constructor(public highWaterMark = Number.POSITIVE_INFINITY) {
    super();
  }

  writeHead(status: number, headers: OutgoingHttpHeaders = {}): this {
    if (this.headersSent) throw new Error('ERR_HTTP_HEADERS_SENT');
    this.statusCode = status;
    this.headers = { ...headers };
    this.headersSent = true;
    return this;
  }

  flushHeaders(): void {
    if (!this.headersSent) this.writeHead(200);
    this.flushed = true;
  }

  write(chunk: string): boolean {
    if (this.writableEnded) throw new Error('ERR_STREAM_WRITE_AFTER_END');
    if (this.destroyed) throw new Error('ERR_STREAM_DESTROYED');
    if (!this.headersSent) this.writeHead(200);
    this.chunks.push(chunk);
    this.buffered += Buffer.byteLength(chunk);
    this.writableNeedDrain = this.buffered >= this.highWaterMark;
    return !this.writableNeedDrain;
  }

  end(chunk?: string): this {
    if (this.writableEnded) throw new Error('end() called twice');
    if (chunk !== undefined) this.write(chunk);
    this.writableEnded = true;
    this.endCalls++;
    return this;
  }

  /** The socket took everything buffered; `emit: false` leaves the 'drain' event for later. */
  drainSocket(emit = true): void {
    this.buffered = 0;
    if (this.writableNeedDrain && emit) {
      this.writableNeedDrain = false;
      this.emit('drain');
    }
  }

  /** The client went away. */
  destroy(): void {
    this.destroyed = true;
    this.emit('close');
  }

  /** Everything written, headers excluded. */
  get body(): string {
    return this.chunks.join('');
  }
}

/** `fake`, typed as what the code under test takes. */
export function asServerResponse(fake: FakeServerResponse): ServerResponse {
  return fake as unknown as ServerResponse;
}
