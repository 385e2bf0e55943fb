/**
 * The sample's `refresh_forecasts` as a task (`task: 'optional'`): through the official SDK v1
 * client's experimental tasks API (2025-11-25) and a raw 2026-07-28 client declaring the tasks
 * extension, it completes with the result of a plain call, its progress as the status message, and
 * is cancelled on request. `clear_forecast_cache` as a task waits in `input_required` for the
 * user's confirmation (an elicitation inside the task), answered through either era; a task is its
 * principal's alone (the reader's token never sees the admin's tasks).
 */
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { AppModule } from '../../../sample-app/app.module.js';
import { ALL_CAPABILITIES, ModernClient } from '../../utils/modern-client.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';

const WITH_TASKS = { capabilities: { ...ALL_CAPABILITIES, extensions: { 'io.modelcontextprotocol/tasks': {} } } };
const READER = { authorization: 'Bearer reader' };
const ADMIN = { authorization: 'Bearer admin' };

describe('the sample’s refresh_forecasts as a task', () => {
  let running: RunningApp;
  const sdk = useSdkClients();
  const modern = new ModernClient(() => running.mcpUrl).with(READER);
  const admin = new ModernClient(() => running.mcpUrl).with(ADMIN);

  beforeAll(async () => {
    running = await startApp(AppModule.register({ bearerToken: 'reader', adminToken: 'admin' }));
  });
  afterEach(() => {
    modern.closeAll();
    admin.closeAll();
  });
  afterAll(() => running.close());

  it('completes as a 2025-11-25 task with the result of a plain call, its progress as status message', async () => {
    const { client } = await sdk.connect(running.mcpUrl, { headers: READER });
    const plain = await client.callTool({ name: 'refresh_forecasts', arguments: {} });
    const statuses: (string | undefined)[] = [];
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'refresh_forecasts', arguments: {} },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    )) {
      if (message.type === 'taskStatus') statuses.push(message.task.statusMessage);
      else if (message.type === 'result') result = message.result;
      else if (message.type === 'error') throw message.error;
    }
    expect(result).toEqual({
      ...plain,
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: expect.any(String) } },
    });
    expect(statuses.some((status) => status?.startsWith('Refreshing '))).toBe(true);
  });

  it('is listed and cancelled through the SDK client', async () => {
    const { client } = await sdk.connect(running.mcpUrl, { headers: READER });
    const { task } = await client.request(
      { method: 'tools/call', params: { name: 'refresh_forecasts', arguments: {}, task: {} } },
      CreateTaskResultSchema,
    );
    expect((await client.experimental.tasks.listTasks()).tasks.map((listed) => listed.taskId)).toContain(task.taskId);
    expect(await client.experimental.tasks.cancelTask(task.taskId)).toMatchObject({ status: 'cancelled' });
    expect(await client.experimental.tasks.getTask(task.taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('completes as a 2026-07-28 task for a client that declares the extension', async () => {
    const plain = await modern.result('tools/call', { name: 'refresh_forecasts', arguments: {} });
    const created = await modern.result('tools/call', { name: 'refresh_forecasts', arguments: {} }, WITH_TASKS);
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    let task: Record<string, unknown> = {};
    await until(
      async () => {
        task = await modern.result('tasks/get', { taskId: created.taskId }, WITH_TASKS);
        return task.status === 'completed';
      },
      'the refresh task completed',
      10_000,
    );
    const { _meta: _plainMeta, resultType: _plainType, ...plainResult } = plain;
    expect(task.result).toEqual(plainResult);
  });

  /** Polls the 2026-07-28 task until `done` holds for it. */
  async function poll(
    client: ModernClient,
    taskId: unknown,
    done: (task: Record<string, unknown>) => boolean,
  ): Promise<Record<string, unknown>> {
    let task: Record<string, unknown> = {};
    await until(
      async () => {
        task = await client.result('tasks/get', { taskId }, WITH_TASKS);
        return done(task);
      },
      `task ${String(taskId)}`,
      10_000,
    );
    return task;
  }

  it('2026-07-28: waits for the confirmation in input_required, answered with tasks/update; the reader cannot see it', async () => {
    const created = await admin.result('tools/call', { name: 'clear_forecast_cache', arguments: {} }, WITH_TASKS);
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    const waiting = await poll(admin, created.taskId, (task) => task.status !== 'working');
    expect(waiting).toMatchObject({ status: 'input_required' });
    const requests = waiting.inputRequests as Record<string, { method: string; params: { message: string } }>;
    const [[key, request]] = Object.entries(requests) as [string, { method: string; params: { message: string } }][];
    expect(request).toMatchObject({
      method: 'elicitation/create',
      params: { message: expect.stringMatching(/^Delete /) },
    });

    // Another principal: the same words as for a task that does not exist.
    const hidden = await modern.error(200, 'tasks/get', { taskId: created.taskId }, WITH_TASKS);
    expect(hidden).toMatchObject({ code: -32602 });
    expect(await modern.error(200, 'tasks/cancel', { taskId: created.taskId }, WITH_TASKS)).toMatchObject({
      code: -32602,
    });

    await admin.result(
      'tasks/update',
      { taskId: created.taskId, inputResponses: { [key]: { action: 'accept', content: { confirm: true } } } },
      WITH_TASKS,
    );
    const done = await poll(
      admin,
      created.taskId,
      (task) => task.status !== 'input_required' && task.status !== 'working',
    );
    expect(done).toMatchObject({
      status: 'completed',
      result: { content: [{ type: 'text', text: expect.stringMatching(/^Deleted \d+ cached forecast\(s\)$/) }] },
    });
  });

  it('2026-07-28: cancels a refresh task with tasks/cancel', async () => {
    const created = await admin.result('tools/call', { name: 'refresh_forecasts', arguments: {} }, WITH_TASKS);
    expect(await admin.result('tasks/cancel', { taskId: created.taskId }, WITH_TASKS)).not.toHaveProperty('status');
    expect(await admin.result('tasks/get', { taskId: created.taskId }, WITH_TASKS)).toMatchObject({
      status: 'cancelled',
    });
  });

  it('2025-11-25: the SDK v1 client answers the confirmation inside the task; the reader neither lists nor reads it', async () => {
    const asked: unknown[] = [];
    const { client } = await sdk.connect(running.mcpUrl, {
      headers: ADMIN,
      capabilities: { elicitation: {} },
      prepare: (prepared) =>
        prepared.setRequestHandler(ElicitRequestSchema, (request) => {
          asked.push(request.params._meta);
          return { action: 'decline' };
        }),
    });
    let taskId: string | undefined;
    let result: unknown;
    for await (const message of client.experimental.tasks.callToolStream(
      { name: 'clear_forecast_cache', arguments: {} },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    )) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      else if (message.type === 'result') result = message.result;
      else if (message.type === 'error') throw message.error;
    }
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Nothing was deleted' }] });
    expect(asked).toEqual([expect.objectContaining({ 'io.modelcontextprotocol/related-task': { taskId } })]);

    const { client: reader } = await sdk.connect(running.mcpUrl, { headers: READER });
    expect((await reader.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).not.toContain(taskId);
    await expect(reader.experimental.tasks.getTask(taskId!)).rejects.toMatchObject({ code: -32602 });
  });
});
