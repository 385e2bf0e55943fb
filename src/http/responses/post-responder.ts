import type { OutgoingHttpHeaders, ServerResponse } from 'node:http';
import { encodeMessage, encodeResponseInParts, jsonText, type EncodedResponse } from '../../protocol/json-rpc.codec.js';
import type { JsonRpcMessage, JsonRpcResponse, RequestId } from '../../protocol/json-rpc.types.js';
import type { CallChannel } from '../../execution/call-channel.js';
import type { ClientSession } from '../../session/client-session.js';
import type { SessionStream } from '../../session/session-stream.js';
import { joinedHeaders, writeEncoded } from './http-responses.js';
import type { JsonAnswer } from './scope-challenges.js';
import type { SerializationReports } from '../../dispatch/serialization-reports.js';
import { SseWriter } from './sse.writer.js';
import { pumpToConnection } from './stream-pump.js';

/** Settings a responder takes from the module options. */
export interface PostResponderSettings extends SerializationReports {
  readonly keepAliveMs: number;
  readonly retryMs: number;
  /** The status and headers of a lone response that needs its own (a scope challenge's 403). */
  readonly answerOf?: (response: JsonRpcResponse) => JsonAnswer | undefined;
}

/**
 * Answers one POST that carried requests. While only responses exist it stays JSON: one object for
 * a single message, an array for a batch. The first message sent before the last response (a
 * progress or log notification, a server request) switches it to an SSE stream of the session,
 * which then carries every later message and ends after the last response.
 *
 * The stream outlives its connection: when the client drops it, or the server closes it on purpose
 * (SSE polling), later messages and the responses are kept for a client that resumes with
 * `Last-Event-ID`. A disconnect never cancels the calls.
 */
export class PostResponder implements CallChannel {
  /**
   * Serialised responses waiting for the last one (JSON mode). Made with its first response: an
   * array that starts empty gets room for 17 on its first push, for a POST that owes one.
   */
  private collected: EncodedResponse[] | undefined;
  private stream: SessionStream | undefined;
  private remaining: number;
  /** The status and headers of the JSON answer, when its one response needs its own. */
  private answer: JsonAnswer | undefined;

  /**
   * @param expected how many responses the POST owes (its requests, and its invalid messages).
   * @param batch whether the POST was an array (its JSON answer is then an array too).
   */
  constructor(
    private readonly res: ServerResponse,
    private readonly session: ClientSession,
    expected: number,
    private readonly batch: boolean,
    private readonly headers: OutgoingHttpHeaders,
    private readonly settings: PostResponderSettings,
    private readonly requestIds: readonly RequestId[] = [],
  ) {
    this.remaining = expected;
  }

  /** Whether every owed response went out (or was withheld, for a cancelled request). */
  get done(): boolean {
    return this.remaining === 0;
  }

  /** Whether the POST is answered with an SSE stream. */
  get streaming(): boolean {
    return this.stream !== undefined;
  }

  send(message: JsonRpcMessage): boolean {
    if (this.done || this.session.ended) return false;
    let data: string | undefined;
    try {
      data = encodeMessage(message);
    } catch {
      data = undefined;
    }
    // Checked before switching: a message that cannot go out must not turn a JSON answer into a stream.
    if (typeof data !== 'string') {
      this.settings.onUnserializableMessage?.(message);
      return false;
    }
    const outcome = this.switchToStream().sendEncoded(data);
    return outcome === 'delivered' || outcome === 'stored';
  }

  closeConnection(retryMs = this.settings.retryMs): boolean {
    if (this.done || this.session.ended || !this.session.pollingStreams) return false;
    const stream = this.switchToStream();
    // The connection now may be a resuming GET rather than this POST: the stream tells whichever it is.
    if (!stream.attached) return false;
    stream.detach(retryMs);
    return true;
  }

  /**
   * Sends (or collects, in JSON mode) one response.
   * @param response `undefined` for a request that must go unanswered (the client cancelled it).
   */
  respond(response: JsonRpcResponse | undefined): void {
    if (this.done) return;
    this.remaining--;
    if (response !== undefined) {
      const json = encodeResponseInParts(response, (error) => this.settings.onUnserializable?.(error, response));
      if (this.stream) this.stream.sendEncoded(jsonText(json));
      else {
        if (this.collected === undefined) this.collected = [json];
        else this.collected.push(json);
        // One status cannot answer several requests: a batch's challenge stays a JSON-RPC error in a 200.
        if (!this.batch) this.answer = this.settings.answerOf?.(response);
      }
    }
    if (this.done) this.finish();
  }

  private finish(): void {
    if (this.stream) {
      this.session.streams.closePostStream(this.stream);
      return;
    }
    const { collected } = this;
    if (collected !== undefined && collected.length > 0) {
      const body = this.batch ? `[${collected.map(jsonText).join(',')}]` : collected[0]!;
      const answer = this.answer;
      writeEncoded(
        this.res,
        answer?.status ?? 200,
        body,
        answer ? joinedHeaders(this.headers, answer.headers) : this.headers,
      );
      return;
    }
    // Every request was cancelled: nothing may be said about them, yet a POST of requests must be
    // answered as JSON or SSE. An event stream without events (and without an id to resume from) it is.
    const empty = new SseWriter(this.res, 0);
    if (empty.open(this.headers)) empty.end();
  }

  private switchToStream(): SessionStream {
    if (this.stream) return this.stream;
    const stream = this.session.streams.openPostStream(this.requestIds);
    this.stream = stream;
    const writer: SseWriter = new SseWriter(
      this.res,
      this.settings.keepAliveMs,
      this.session.streams.pendingCounter(() => writer.abandon()),
    );
    if (writer.open(this.headers)) {
      pumpToConnection(stream.attach(undefined, this.session.pollingStreams), writer, this.res, {
        onDelivered: () => this.session.streams.forgetPostStream(stream.id),
        streamFinished: () => stream.finished,
      });
    }
    if (this.collected !== undefined) for (const json of this.collected) stream.sendEncoded(jsonText(json));
    this.collected = undefined;
    return stream;
  }
}
