import { encodeMessage, encodeResponseInParts, jsonText } from '../protocol/json-rpc.codec.js';
import type { JsonRpcMessage, JsonRpcResponse } from '../protocol/json-rpc.types.js';
import type { SerializationReports } from '../dispatch/serialization-reports.js';

/** Where lines go: stdout as reserved, or any stream with the same `write`. */
export interface LineSink {
  write(chunk: string, callback: (error?: Error | null) => void): boolean;
  readonly stream: Pick<NodeJS.WritableStream, 'once' | 'on' | 'removeListener'>;
}

/** What the output tells the connection. */
export interface OutputHooks extends SerializationReports {
  /** The sink's buffer is full: stop reading input until `drained`. */
  readonly blocked: () => void;
  readonly drained: () => void;
  /** Messages (and their characters) written and not yet flushed changed: past the outbox limits the reader stalled. */
  readonly pending: (count: number, chars: number) => void;
  /** The sink failed (the client closed its end): nothing more can be said. */
  readonly broken: (error: Error) => void;
}

/**
 * The server's side of stdout: every message one JSON line (JSON never holds a raw newline: the
 * encoder escapes those in strings), written in the order sent. When the sink's buffer is full,
 * reading stops until it drains, so a client that does not read makes the server stop reading it
 * rather than buffer without bound; what is written and not yet flushed is counted, in messages
 * and characters, for the outbox limits.
 */
export class StdioOutput {
  private waiting = 0;
  private waitingChars = 0;
  private isBlocked = false;
  private closed = false;
  private readonly onError = (error: Error): void => {
    if (this.closed) return;
    this.closed = true;
    this.hooks.broken(error);
  };

  constructor(
    private readonly sink: LineSink,
    private readonly hooks: OutputHooks,
  ) {
    sink.stream.on('error', this.onError);
  }

  /** Messages written and not yet flushed to the pipe. */
  get pending(): number {
    return this.waiting;
  }

  /** Sends one message (a notification, a request of the server, a message built as a response). */
  send(message: JsonRpcMessage): boolean {
    let line: string | undefined;
    try {
      line = encodeMessage(message);
    } catch {
      line = undefined;
    }
    if (typeof line !== 'string') {
      this.hooks.onUnserializableMessage?.(message);
      return false;
    }
    return this.write(line);
  }

  /** Sends a response: one whose result has no JSON form becomes an internal error for its id. */
  respond(response: JsonRpcResponse): boolean {
    return this.write(
      jsonText(encodeResponseInParts(response, (error) => this.hooks.onUnserializable?.(error, response))),
    );
  }

  /** Sends the responses of a batch, as one array. */
  respondAll(responses: readonly JsonRpcResponse[]): boolean {
    const parts = responses.map((response) =>
      jsonText(encodeResponseInParts(response, (error) => this.hooks.onUnserializable?.(error, response))),
    );
    return this.write(`[${parts.join(',')}]`);
  }

  /** Writes one serialised message as a line. */
  write(line: string): boolean {
    if (this.closed) return false;
    this.waiting++;
    this.waitingChars += line.length;
    const accepted = this.sink.write(`${line}\n`, () => {
      this.waiting--;
      this.waitingChars -= line.length;
      this.hooks.pending(this.waiting, this.waitingChars);
    });
    this.hooks.pending(this.waiting, this.waitingChars);
    if (!accepted && !this.isBlocked) {
      this.isBlocked = true;
      this.hooks.blocked();
      this.sink.stream.once('drain', () => {
        this.isBlocked = false;
        this.hooks.drained();
      });
    }
    return true;
  }

  /** Nothing more is written (the server stops). */
  close(): void {
    this.closed = true;
    this.sink.stream.removeListener('error', this.onError);
  }
}
