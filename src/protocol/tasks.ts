import { isPlainObject } from './json-rpc.codec.js';
import { ErrorCode, invalidParams, JsonRpcError } from './json-rpc.errors.js';
import type { JsonRpcErrorObject, JsonRpcParams } from './json-rpc.types.js';
import type { ClientCapabilities, InputRequest } from './mcp.types.js';

/**
 * The tasks of both eras, as the wire has them: the 2026-07-28 extension `io.modelcontextprotocol/tasks`
 * (SEP-2663: server-directed, `CreateTaskResult` flat with `resultType: "task"`, `tasks/get` inlining
 * the result, `tasks/update` answering input requests) and the experimental tasks of 2025-11-25
 * (SEP-1686: the client asks with `params.task`, `{ task }` answers, `tasks/result` blocks).
 */

/** The identifier of the 2026-07-28 tasks extension, in capabilities and in `-32021` errors. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';

/** The `_meta` key of 2025-11-25 messages related to a task. */
export const RELATED_TASK_META = 'io.modelcontextprotocol/related-task';

/** Whether a tool may, must or must not run as a task (2025-11-25 `execution.taskSupport`). */
export type TaskSupport = 'forbidden' | 'optional' | 'required';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';

/** The statuses a task never leaves. */
export function isTerminalStatus(status: TaskStatus): boolean {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}

/** A task as the server keeps it: what both eras' wire shapes are made of. */
export interface TaskState {
  readonly taskId: string;
  readonly status: TaskStatus;
  readonly statusMessage?: string;
  /** Milliseconds since the epoch. */
  readonly createdAt: number;
  readonly lastUpdatedAt: number;
  /** Milliseconds from creation the task is kept. */
  readonly ttlMs: number;
  readonly pollIntervalMs: number;
  /** The result, once `completed` (a `CallToolResult`, `isError` ones included). */
  readonly result?: Record<string, unknown>;
  /** The JSON-RPC error, once `failed`. */
  readonly error?: JsonRpcErrorObject;
  /** What the task waits for the client to answer, by key, while `input_required`. */
  readonly inputRequests?: Readonly<Record<string, InputRequest>>;
}

/** Marks the `CreateTaskResult` of a 2026-07-28 call: the era sends it with `resultType: "task"`. */
export const TASK_RESULT: unique symbol = Symbol('mcp42:task-result');

/** The `Task` fields common to every shape: ISO timestamps, integer milliseconds. */
function taskFields(task: TaskState): Record<string, unknown> {
  return {
    taskId: task.taskId,
    status: task.status,
    ...(task.statusMessage === undefined ? {} : { statusMessage: task.statusMessage }),
    createdAt: new Date(task.createdAt).toISOString(),
    lastUpdatedAt: new Date(task.lastUpdatedAt).toISOString(),
  };
}

/** 2026-07-28: the `CreateTaskResult` of a call, branded so that the era stamps `resultType: "task"`. */
export function createTaskResult(task: TaskState): Record<string, unknown> {
  const result = { ...taskFields(task), ttlMs: task.ttlMs, pollIntervalMs: task.pollIntervalMs };
  return Object.defineProperty(result, TASK_RESULT, { value: true });
}

/** 2026-07-28: the `DetailedTask` of `tasks/get`, its result, error or input requests inlined. */
export function detailedTask(task: TaskState): Record<string, unknown> {
  const detailed: Record<string, unknown> = {
    ...taskFields(task),
    ttlMs: task.ttlMs,
    pollIntervalMs: task.pollIntervalMs,
  };
  if (task.status === 'completed' && task.result) detailed.result = task.result;
  if (task.status === 'failed' && task.error) detailed.error = task.error;
  if (task.status === 'input_required') detailed.inputRequests = task.inputRequests ?? {};
  return detailed;
}

/** 2025-11-25: the `Task` object (`ttl`, `pollInterval`), as `tasks/get` and `tasks/list` give it. */
export function legacyTask(task: TaskState): Record<string, unknown> {
  return { ...taskFields(task), ttl: task.ttlMs, pollInterval: task.pollIntervalMs };
}

/** Whether the request's client capabilities declare the 2026-07-28 tasks extension. */
export function declaresTasksExtension(capabilities: ClientCapabilities): boolean {
  const { extensions } = capabilities;
  return isPlainObject(extensions) && extensions[TASKS_EXTENSION] !== undefined;
}

/** -32021: serving the request takes a task, and the client did not declare the extension. */
export function tasksExtensionRequired(what: string): JsonRpcError {
  return new JsonRpcError(
    ErrorCode.MissingRequiredClientCapability,
    `${what} needs the ${TASKS_EXTENSION} extension, which the request does not declare`,
    { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
  );
}

/** -32602 for a task that does not exist, expired, or is somebody else's: the same words for all. */
export function unknownTask(taskId: string): JsonRpcError {
  return invalidParams(`Unknown task: ${taskId}`);
}

/** Longest task id accepted: ours are UUIDs, anything far longer is not one of them. */
const MAX_TASK_ID_LENGTH = 256;

/** Reads `params.taskId` of `tasks/get`, `tasks/update`, `tasks/cancel`, `tasks/result`. */
export function readTaskId(params: JsonRpcParams): string {
  const { taskId } = params;
  if (typeof taskId !== 'string' || taskId.length === 0 || taskId.length > MAX_TASK_ID_LENGTH) {
    throw invalidParams('taskId must be a non-empty string');
  }
  return taskId;
}

/** Reads `params.inputResponses` of `tasks/update`. */
export function readTaskUpdate(params: JsonRpcParams): { taskId: string; inputResponses: Record<string, unknown> } {
  const taskId = readTaskId(params);
  const { inputResponses } = params;
  if (!isPlainObject(inputResponses)) throw invalidParams('inputResponses must be an object');
  return { taskId, inputResponses };
}

/**
 * 2025-11-25: the task a client asks for with `params.task` on `tools/call` (its `ttl` a request,
 * the server decides), or `undefined` when it asks for none.
 * @throws JsonRpcError -32602 for a `task` that is not an object, or a `ttl` that is not a whole number.
 */
export function readTaskAugmentation(params: JsonRpcParams): { ttlMs?: number } | undefined {
  const { task } = params;
  if (task === undefined) return undefined;
  if (!isPlainObject(task)) throw invalidParams('task must be an object');
  const { ttl } = task;
  if (ttl === undefined || ttl === null) return {};
  if (typeof ttl !== 'number' || !Number.isInteger(ttl) || ttl < 0) {
    throw invalidParams('task.ttl must be a whole number of milliseconds');
  }
  return { ttlMs: ttl };
}
