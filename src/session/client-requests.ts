import { ErrorCode } from '../protocol/json-rpc.errors.js';
import { notificationMessage, requestMessage } from '../protocol/json-rpc.codec.js';
import type { JsonRpcMessage, JsonRpcParams, JsonRpcResponse, RequestId } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import { McpClientRequestError } from '../errors/mcp-client-request.error.js';

/** How one server-to-client request travels and how long it may wait. */
export interface ClientRequestOptions {
  /** Puts a message on the stream the request belongs to; false when it could not be. */
  readonly send: (message: JsonRpcMessage) => boolean;
  readonly timeoutMs: number;
  /** Gives up (and tells the client) when it aborts: the call that asked was cancelled. */
  readonly signal?: AbortSignal;
}

interface Waiting {
  readonly resolve: (result: unknown) => void;
  readonly reject: (error: unknown) => void;
  readonly settle: () => void;
}

/**
 * The requests a session sent its client (elicitation, sampling, roots) and that wait for an
 * answer, by id. Answers the client POSTs back are matched here; an answer nobody waits for is
 * ignored. A request that waits too long, or whose asking call is cancelled, is withdrawn with
 * `notifications/cancelled`, as the specification asks.
 */
export class ClientRequests {
  private nextId = 0;
  private readonly waiting = new Map<RequestId, Waiting>();

  /**
   * @param idPrefix starts every id; with shared state it names this instance, so that an answer
   *   POSTed to another instance finds its way back here.
   * @param maxWaiting requests that may wait at once (`limits.outboxMessages`): each holds a timer
   *   and its caller's continuation, and a handler asking in a loop would otherwise hold any number.
   *   The requests' bytes are the outbox's (bounded in characters there) until delivered, then gone.
   */
  constructor(
    private readonly idPrefix = 'mcp42-',
    private readonly maxWaiting = Infinity,
  ) {}

  /** Requests waiting for an answer. */
  get size(): number {
    return this.waiting.size;
  }

  /** Sends a request and resolves with the client's `result`. */
  request(method: string, params: JsonRpcParams, options: ClientRequestOptions): Promise<unknown> {
    const { signal } = options;
    if (signal?.aborted) return Promise.reject(signal.reason);
    // Nothing of the waiting ones can be dropped (each has a caller awaiting it): the new one is refused.
    if (this.waiting.size >= this.maxWaiting) {
      return Promise.reject(
        new McpClientRequestError(
          `${method} was not sent: ${this.waiting.size} requests to the client wait for answers already ` +
            '(limits.outboxMessages)',
          ErrorCode.ServerError,
        ),
      );
    }
    const id = `${this.idPrefix}${++this.nextId}`;
    return new Promise<unknown>((resolve, reject) => {
      const withdraw = (reason: string): void => {
        if (!this.waiting.has(id)) return;
        settle();
        trySend(notificationMessage(Method.Cancelled, { requestId: id, reason }));
      };
      const trySend = (message: JsonRpcMessage): boolean => {
        try {
          return options.send(message);
        } catch {
          return false;
        }
      };
      const onAbort = (): void => {
        withdraw('the call that sent this request was cancelled');
        reject(signal!.reason);
      };
      const timer = setTimeout(() => {
        withdraw(`no answer within ${options.timeoutMs} ms`);
        reject(
          new McpClientRequestError(
            `The client did not answer ${method} within ${options.timeoutMs} ms`,
            ErrorCode.RequestTimeout,
          ),
        );
      }, options.timeoutMs);
      timer.unref();
      const settle = (): void => {
        this.waiting.delete(id);
        clearTimeout(timer);
        signal?.removeEventListener('abort', onAbort);
      };
      this.waiting.set(id, { resolve, reject, settle });
      signal?.addEventListener('abort', onAbort, { once: true });
      if (!trySend(requestMessage(id, method, params))) {
        settle();
        reject(new McpClientRequestError(`${method} could not be sent: the session is closed`, ErrorCode.ServerError));
      }
    });
  }

  /**
   * Hands the client's answer to the request waiting for it.
   * @returns false when no request waits for that id (answered already, withdrawn, or never sent).
   */
  settle(response: JsonRpcResponse): boolean {
    if (response.id === null) return false;
    const waiting = this.waiting.get(response.id);
    if (!waiting) return false;
    waiting.settle();
    if ('result' in response) {
      waiting.resolve(response.result);
    } else {
      const { code, message, data } = response.error;
      waiting.reject(new McpClientRequestError(`The client refused the request: ${message}`, code, data));
    }
    return true;
  }

  /** Fails every waiting request: the session ended. */
  rejectAll(error: Error): void {
    for (const waiting of [...this.waiting.values()]) {
      waiting.settle();
      waiting.reject(error);
    }
  }
}
