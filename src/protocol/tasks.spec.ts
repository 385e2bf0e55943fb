import { JsonRpcError } from './json-rpc.errors.js';
import {
  createTaskResult,
  declaresTasksExtension,
  detailedTask,
  legacyTask,
  readTaskAugmentation,
  readTaskId,
  readTaskUpdate,
  TASK_RESULT,
  tasksExtensionRequired,
  type TaskState,
} from './tasks.js';
import { thrownBy } from '../../test/utils/thrown.js';

const BASE: TaskState = {
  taskId: 't-1',
  status: 'working',
  createdAt: Date.UTC(2026, 6, 28, 10, 30),
  lastUpdatedAt: Date.UTC(2026, 6, 28, 10, 31),
  ttlMs: 60_000,
  pollIntervalMs: 1_000,
};

describe('task shapes', () => {
  it('makes a flat CreateTaskResult, branded for resultType "task", with integer ttlMs and pollIntervalMs', () => {
    const result = createTaskResult({ ...BASE, statusMessage: 'Starting' });
    expect(result).toStrictEqual({
      taskId: 't-1',
      status: 'working',
      statusMessage: 'Starting',
      createdAt: '2026-07-28T10:30:00.000Z',
      lastUpdatedAt: '2026-07-28T10:31:00.000Z',
      ttlMs: 60_000,
      pollIntervalMs: 1_000,
    });
    expect((result as { [TASK_RESULT]?: boolean })[TASK_RESULT]).toBe(true);
    // The brand never reaches the wire.
    expect(Object.keys(result)).not.toContain(String(TASK_RESULT));
  });

  it('inlines the result, the error or the input requests in a DetailedTask, by status', () => {
    const result = { content: [{ type: 'text', text: 'done' }] };
    const error = { code: -32603, message: 'Internal error' };
    const inputRequests = { confirm: { method: 'elicitation/create', params: {} } };
    expect(detailedTask({ ...BASE, status: 'completed', result })).toMatchObject({ result });
    expect(detailedTask({ ...BASE, status: 'failed', error })).toMatchObject({ error });
    expect(detailedTask({ ...BASE, status: 'input_required', inputRequests })).toMatchObject({ inputRequests });
    const working = detailedTask({ ...BASE, result, error, inputRequests });
    expect(Object.keys(working)).not.toEqual(expect.arrayContaining(['result']));
    expect(working).not.toHaveProperty('error');
    expect(working).not.toHaveProperty('inputRequests');
  });

  it('names the 2025-11-25 fields ttl and pollInterval', () => {
    expect(legacyTask(BASE)).toStrictEqual({
      taskId: 't-1',
      status: 'working',
      createdAt: '2026-07-28T10:30:00.000Z',
      lastUpdatedAt: '2026-07-28T10:31:00.000Z',
      ttl: 60_000,
      pollInterval: 1_000,
    });
  });
});

describe('task params and capabilities', () => {
  it('sees the extension only under the request’s capabilities.extensions', () => {
    expect(declaresTasksExtension({ extensions: { 'io.modelcontextprotocol/tasks': {} } })).toBe(true);
    expect(declaresTasksExtension({ tasks: {} })).toBe(false);
    expect(declaresTasksExtension({ extensions: 'io.modelcontextprotocol/tasks' })).toBe(false);
    expect(declaresTasksExtension({})).toBe(false);
  });

  it('says which extension a -32021 requires', () => {
    expect(tasksExtensionRequired('tasks/get').toErrorObject()).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { 'io.modelcontextprotocol/tasks': {} } } },
    });
  });

  it.each([undefined, '', 42, 'x'.repeat(257)])('refuses the task id %p with -32602', (taskId) => {
    const error = thrownBy(() => readTaskId({ taskId }));
    expect(error).toBeInstanceOf(JsonRpcError);
    expect(error).toMatchObject({ code: -32602 });
  });

  it('reads tasks/update, whose inputResponses must be an object', () => {
    expect(readTaskUpdate({ taskId: 't', inputResponses: { a: 1 } })).toStrictEqual({
      taskId: 't',
      inputResponses: { a: 1 },
    });
    expect(thrownBy(() => readTaskUpdate({ taskId: 't', inputResponses: [] }))).toMatchObject({ code: -32602 });
  });

  it('reads the 2025-11-25 params.task: none, any ttl, or a whole number of milliseconds', () => {
    expect(readTaskAugmentation({})).toBeUndefined();
    expect(readTaskAugmentation({ task: {} })).toStrictEqual({});
    expect(readTaskAugmentation({ task: { ttl: 5_000 } })).toStrictEqual({ ttlMs: 5_000 });
    for (const task of [true, { ttl: -1 }, { ttl: 1.5 }, { ttl: '10' }]) {
      expect(thrownBy(() => readTaskAugmentation({ task }))).toMatchObject({ code: -32602 });
    }
  });
});
