import type { JsonRpcMessage } from '../protocol/json-rpc.types.js';

/**
 * The way back to the client for messages that belong to the requests of one POST (progress, log
 * messages, server-to-client requests): that POST's response, which switches to SSE for them.
 */
export interface CallChannel {
  /**
   * Sends a message on the POST's stream.
   * @returns false when it cannot go out any more (every response was sent, or the session ended).
   */
  send(message: JsonRpcMessage): boolean;
  /**
   * Sends a message serialised already (one text made once for many streams); a channel without it
   * is sent the parsed message instead.
   * @returns as {@link send}.
   */
  sendEncoded?(data: string): boolean;
  /**
   * Closes the POST's connection on purpose, after a `retry` field: the client reconnects with
   * `Last-Event-ID` and gets what followed (SSE polling). Only for 2025-11-25 sessions and later.
   * @returns false when it did not (older session, or nothing left to send).
   */
  closeConnection(retryMs?: number): boolean;
}
