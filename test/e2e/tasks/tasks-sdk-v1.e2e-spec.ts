/**
 * The experimental tasks of 2025-11-25 against the official SDK v1 client's own tasks API
 * (`client.experimental.tasks`): a call made with `params.task` streams its task's creation,
 * statuses and result; the tasks are listed, read, their results fetched and cancelled; each is
 * its principal's alone; a task-only tool called without `params.task` is refused.
 */
import { CallToolResultSchema, CreateTaskResultSchema, McpError } from '@modelcontextprotocol/sdk/types.js';
import { bearer } from '../../fixtures/modern.fixture.js';
import { TaskGates, tasksApp } from '../../fixtures/tasks.fixture.js';
import { useSdkClients } from '../../utils/sdk-clients.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';

describe('Tasks, 2025-11-25 (official SDK v1 client, experimental tasks API)', () => {
  let running: RunningApp;
  const sdk = useSdkClients();

  beforeAll(async () => {
    running = await startApp(tasksApp({ tasks: { pollIntervalMs: 20 } }));
  });
  afterAll(() => running.close());

  const connect = async (user = 'alice') => (await sdk.connect(running.mcpUrl, { headers: bearer(user) })).client;

  it('declares the tasks capability at initialize and execution.taskSupport on the tools', async () => {
    const client = await connect();
    expect(client.getServerCapabilities()).toMatchObject({
      tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } },
    });
    const { tools } = await client.listTools();
    expect(tools.find((tool) => tool.name === 'nightly_batch')?.execution).toEqual({ taskSupport: 'required' });
  });

  it('streams a task from creation to its result, the same result a plain call gives', async () => {
    const client = await connect();
    const gates = running.app.get(TaskGates);
    const stream = client.experimental.tasks.callToolStream(
      { name: 'build_report', arguments: { gate: 's1' } },
      CallToolResultSchema,
      { task: { ttl: 120_000 } },
    );
    const seen: { type: string; status?: string; statusMessage?: string }[] = [];
    let result: unknown;
    for await (const message of stream) {
      if (message.type === 'taskCreated') {
        seen.push({ type: message.type, status: message.task.status });
        expect(message.task).toMatchObject({ ttl: 120_000, pollInterval: 20 });
      } else if (message.type === 'taskStatus') {
        seen.push({ type: message.type, status: message.task.status, statusMessage: message.task.statusMessage });
        // Let the report finish once the client saw it working.
        gates.open('s1');
      } else if (message.type === 'result') {
        result = message.result;
      } else {
        throw message.error;
      }
    }
    expect(seen[0]).toEqual({ type: 'taskCreated', status: 'working' });
    expect(seen).toContainEqual({ type: 'taskStatus', status: 'working', statusMessage: 'Gathering figures' });
    expect(seen.at(-1)).toMatchObject({ type: 'taskStatus', status: 'completed' });
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Report s1 ready' }] });
    gates.open('s1-plain');
    const plain = await client.callTool({ name: 'build_report', arguments: { gate: 's1-plain' } });
    expect(plain).toEqual({ content: [{ type: 'text', text: 'Report s1-plain ready' }] });
  });

  it('lists, reads, fetches the result of and cancels tasks; a finished task cannot be cancelled', async () => {
    const client = await connect('dora');
    const gates = running.app.get(TaskGates);
    const created = await client.request(
      { method: 'tools/call', params: { name: 'nightly_batch', arguments: { gate: 'l1' }, task: { ttl: 60_000 } } },
      CreateTaskResultSchema,
    );
    const other = await client.request(
      { method: 'tools/call', params: { name: 'build_report', arguments: { gate: 'l2' }, task: {} } },
      CreateTaskResultSchema,
    );
    const { tasks } = await client.experimental.tasks.listTasks();
    expect(tasks.map((task) => task.taskId)).toEqual([created.task.taskId, other.task.taskId]);

    gates.open('l1');
    const result = await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result).toMatchObject({
      content: [{ type: 'text', text: 'Batch l1 done' }],
      _meta: { 'io.modelcontextprotocol/related-task': { taskId: created.task.taskId } },
    });
    expect(await client.experimental.tasks.getTask(created.task.taskId)).toMatchObject({ status: 'completed' });

    const cancelled = await client.experimental.tasks.cancelTask(other.task.taskId);
    expect(cancelled).toMatchObject({ taskId: other.task.taskId, status: 'cancelled' });
    await until(() => gates.aborted.has('l2'), 'the cancelled handler’s signal aborted');
    await expect(client.experimental.tasks.cancelTask(other.task.taskId)).rejects.toMatchObject({ code: -32602 });
  });

  it('keeps a task to its principal: another user’s client neither lists nor reads it', async () => {
    const alice = await connect('erin');
    const created = await alice.request(
      { method: 'tools/call', params: { name: 'build_report', arguments: { gate: 'o1' }, task: {} } },
      CreateTaskResultSchema,
    );
    const mallory = await connect('mallory');
    expect((await mallory.experimental.tasks.listTasks()).tasks).toEqual([]);
    await expect(mallory.experimental.tasks.getTask(created.task.taskId)).rejects.toMatchObject({ code: -32602 });
    await expect(mallory.experimental.tasks.cancelTask(created.task.taskId)).rejects.toMatchObject({ code: -32602 });
    running.app.get(TaskGates).open('o1');
  });

  it('refuses a task-only tool called without params.task (-32601)', async () => {
    const client = await connect();
    const error = await client.callTool({ name: 'nightly_batch', arguments: { gate: 'x' } }).catch((e: unknown) => e);
    expect(error).toBeInstanceOf(McpError);
    expect(error).toMatchObject({ code: -32601 });
  });
});
