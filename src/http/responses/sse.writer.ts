import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { encodeMessage } from '../../protocol/json-rpc.codec.js';
import type { JsonRpcMessage } from '../../protocol/json-rpc.types.js';
import { joinedHeaders } from './http-responses.js';

const SSE_HEADERS: OutgoingHttpHeaders = Object.freeze({
  'content-type': 'text/event-stream',
  'cache-control': 'no-cache, no-transform',
  // Tells nginx-style proxies not to buffer the stream.
  'x-accel-buffering': 'no',
});

const KEEP_ALIVE = ': keep-alive\n\n';

/** How long an ended stream waits for a stalled client to take its last events before it is cut. */
const END_DRAIN_TIMEOUT_MS = 5_000;

/**
 * Writes JSON-RPC messages as Server-Sent Events on a Node response, with keep-alive comments on a
 * timer and respect for the socket's backpressure: while the connection cannot take more, messages
 * wait here, counted by {@link pending}, and go out on `drain`.
 *
 * Written by hand rather than through Nest's `@Sse()`: MessageEvent cannot express comment lines
 * (keep-alive), and a POST must choose JSON or SSE per request after the handler started.
 */
export class SseWriter {
  /**
   * What waits for `drain`: an event's framing and its data apart, so that a message sent to many
   * sessions is held once, not once per session (its data is one shared string).
   */
  private readonly queue: { readonly head: string; readonly data: string; readonly counted: boolean }[] = [];
  /** Queued events that count against the session's outbox (replays do not: the store bounds them). */
  private counted = 0;
  /** Characters of the counted events' data. */
  private countedChars = 0;
  private drainTimer: NodeJS.Timeout | undefined;
  private keepAlive: NodeJS.Timeout | undefined;
  private ended = false;

  /**
   * @param onPending told how many counted events (and characters of their data) wait because of
   *   backpressure, whenever that changes.
   */
  constructor(
    private readonly res: ServerResponse,
    private readonly keepAliveMs: number,
    private readonly onPending?: (count: number, chars: number) => void,
  ) {}

  /** Events waiting for the connection to drain. */
  get pending(): number {
    return this.queue.length;
  }

  /** Whether the stream can no longer be written to (ended here, or closed by the client). */
  get closed(): boolean {
    return this.ended || this.res.destroyed || this.res.writableEnded;
  }

  /**
   * Sends the status line and headers, and starts the keep-alive timer.
   * @returns false when the connection is already gone (nothing is started then).
   */
  open(headers?: OutgoingHttpHeaders): boolean {
    if (this.closed || this.res.headersSent) return false;
    this.res.writeHead(200, joinedHeaders(SSE_HEADERS, headers));
    this.res.flushHeaders();
    this.res.on('drain', this.flush);
    this.res.once('close', this.stop);
    if (this.keepAliveMs > 0) {
      this.keepAlive = setInterval(this.ping, this.keepAliveMs);
      this.keepAlive.unref();
    }
    return true;
  }

  /**
   * Sends one message as a `message` event.
   * @returns false when the message cannot be serialised (it is dropped).
   */
  send(message: JsonRpcMessage): boolean {
    let json: string | undefined;
    try {
      json = encodeMessage(message);
    } catch {
      return false;
    }
    if (typeof json !== 'string') return false;
    this.sendEncoded(json);
    return true;
  }

  /**
   * Sends one already serialised message as a `message` event.
   * @param id the event id a client resumes from with `Last-Event-ID`.
   * @param counted whether, held back by backpressure, it counts against the session's outbox
   *   (a replay from the event store does not: the store bounds it already).
   */
  sendEncoded(json: string, id?: string, counted = true): void {
    this.writeEvent(id === undefined ? 'event: message\ndata: ' : `id: ${id}\nevent: message\ndata: `, json, counted);
  }

  /**
   * Sends a priming event: an id and empty data, which gives the client a point to resume from
   * before any message (SSE polling, 2025-11-25). Older clients take empty data for a broken
   * message; the caller sends it only to newer ones.
   */
  prime(id: string): void {
    this.writeEvent(`id: ${id}\ndata: `, '', false);
  }

  /** Tells the client how long to wait before reconnecting (milliseconds), ahead of a close on purpose. */
  retry(ms: number): void {
    this.writeEvent(`retry: ${Math.max(0, Math.floor(ms))}`, '', false);
  }

  /**
   * Ends the stream once queued events are out. A client that stopped reading gets
   * {@link END_DRAIN_TIMEOUT_MS} to take them, then its connection is cut.
   */
  end(): void {
    if (this.ended) return;
    this.ended = true;
    this.clearTimer();
    if (this.res.destroyed || this.res.writableEnded) return;
    // Read before ending: an ended response no longer reports that its socket is full.
    const stalled = this.queue.length > 0 || this.res.writableNeedDrain;
    if (this.queue.length === 0) this.res.end();
    if (!stalled) return;
    this.drainTimer = setTimeout(() => {
      if (!this.res.writableFinished) this.res.destroy();
    }, END_DRAIN_TIMEOUT_MS);
    this.drainTimer.unref();
  }

  /**
   * Drops what waits for `drain` and closes the connection at once: the client stopped reading,
   * and what it would be sent costs the server more than it may hold.
   */
  abandon(): void {
    this.stop();
    this.res.destroy();
  }

  /**
   * Writes `head` + `data` and the blank line that ends an event, or queues them while the
   * connection cannot take more: queued, the data stays the string it was given.
   */
  private writeEvent(head: string, data: string, counted: boolean): void {
    if (this.res.destroyed || this.res.writableEnded) return;
    if (this.queue.length > 0 || this.res.writableNeedDrain) {
      this.queue.push({ head, data, counted });
      if (counted) {
        this.counted++;
        this.countedChars += data.length;
        this.onPending?.(this.counted, this.countedChars);
      }
      return;
    }
    this.res.write(`${head}${data}\n\n`);
  }

  /** A keep-alive is only worth sending on an idle connection: a backed-up one is not idle. */
  private readonly ping = (): void => {
    if (this.queue.length === 0 && !this.res.writableNeedDrain && !this.res.destroyed && !this.res.writableEnded) {
      this.res.write(KEEP_ALIVE);
    }
  };

  private readonly flush = (): void => {
    const before = this.counted;
    while (this.queue.length > 0 && !this.res.writableNeedDrain && !this.res.destroyed) {
      const { head, data, counted } = this.queue.shift()!;
      if (counted) {
        this.counted--;
        this.countedChars -= data.length;
      }
      this.res.write(`${head}${data}\n\n`);
    }
    if (this.counted !== before) this.onPending?.(this.counted, this.countedChars);
    if (this.ended && this.queue.length === 0 && !this.res.writableEnded) this.res.end();
  };

  private readonly stop = (): void => {
    this.ended = true;
    if (this.drainTimer) clearTimeout(this.drainTimer);
    if (this.queue.length > 0) {
      this.queue.length = 0;
      this.counted = 0;
      this.countedChars = 0;
      // What was held back is gone with the connection: it no longer counts against the outbox.
      this.onPending?.(0, 0);
    }
    this.clearTimer();
    this.res.off('drain', this.flush);
  };

  private clearTimer(): void {
    if (this.keepAlive) clearInterval(this.keepAlive);
    this.keepAlive = undefined;
  }
}
