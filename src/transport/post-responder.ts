import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { encodeResponse } from '../protocol/json-rpc.codec.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../protocol/json-rpc.types.js';
import { writeJsonText } from './http-responses.js';
import { SseWriter } from './sse.writer.js';

/**
 * Answers one POST that carried requests. While only responses exist it stays JSON: one object for
 * a single message, an array for a batch. The first message sent before the last response (a
 * progress or log notification, a server request) switches it to an SSE stream, which then carries
 * every later message and ends after the last response.
 */
export class PostResponder {
  /** Serialised responses waiting for the last one (JSON mode). */
  private readonly collected: string[] = [];
  private stream: SseWriter | undefined;
  private remaining: number;

  /**
   * @param expected how many responses the POST owes (its requests, and its invalid messages).
   * @param batch whether the POST was an array (its JSON answer is then an array too).
   * @param onUnserializable told when a response could not be serialised (it is answered as an
   *   internal error instead): a server bug worth logging.
   */
  constructor(
    private readonly res: ServerResponse,
    expected: number,
    private readonly batch: boolean,
    private readonly headers: OutgoingHttpHeaders,
    private readonly keepAliveMs: number,
    private readonly onUnserializable?: (error: unknown, response: JsonRpcResponse) => void,
  ) {
    this.remaining = expected;
  }

  /** Whether every owed response went out. */
  get done(): boolean {
    return this.remaining === 0;
  }

  /** Sends a message that belongs to this POST's requests but is not a response. */
  sendRelated(message: JsonRpcMessage): void {
    if (this.done) return;
    this.switchToStream().send(message);
  }

  /** Sends (or collects, in JSON mode) one response. */
  respond(response: JsonRpcResponse): void {
    if (this.done) return;
    this.remaining--;
    const json = encodeResponse(response, (error) => this.onUnserializable?.(error, response));
    if (this.stream) {
      this.stream.sendEncoded(json);
      if (this.done) this.stream.end();
      return;
    }
    this.collected.push(json);
    if (this.done) {
      writeJsonText(this.res, 200, this.batch ? `[${this.collected.join(',')}]` : this.collected[0]!, this.headers);
    }
  }

  private switchToStream(): SseWriter {
    if (!this.stream) {
      this.stream = new SseWriter(this.res, this.keepAliveMs);
      this.stream.open(this.headers);
      for (const json of this.collected) this.stream.sendEncoded(json);
      this.collected.length = 0;
    }
    return this.stream;
  }
}
