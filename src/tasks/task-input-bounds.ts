import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import { ErrorCode } from '../protocol/json-rpc.errors.js';
import type { JsonRpcParams } from '../protocol/json-rpc.types.js';

/** What a task's pending inputs may hold, in all (`limits.outboxMessages`, `limits.outboxChars`). */
export interface TaskInputBounds {
  readonly messages: number;
  readonly chars: number;
}

export const UNBOUNDED_INPUTS: TaskInputBounds = { messages: Infinity, chars: Infinity };

/** What a task's inputs hold while they wait for the client. */
export interface PendingInputs {
  readonly count: number;
  readonly chars: number;
}

/**
 * The characters of a task's new input request (its params as JSON), or why it is not asked. Each
 * pending input has a handler awaiting it, so none can be dropped: a new one past the bounds is
 * refused (-32000), as a request to the client past `limits.outboxMessages` is outside a task.
 */
export function admitInput(
  id: string,
  method: string,
  params: JsonRpcParams,
  pending: PendingInputs,
  bounds: TaskInputBounds,
): number | McpClientRequestError {
  const chars = sizeOf(params);
  if (chars !== undefined && pending.count < bounds.messages && pending.chars + chars <= bounds.chars) return chars;
  return new McpClientRequestError(
    chars === undefined
      ? `Input "${id}" (${method}) cannot be serialised to JSON`
      : `Input "${id}" (${method}, ${chars} characters) was not asked: the task's ${pending.count} pending ` +
          `inputs hold ${pending.chars} characters, and at most ${bounds.messages} inputs of ` +
          `${bounds.chars} characters may wait (limits.outboxMessages, limits.outboxChars)`,
    ErrorCode.ServerError,
  );
}

/** Characters of `params` as JSON, as they go to the client; undefined when they cannot be serialised. */
function sizeOf(params: JsonRpcParams): number | undefined {
  try {
    return JSON.stringify(params).length;
  } catch {
    return undefined;
  }
}
