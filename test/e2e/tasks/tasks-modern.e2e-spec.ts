/**
 * The 2026-07-28 tasks extension (`io.modelcontextprotocol/tasks`, SEP-2663) on a real Nest app over
 * raw HTTP: a tool declared with `task` answers a request that declares the extension with a task
 * (`CreateTaskResult`), polled with `tasks/get` (progress as its status message, the result
 * inlined), answered with `tasks/update` while its handler waits on `ctx.elicit`, cancelled with
 * `tasks/cancel` (the handler's signal aborts); each task is its principal's alone; caps refuse
 * cleanly. Every message received is checked against the revision's JSON Schema by the modern client.
 */
import { McpCallAbortedError } from '../../../src/index.js';
import { bearer } from '../../fixtures/modern.fixture.js';
import { ImportTools, TaskGates, tasksApp } from '../../fixtures/tasks.fixture.js';
import { useModernApp } from '../../utils/modern-app.js';
import { ALL_CAPABILITIES, type ModernClient } from '../../utils/modern-client.js';
import { until as eventually } from '../../utils/wait.js';

const TASKS = 'io.modelcontextprotocol/tasks';
/** A full client that declares the tasks extension on its requests. */
const WITH_TASKS = { capabilities: { ...ALL_CAPABILITIES, extensions: { [TASKS]: {} } } };
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;

const alice = (client: ModernClient): ModernClient => client.with(bearer('alice'));

async function startTask(client: ModernClient, name: string, args: object): Promise<Record<string, unknown>> {
  return client.result('tools/call', { name, arguments: args }, WITH_TASKS);
}

async function getTask(client: ModernClient, taskId: string): Promise<Record<string, unknown>> {
  return client.result('tasks/get', { taskId }, WITH_TASKS);
}

/** Polls until the task has `status` (or finished); no timing assumed. */
async function until(client: ModernClient, taskId: string, status: string): Promise<Record<string, unknown>> {
  let task: Record<string, unknown> = {};
  await eventually(async () => {
    task = await getTask(client, taskId);
    return task.status === status || ['completed', 'failed', 'cancelled'].includes(task.status as string);
  }, `task ${taskId} ${status}`);
  return task;
}

describe('Tasks, 2026-07-28 extension (raw HTTP)', () => {
  const app = useModernApp(tasksApp({ tasks: { pollIntervalMs: 250, defaultTtlMs: 60_000 } }));

  it('declares the extension in server/discover and the task support of each tool in tools/list', async () => {
    const discovered = await app.client.result('server/discover');
    expect(discovered.capabilities).toMatchObject({ extensions: { [TASKS]: {} } });
    expect(discovered.capabilities).not.toHaveProperty('tasks');
    const { tools } = (await app.client.result('tools/list')) as { tools: { name: string; execution?: unknown }[] };
    expect(Object.fromEntries(tools.map((tool) => [tool.name, tool.execution]))).toEqual({
      build_report: { taskSupport: 'optional' },
      nightly_batch: { taskSupport: 'required' },
      delete_files: { taskSupport: 'optional' },
      import_contacts: { taskSupport: 'required' },
    });
  });

  it('answers with a task, its progress as status message, and completes with what a plain call answers', async () => {
    const client = alice(app.client);
    const created = await startTask(client, 'build_report', { gate: 'r1' });
    expect(created).toMatchObject({
      resultType: 'task',
      taskId: expect.any(String),
      status: 'working',
      ttlMs: 60_000,
      pollIntervalMs: 250,
      createdAt: expect.stringMatching(ISO),
      lastUpdatedAt: expect.stringMatching(ISO),
    });
    expect(created).not.toHaveProperty('requestState');
    const taskId = created.taskId as string;
    // Durably created: a tasks/get right after it resolves.
    const working = await until(client, taskId, 'working');
    await eventually(
      async () => (await getTask(client, taskId)).statusMessage === 'Gathering figures',
      'the progress as status message',
    );
    expect(working).toMatchObject({ resultType: 'complete', taskId, status: 'working' });
    expect(working).not.toHaveProperty('result');

    app.get(TaskGates).open('r1');
    const done = await until(client, taskId, 'completed');
    app.get(TaskGates).open('r1-plain');
    const plain = await client.result('tools/call', { name: 'build_report', arguments: { gate: 'r1-plain' } });
    expect(done).toMatchObject({
      resultType: 'complete',
      status: 'completed',
      result: { content: [{ type: 'text', text: 'Report r1 ready' }] },
    });
    expect(plain).toMatchObject({ resultType: 'complete', content: [{ type: 'text', text: 'Report r1-plain ready' }] });
  });

  it('reports a tool error as completed with isError, and a crash as failed with a JSON-RPC error', async () => {
    const client = alice(app.client);
    const failing = await startTask(client, 'nightly_batch', { gate: 'fail-1' });
    const crashing = await startTask(client, 'nightly_batch', { gate: 'crash-1' });
    app.get(TaskGates).open('fail-1');
    app.get(TaskGates).open('crash-1');
    expect(await until(client, failing.taskId as string, 'completed')).toMatchObject({
      status: 'completed',
      result: { isError: true, content: [{ type: 'text', text: 'Batch fail-1 found no input' }] },
    });
    const crashed = await until(client, crashing.taskId as string, 'failed');
    expect(crashed).toMatchObject({ status: 'failed', error: { code: -32603, message: 'Internal error' } });
    expect(crashed).not.toHaveProperty('result');
  });

  it('waits in input_required for what the handler asks, answered with tasks/update, partial answers kept', async () => {
    const client = alice(app.client);
    const { taskId } = (await startTask(client, 'delete_files', { pattern: '*.tmp' })) as { taskId: string };
    const waiting = await until(client, taskId, 'input_required');
    expect(waiting).toMatchObject({
      status: 'input_required',
      inputRequests: {
        who: { method: 'elicitation/create', params: { message: 'Who asks?' } },
        confirm: { method: 'elicitation/create', params: { message: 'Delete *.tmp?' } },
      },
    });

    const ack = await client.result(
      'tasks/update',
      { taskId, inputResponses: { who: { action: 'accept', content: { name: 'Ann' } }, unknown: {} } },
      WITH_TASKS,
    );
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    const partial = await getTask(client, taskId);
    expect(partial).toMatchObject({ status: 'input_required' });
    expect(Object.keys(partial.inputRequests as object)).toEqual(['confirm']);

    await client.result(
      'tasks/update',
      { taskId, inputResponses: { confirm: { action: 'accept', content: { ok: true } } } },
      WITH_TASKS,
    );
    expect(await until(client, taskId, 'completed')).toMatchObject({
      result: { content: [{ type: 'text', text: 'Ann deleted *.tmp' }] },
    });
  });

  it('asks in the request before a handler-started task, then answers with the task the handler runs again in', async () => {
    const client = alice(app.client);
    const round1 = await client.result('tools/call', { name: 'import_contacts' }, WITH_TASKS);
    expect(round1).toMatchObject({
      resultType: 'input_required',
      inputRequests: { file: { method: 'elicitation/create' } },
    });
    expect(round1).not.toHaveProperty('taskId');
    const round2 = await client.result(
      'tools/call',
      {
        name: 'import_contacts',
        inputResponses: { file: { action: 'accept', content: { file: 'friends.vcf' } } },
        requestState: round1.requestState,
      },
      WITH_TASKS,
    );
    expect(round2).toMatchObject({ resultType: 'task', status: 'working' });
    expect(round2).not.toHaveProperty('requestState');
    expect(await until(client, round2.taskId as string, 'completed')).toMatchObject({
      result: { content: [{ type: 'text', text: 'Imported friends.vcf' }] },
    });
    // Round 1, round 2 up to startTask(), and again in the task.
    expect(app.get(ImportTools).runs).toBe(3);
  });

  it('cancels: the task is cancelled at once, its handler’s signal aborts, a second cancel is acknowledged alike', async () => {
    const client = alice(app.client);
    const { taskId } = (await startTask(client, 'build_report', { gate: 'c1' })) as { taskId: string };
    const ack = await client.result('tasks/cancel', { taskId }, WITH_TASKS);
    expect(Object.keys(ack).sort()).toEqual(['_meta', 'resultType']);
    expect(await getTask(client, taskId)).toMatchObject({ status: 'cancelled' });
    await eventually(() => app.get(TaskGates).aborted.has('c1'), 'the handler’s signal aborted');
    const reason = app.get(TaskGates).aborted.get('c1');
    expect(reason).toBeInstanceOf(McpCallAbortedError);
    expect((reason as McpCallAbortedError).kind).toBe('cancelled');
    expect(await client.result('tasks/cancel', { taskId }, WITH_TASKS)).toEqual(ack);
  });

  it('shows a task to its principal only: another one, or an anonymous caller, is told it does not exist', async () => {
    const { taskId } = (await startTask(alice(app.client), 'build_report', { gate: 'p1' })) as { taskId: string };
    for (const other of [app.client.with(bearer('mallory')), app.client]) {
      for (const [method, params] of [
        ['tasks/get', { taskId }],
        ['tasks/update', { taskId, inputResponses: {} }],
        ['tasks/cancel', { taskId }],
      ] as const) {
        expect(await other.error(200, method, params, WITH_TASKS)).toMatchObject({
          code: -32602,
          message: `Invalid params: Unknown task: ${taskId}`,
        });
      }
    }
    expect(await getTask(alice(app.client), taskId)).toMatchObject({ status: 'working' });
    app.get(TaskGates).open('p1');
  });

  it('without the extension: a plain call for an optional tool, -32021 for a required one and for tasks/*', async () => {
    app.get(TaskGates).open('n1');
    expect(await app.client.result('tools/call', { name: 'build_report', arguments: { gate: 'n1' } })).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'Report n1 ready' }],
    });
    const required = { code: -32021, data: { requiredCapabilities: { extensions: { [TASKS]: {} } } } };
    // The legacy params.task means nothing on this wire.
    expect(
      await app.client.error(400, 'tools/call', { name: 'nightly_batch', arguments: { gate: 'n2' }, task: { ttl: 1 } }),
    ).toMatchObject(required);
    expect(await app.client.error(400, 'tasks/get', { taskId: 'x' })).toMatchObject(required);
    expect(await app.client.error(404, 'tasks/list', {}, WITH_TASKS)).toMatchObject({ code: -32601 });
    expect(await app.client.error(404, 'tasks/result', { taskId: 'x' }, WITH_TASKS)).toMatchObject({ code: -32601 });
  });

  it('refuses a task past its Mcp-Name header (-32020) and an unknown task id (-32602)', async () => {
    const client = alice(app.client);
    expect(await client.error(200, 'tasks/get', { taskId: 'no-such-task' }, WITH_TASKS)).toMatchObject({
      code: -32602,
    });
    expect(
      await client.error(400, 'tasks/get', { taskId: 'a' }, { ...WITH_TASKS, headers: { 'Mcp-Name': 'b' } }),
    ).toMatchObject({ code: -32020 });
  });
});

describe('Tasks, 2026-07-28 extension: caps', () => {
  const app = useModernApp(tasksApp({ tasks: { maxPerPrincipal: 1, maxTasks: 3 } }));

  it('refuses a task past tasks.maxPerPrincipal with an error naming it, and accepts once one finishes', async () => {
    const client = alice(app.client);
    const first = (await startTask(client, 'build_report', { gate: 'cap-1' })) as { taskId: string };
    expect(
      await client.error(200, 'tools/call', { name: 'build_report', arguments: { gate: 'cap-2' } }, WITH_TASKS),
    ).toMatchObject({ code: -32000, message: expect.stringContaining('tasks.maxPerPrincipal = 1') });
    // Another principal has its own allowance.
    expect(await startTask(app.client.with(bearer('bob')), 'build_report', { gate: 'cap-b' })).toMatchObject({
      resultType: 'task',
    });
    app.get(TaskGates).open('cap-1');
    await until(client, first.taskId, 'completed');
    expect(await startTask(client, 'build_report', { gate: 'cap-3' })).toMatchObject({ resultType: 'task' });
  });

  it('refuses a task past tasks.maxTasks, finished ones counted until their TTL', async () => {
    // Three kept already (cap-1 finished, cap-b, cap-3): the server is full for everyone.
    expect(
      await app.client
        .with(bearer('carol'))
        .error(200, 'tools/call', { name: 'build_report', arguments: { gate: 'cap-c' } }, WITH_TASKS),
    ).toMatchObject({ code: -32000, message: expect.stringContaining('tasks.maxTasks = 3') });
    app.get(TaskGates).open('cap-b');
    app.get(TaskGates).open('cap-3');
  });
});

describe('Tasks, 2026-07-28 extension: notifications/tasks on subscriptions/listen', () => {
  const app = useModernApp(tasksApp({ tasks: { pollIntervalMs: 250, defaultTtlMs: 60_000 } }));

  it('sends notifications/tasks on subscriptions/listen for the caller’s own tasks', async () => {
    const client = alice(app.client);
    const { taskId } = (await startTask(client, 'delete_files', { pattern: '*.log' })) as { taskId: string };
    await until(client, taskId, 'input_required');
    const stream = await client.open(
      'subscriptions/listen',
      { notifications: { taskIds: [taskId, 'no-such-task'] } },
      WITH_TASKS,
    );
    const ack = await stream.nextMessage((message) => message.method === 'notifications/subscriptions/acknowledged');
    expect(ack.params).toMatchObject({ notifications: { taskIds: [taskId] } });
    // The task's state as it is now comes first: what tasks/get would answer.
    const now = await stream.nextMessage((message) => message.method === 'notifications/tasks');
    expect(now.params).toMatchObject({
      taskId,
      status: 'input_required',
      inputRequests: { who: { method: 'elicitation/create' }, confirm: { method: 'elicitation/create' } },
      _meta: { 'io.modelcontextprotocol/subscriptionId': stream.id },
    });

    // Another principal's listen is not told of it.
    const other = await client
      .with(bearer('bob'))
      .open('subscriptions/listen', { notifications: { taskIds: [taskId] } }, WITH_TASKS);
    const otherAck = await other.nextMessage(
      (message) => message.method === 'notifications/subscriptions/acknowledged',
    );
    expect(otherAck.params).toMatchObject({ notifications: {} });
    expect(otherAck.params?.notifications).not.toHaveProperty('taskIds');

    await client.result(
      'tasks/update',
      {
        taskId,
        inputResponses: {
          who: { action: 'accept', content: { name: 'Cy' } },
          confirm: { action: 'accept', content: { ok: false } },
        },
      },
      WITH_TASKS,
    );
    const done = await stream.nextMessage(
      (message) => message.method === 'notifications/tasks' && message.params?.status === 'completed',
      10_000,
    );
    expect(done.params).toMatchObject({
      taskId,
      status: 'completed',
      ttlMs: 60_000,
      result: { content: [{ type: 'text', text: 'Cy kept *.log' }] },
    });
    await other.untilEnd();
    expect(other.messages.filter((message) => message.method === 'notifications/tasks')).toEqual([]);
    stream.close();
  });

  it('refuses notifications/tasks on subscriptions/listen to a request that does not declare the extension (-32021)', async () => {
    const client = alice(app.client);
    const error = await client.error(400, 'subscriptions/listen', { notifications: { taskIds: ['any'] } });
    expect(error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS]: {} } } },
    });
  });
});
