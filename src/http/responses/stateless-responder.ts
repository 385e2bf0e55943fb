import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { encodeMessage, encodeResponseInParts, jsonText } from '../../protocol/json-rpc.codec.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../../protocol/json-rpc.types.js';
import type { CallChannel } from '../../execution/call-channel.js';
import { writeEncoded } from './http-responses.js';
import type { SerializationReports } from '../../dispatch/serialization-reports.js';
import { SseWriter } from './sse.writer.js';
import type { BufferBudget } from '../../session/buffer-budget.js';

/** What a stateless responder takes from the module options. */
export interface StatelessResponderSettings extends SerializationReports {
  readonly keepAliveMs: number;
  /** Messages a client that stops reading may leave waiting before its connection is cut. */
  readonly outboxLimit: number;
  /** Characters of messages it may leave waiting before its connection is cut. */
  readonly outboxChars: number;
  /** The server's budget for undelivered messages, and a key for each stream that draws on it. */
  readonly budget?: { readonly of: BufferBudget; readonly nextKey: () => string };
}

/**
 * Answers one stateless (2026-07-28) request: one JSON object, unless the request sends messages
 * before its response (progress, log messages, a `subscriptions/listen` stream), which switch the
 * answer to an SSE stream that the response ends. Nothing is resumable: no event ids, no store. A
 * client that stops reading while more than `limits.outboxMessages` messages (or `limits.outboxChars`
 * characters) wait has its connection cut, as has the one holding the most when the server's
 * budget is spent.
 */
export class StatelessResponder implements CallChannel {
  private writer: SseWriter | undefined;
  private answered = false;

  constructor(
    private readonly res: ServerResponse,
    private readonly settings: StatelessResponderSettings,
  ) {}

  /** Whether the response went out (or was withheld, for a request the client cancelled). */
  get done(): boolean {
    return this.answered;
  }

  send(message: JsonRpcMessage): boolean {
    if (this.answered || this.res.destroyed || this.res.writableEnded) return false;
    let data: string | undefined;
    try {
      data = encodeMessage(message);
    } catch {
      data = undefined;
    }
    if (typeof data !== 'string') {
      this.settings.onUnserializableMessage?.(message);
      return false;
    }
    return this.sendEncoded(data);
  }

  sendEncoded(data: string): boolean {
    if (this.answered || this.res.destroyed || this.res.writableEnded) return false;
    const writer = this.stream();
    if (!writer) return false;
    writer.sendEncoded(data);
    return !writer.closed;
  }

  /** Stateless streams cannot be resumed: there is no closing them on purpose. */
  closeConnection(): boolean {
    return false;
  }

  /**
   * Sends the response (or, for a request that must go unanswered, nothing) and ends the answer.
   * @param status the HTTP status of a JSON answer (a stream has sent its 200 already).
   * @param headers headers of a JSON answer besides the usual ones.
   */
  respond(response: JsonRpcResponse | undefined, status = 200, headers?: OutgoingHttpHeaders): void {
    if (this.answered) return;
    this.answered = true;
    const json =
      response === undefined
        ? undefined
        : encodeResponseInParts(response, (error) => this.settings.onUnserializable?.(error, response));
    if (this.writer) {
      if (json !== undefined) this.writer.sendEncoded(jsonText(json));
      this.writer.end();
      return;
    }
    if (json !== undefined) return writeEncoded(this.res, status, json, headers);
    // Unanswered (cancelled): the client went away; an empty stream ends the exchange for anyone left.
    const empty = new SseWriter(this.res, 0);
    if (empty.open()) empty.end();
  }

  private stream(): SseWriter | undefined {
    if (this.writer) return this.writer.closed ? undefined : this.writer;
    const { outboxLimit, outboxChars, budget } = this.settings;
    const key = budget?.nextKey();
    const cut = (): void => writer.abandon();
    let charged = 0;
    const writer: SseWriter = new SseWriter(this.res, this.settings.keepAliveMs, (pending, chars) => {
      // A reader that stopped reading costs bounded memory: past a limit its connection is cut.
      if (pending > outboxLimit || chars > outboxChars) return cut();
      if (budget && key !== undefined) budget.of.charge(key, chars - charged, cut);
      charged = chars;
    });
    if (!writer.open()) return undefined;
    this.writer = writer;
    return writer;
  }
}
