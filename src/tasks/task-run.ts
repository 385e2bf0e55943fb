import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import type { CallChannel } from '../execution/call-channel.js';
import type { TaskInputPort } from '../execution/message-context.js';
import { ErrorCode } from '../protocol/json-rpc.errors.js';
import type { JsonRpcMessage, JsonRpcParams } from '../protocol/json-rpc.types.js';
import { Method } from '../protocol/methods.js';
import type { InputRequest } from '../protocol/mcp.types.js';
import { CallAbort } from '../session/call-abort.js';
import { admitInput, UNBOUNDED_INPUTS, type TaskInputBounds } from './task-input-bounds.js';

/** The default key of a request to the client: its kind and its place among the task's unkeyed asks. */
const KEY_PREFIX: Readonly<Record<string, string>> = {
  [Method.ElicitationCreate]: 'elicitation',
  [Method.SamplingCreateMessage]: 'sampling',
  [Method.RootsList]: 'roots',
};

/** What a run tells the service, which keeps the task's record. */
export interface TaskRunEvents {
  /** The requests the task waits for the client to answer changed (none: it works again). */
  inputRequestsChanged(requests: Readonly<Record<string, InputRequest>>): void;
  /** The handler reported progress: the task's `statusMessage`. */
  statusMessage(message: string): void;
  /**
   * A message of the handler (progress, a log message) for a client that takes them on a stream
   * of its own (2025-11-25); none for 2026-07-28 tasks.
   * @returns whether it went out.
   */
  relay?(message: JsonRpcMessage): boolean;
}

interface PendingInput {
  readonly request: InputRequest;
  readonly chars: number;
  readonly problemOf: (answer: unknown) => string | undefined;
  readonly resolve: (answer: unknown) => void;
  readonly reject: (reason: unknown) => void;
}

/**
 * A task running in this process: what aborts its call, the requests its handler waits for the
 * client to answer, and the channel its progress goes to (the request's stream is gone).
 */
export class TaskRun implements TaskInputPort, CallChannel {
  readonly abort = new CallAbort();
  private readonly pending = new Map<string, PendingInput>();
  /** Every key asked over the task's life: a key is never reused (SEP-2663). */
  private readonly keys = new Set<string>();
  private ordinal = 0;
  private pendingChars = 0;

  /**
   * @param carried answers the request that made the task carried (its handler asked before
   *   `ctx.startTask()`): the same asks, made again in the task, are answered from them at once.
   * @param bounds what the pending inputs may hold: they wait in the task's record until the client
   *   answers, as messages wait in a session's outbox, so the outbox's limits bound them.
   */
  constructor(
    private readonly events: TaskRunEvents,
    private readonly carried: Readonly<Record<string, unknown>> = {},
    private readonly bounds: TaskInputBounds = UNBOUNDED_INPUTS,
  ) {
    this.abort.onAbort(() => {
      const reason = this.abort.reason;
      for (const input of this.pending.values()) input.reject(reason);
      this.pending.clear();
      this.pendingChars = 0;
    });
  }

  ask(
    method: string,
    params: JsonRpcParams,
    key: string | undefined,
    problemOf: (answer: unknown) => string | undefined,
  ): Promise<unknown> {
    if (this.abort.aborted) return Promise.reject(this.abort.reason);
    let id = key;
    if (id === undefined) {
      do id = `${KEY_PREFIX[method] ?? 'input'}-${++this.ordinal}`;
      while (this.keys.has(id));
    }
    if (this.keys.has(id)) {
      return Promise.reject(
        new TypeError(`The input key "${id}" was asked before in this task; keys are never reused`),
      );
    }
    this.keys.add(id);
    if (Object.hasOwn(this.carried, id)) {
      const answer = this.carried[id];
      const problem = problemOf(answer);
      return problem === undefined
        ? Promise.resolve(answer)
        : Promise.reject(
            new McpClientRequestError(
              `The answer to input "${id}" (${method}) is malformed: ${problem}`,
              ErrorCode.InvalidParams,
            ),
          );
    }
    const chars = admitInput(id, method, params, { count: this.pending.size, chars: this.pendingChars }, this.bounds);
    if (chars instanceof McpClientRequestError) return Promise.reject(chars);
    this.pendingChars += chars;
    const asked = new Promise<unknown>((resolve, reject) => {
      this.pending.set(id, { request: { method, params }, chars, problemOf, resolve, reject });
    });
    this.events.inputRequestsChanged(this.requests());
    return asked;
  }

  /**
   * The client's answers (`tasks/update`): each one that answers a pending request settles it;
   * answers to unknown or already answered keys are ignored, as the specification allows.
   */
  answer(responses: Readonly<Record<string, unknown>>): void {
    let changed = false;
    for (const [key, answer] of Object.entries(responses)) {
      const input = this.pending.get(key);
      if (!input) continue;
      this.pending.delete(key);
      this.pendingChars -= input.chars;
      changed = true;
      const problem = input.problemOf(answer);
      if (problem === undefined) input.resolve(answer);
      else {
        input.reject(
          new McpClientRequestError(
            `The client answered ${input.request.method} with a malformed result: ${problem}`,
            ErrorCode.InvalidParams,
          ),
        );
      }
    }
    if (changed) this.events.inputRequestsChanged(this.requests());
  }

  /**
   * Progress becomes the task's status message; progress and log messages also go to a client
   * that takes them (2025-11-25).
   */
  send(message: JsonRpcMessage): boolean {
    const relayed = this.events.relay?.(message) ?? false;
    if (!('method' in message) || message.method !== Method.Progress || !message.params) return relayed;
    const {
      progress,
      total,
      message: text,
    } = message.params as { progress?: number; total?: number; message?: unknown };
    const status =
      typeof text === 'string' ? text : total === undefined ? String(progress) : `${String(progress)}/${String(total)}`;
    this.events.statusMessage(status);
    return true;
  }

  closeConnection(): boolean {
    return false;
  }

  private requests(): Record<string, InputRequest> {
    return Object.fromEntries([...this.pending].map(([key, input]) => [key, input.request]));
  }
}
