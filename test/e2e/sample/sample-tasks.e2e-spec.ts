/**
 * The sample's `refresh_forecasts` as a task (`task: 'optional'`): through the official SDK v1
 * client's experimental tasks API (2025-11-25) and a raw 2026-07-28 client declaring the tasks
 * extension, it completes with the result of a plain call, its progress as the status message, and
 * is cancelled on request.
 */
import { CallToolResultSchema, CreateTaskResultSchema } from '@modelcontextprotocol/sdk/types.js';
import { AppModule } from '../../../sample-app/app.module.js';
import { ALL_CAPABILITIES, ModernClient } from '../../utils/modern-client.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';

const WITH_TASKS = { capabilities: { ...ALL_CAPABILITIES, extensions: { 'io.modelcontextprotocol/tasks': {} } } };

describe('the sample’s refresh_forecasts as a task', () => {
  let running: RunningApp;
  const sdk = useSdkClients();
  const modern = new ModernClient(() => running.mcpUrl);

  beforeAll(async () => {
    running = await startApp(AppModule.register());
  });
  afterEach(() => modern.closeAll());
  afterAll(() => running.close());

  it('completes as a 2025-11-25 task with the result of a plain call, its progress as status message', async () => {
    const { client } = await sdk.connect(running.mcpUrl);
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
    const { client } = await sdk.connect(running.mcpUrl);
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
});
