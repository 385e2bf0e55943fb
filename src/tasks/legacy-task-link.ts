import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import type { CallChannel } from '../execution/call-channel.js';
import type { TaskInputPort } from '../execution/message-context.js';
import { notificationMessage } from '../protocol/json-rpc.codec.js';
import { ErrorCode } from '../protocol/json-rpc.errors.js';
import type { JsonRpcMessage, JsonRpcParams } from '../protocol/json-rpc.types.js';
import type { InputRequest } from '../protocol/mcp.types.js';
import { Method } from '../protocol/methods.js';
import { legacyTask, RELATED_TASK_META, type TaskState } from '../protocol/tasks.js';
import type { ClientSession } from '../session/client-session.js';
import { admitInput, type TaskInputBounds } from './task-input-bounds.js';

/** The default key of a request to the client, by kind: keys only tell the task's record what it waits for. */
const KEY_PREFIX: Readonly<Record<string, string>> = {
  [Method.ElicitationCreate]: 'elicitation',
  [Method.SamplingCreateMessage]: 'sampling',
  [Method.RootsList]: 'roots',
};

/** A `tasks/result` request open on the task: its response stream, and the session it came in. */
interface ResultStream {
  readonly channel: CallChannel;
  readonly session: ClientSession;
}

/** What the link tells the service, which keeps the task's record. */
export interface LegacyTaskLinkEvents {
  /** The requests the task waits for the client to answer changed (none: it works again). */
  inputRequestsChanged(requests: Readonly<Record<string, InputRequest>>): void;
}

/**
 * How a 2025-11-25 task reaches its client once the request that made it has its answer: its
 * requests (elicitation, sampling, roots) and its messages (progress, logs, status) go, with the
 * `io.modelcontextprotocol/related-task` `_meta`, on a `tasks/result` stream the client opened for
 * it, else on the session's standalone stream. A request neither can carry waits for the next
 * `tasks/result` (the specification has the client call it on `input_required`); while any request
 * waits for its answer the task is `input_required`, then `working` again.
 */
export class LegacyTaskLink implements TaskInputPort {
  private readonly streams: ResultStream[] = [];
  /** Requests no stream could carry yet: sent on the next `tasks/result` stream. */
  private readonly held = new Set<(stream: ResultStream) => void>();
  /** What the task asked and waits for, with its characters: bounded as a {@link TaskRun}'s inputs are. */
  private readonly pending = new Map<string, { readonly request: InputRequest; readonly chars: number }>();
  private pendingChars = 0;
  private ordinal = 0;

  /**
   * @param session the session that made the task; it may end before the task does (a task of a
   *   principal outlives it), then only a `tasks/result` of another of the principal's sessions reaches the client.
   * @param progressToken the token of the call's progress, if the client asked for it: it stays
   *   valid for the task's life.
   * @param signal aborts with the task's run: what it still asks is withdrawn.
   * @param bounds what the requests waiting for the client may hold (`limits.outboxMessages`,
   *   `limits.outboxChars`): a request no stream carries waits here for the next `tasks/result`.
   */
  constructor(
    readonly taskId: string,
    private readonly session: ClientSession,
    private readonly progressToken: string | number | undefined,
    private readonly timeoutMs: number,
    private readonly signal: AbortSignal,
    private readonly events: LegacyTaskLinkEvents,
    private readonly bounds: TaskInputBounds,
  ) {}

  /**
   * A `tasks/result` for the task is open: messages of the task go on its stream until it closes.
   * @returns what detaches it (its response is sent).
   */
  attach(channel: CallChannel, session: ClientSession): () => void {
    const stream = { channel, session };
    this.streams.push(stream);
    const held = [...this.held];
    this.held.clear();
    for (const send of held) send(stream);
    return () => {
      const at = this.streams.indexOf(stream);
      if (at >= 0) this.streams.splice(at, 1);
    };
  }

  ask(
    method: string,
    params: JsonRpcParams,
    key: string | undefined,
    problemOf: (answer: unknown) => string | undefined,
    timeoutMs = this.timeoutMs,
  ): Promise<unknown> {
    if (this.signal.aborted) return Promise.reject(this.signal.reason);
    let id = key;
    if (id === undefined || this.pending.has(id)) {
      do id = `${KEY_PREFIX[method] ?? 'input'}-${++this.ordinal}`;
      while (this.pending.has(id));
    }
    const inputKey = id;
    const chars = admitInput(id, method, params, { count: this.pending.size, chars: this.pendingChars }, this.bounds);
    if (chars instanceof McpClientRequestError) return Promise.reject(chars);
    this.pending.set(inputKey, { request: { method, params }, chars });
    this.pendingChars += chars;
    this.events.inputRequestsChanged(this.requests());
    const related = this.related(params);
    const sendOn = (session: ClientSession, send: (message: JsonRpcMessage) => boolean): Promise<unknown> =>
      session.requestClient(method, related, {
        // The request carries the `_meta` already; its withdrawal (`notifications/cancelled`) gets it here.
        send: (message) => send('method' in message && !('id' in message) ? this.relatedNotice(message) : message),
        timeoutMs,
        signal: this.signal,
      });
    let asked: Promise<unknown>;
    const streamed = this.liveStream();
    const session = streamed?.session ?? this.session;
    if (streamed || (!session.ended && session.hasStream)) {
      // The answer comes back to the session that carried the request: only its streams may carry it.
      asked = sendOn(session, (message) => this.sendWithin(session, message));
    } else {
      asked = new Promise<unknown>((resolve, reject) => {
        const deliver = (next: ResultStream): void => {
          this.signal.removeEventListener('abort', withdraw);
          sendOn(next.session, (message) => next.channel.send(message)).then(resolve, reject);
        };
        const withdraw = (): void => {
          this.held.delete(deliver);
          reject(this.signal.reason);
        };
        this.held.add(deliver);
        this.signal.addEventListener('abort', withdraw, { once: true });
      });
    }
    return asked
      .then((answer) => {
        const problem = problemOf(answer);
        if (problem !== undefined) {
          throw new McpClientRequestError(
            `The client answered ${method} with a malformed result: ${problem}`,
            ErrorCode.InvalidParams,
          );
        }
        return answer;
      })
      .finally(() => {
        this.pending.delete(inputKey);
        this.pendingChars -= chars;
        if (!this.signal.aborted) this.events.inputRequestsChanged(this.requests());
      });
  }

  /**
   * A message of the task's handler: its progress (under the client's own token, only if it gave
   * one) and its log messages, related to the task.
   * @returns whether it went out.
   */
  relay(message: JsonRpcMessage): boolean {
    if (!('method' in message) || 'id' in message) return false;
    let params: JsonRpcParams = message.params ?? {};
    if (message.method === Method.Progress) {
      if (this.progressToken === undefined) return false;
      params = { ...params, progressToken: this.progressToken };
    } else if (message.method !== Method.LogMessage) {
      return false;
    }
    return this.deliver(notificationMessage(message.method, this.related(params)));
  }

  /** `notifications/tasks/status`: the task as `tasks/get` answers it (its id is there: no related-task `_meta`). */
  statusChanged(task: TaskState): void {
    this.deliver(notificationMessage(Method.TasksStatus, legacyTask(task)));
  }

  /** On the open `tasks/result` stream, else on the session's standalone stream while a client reads it. */
  private deliver(message: JsonRpcMessage): boolean {
    return this.sendWithin(this.liveStream()?.session ?? this.session, message);
  }

  /** The newest `tasks/result` stream whose session is still on. */
  private liveStream(): ResultStream | undefined {
    return this.streams.findLast((stream) => !stream.session.ended);
  }

  /**
   * On a `tasks/result` stream of `session` (the newest first: an older one may have closed), else
   * on its standalone stream while a client reads it (kept there unread, messages would fill the
   * session's outbox).
   */
  private sendWithin(session: ClientSession, message: JsonRpcMessage): boolean {
    for (let at = this.streams.length - 1; at >= 0; at--) {
      const stream = this.streams[at]!;
      if (stream.session === session && stream.channel.send(message)) return true;
    }
    return !session.ended && session.hasStream && session.send(message);
  }

  private relatedNotice(message: JsonRpcMessage & { readonly method: string }): JsonRpcMessage {
    const params = 'params' in message && message.params ? message.params : {};
    return notificationMessage(message.method, this.related(params));
  }

  private related(params: JsonRpcParams): JsonRpcParams {
    const meta = params._meta;
    const base = typeof meta === 'object' && meta !== null ? (meta as Record<string, unknown>) : {};
    return { ...params, _meta: { ...base, [RELATED_TASK_META]: { taskId: this.taskId } } };
  }

  private requests(): Record<string, InputRequest> {
    return Object.fromEntries([...this.pending].map(([key, { request }]) => [key, request]));
  }
}
