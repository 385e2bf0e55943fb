/**
 * A 2025-11-25 task talking to its client after the request that made it was answered: its
 * elicitations reach the client (on the `tasks/result` stream it opened, or the session's
 * standalone stream) with the `io.modelcontextprotocol/related-task` `_meta`, the task waits in
 * `input_required` and works again once answered; its progress (under the client's own token) and
 * log messages carry the same `_meta`; `notifications/tasks/status` tells each status change. The
 * official SDK v1 client's experimental tasks API answers an elicitation inside a task end to end.
 * Then: a session's own tasks end with it, a principal's outlive it; guards run once per task call.
 */
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { CallToolResultSchema, CreateTaskResultSchema, ElicitRequestSchema } from '@modelcontextprotocol/sdk/types.js';
import { McpCallAbortedError, McpSessionRegistry } from '../../../src/index.js';
import { bearer } from '../../fixtures/modern.fixture.js';
import { GuardCount, TaskGates, tasksApp } from '../../fixtures/tasks.fixture.js';
import { httpExchange } from '../../utils/http-exchange.js';
import { openSession } from '../../utils/open-session.js';
import { useSdkClients, type SdkConnection } from '../../utils/sdk-clients.js';
import { HttpStream, type RpcMessage } from '../../utils/sse-reader.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';
import { SessionStore } from '../../internals/index.js';

const RELATED = 'io.modelcontextprotocol/related-task';
const WAIT_MS = 10_000;

describe('Tasks, 2025-11-25: a task talks to its client', () => {
  let running: RunningApp;
  const sdk = useSdkClients();

  beforeAll(async () => {
    running = await startApp(tasksApp({ tasks: { pollIntervalMs: 20 } }, true));
  });
  afterAll(() => running.close());

  /** An SDK v1 client that accepts elicitations (answering `ok: true`) and records every message it receives. */
  async function connect(user: string | undefined, asked: { params: Record<string, unknown> }[] = []) {
    const received: JSONRPCMessage[] = [];
    const connection: SdkConnection = await sdk.connect(running.mcpUrl, {
      headers: user === undefined ? {} : bearer(user),
      capabilities: { elicitation: {} },
      prepare: (client) =>
        client.setRequestHandler(ElicitRequestSchema, (request) => {
          asked.push({ params: request.params as Record<string, unknown> });
          const message = String(request.params.message);
          if (message === 'Who asks?') return { action: 'accept', content: { name: 'bob' } };
          return { action: 'accept', content: { ok: true } };
        }),
    });
    const { transport } = connection;
    const deliver = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage) => {
      received.push(message);
      deliver?.call(transport, message);
    };
    return { ...connection, received };
  }

  it('answers elicitations inside a task with the SDK v1 experimental tasks API (callToolStream)', async () => {
    const asked: { params: Record<string, unknown> }[] = [];
    const { client } = await connect('alice', asked);
    const stream = client.experimental.tasks.callToolStream(
      { name: 'delete_files', arguments: { pattern: '*.tmp' } },
      CallToolResultSchema,
      { task: { ttl: 60_000 } },
    );
    let taskId: string | undefined;
    let result: unknown;
    for await (const message of stream) {
      if (message.type === 'taskCreated') taskId = message.task.taskId;
      else if (message.type === 'result') result = message.result;
      else if (message.type === 'error') throw message.error;
    }
    expect(result).toMatchObject({
      content: [{ type: 'text', text: 'bob deleted *.tmp' }],
      _meta: { [RELATED]: { taskId } },
    });
    expect(asked.map(({ params }) => params.message).sort()).toEqual(['Delete *.tmp?', 'Who asks?']);
    for (const { params } of asked) expect(params._meta).toMatchObject({ [RELATED]: { taskId } });
    expect(await client.experimental.tasks.getTask(taskId!)).toMatchObject({ status: 'completed' });
  });

  it('relates progress, logs and the elicitation to the task, and tells each status change', async () => {
    const { client, transport, received } = await connect('carol');
    await client.setLoggingLevel('info');
    // The session's standalone stream is open: what the task sends has a stream whatever the timing.
    const registry = running.app.get(McpSessionRegistry);
    await until(() => registry.get(transport.sessionId!)?.hasStream === true, 'the standalone stream');
    const created = await client.request(
      {
        method: 'tools/call',
        params: { name: 'ask_later', arguments: { gate: 'p1' }, task: {}, _meta: { progressToken: 'mine' } },
      },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    running.app.get(TaskGates).open('p1');
    const result = await client.experimental.tasks.getTaskResult(taskId, CallToolResultSchema);
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'p1 went on' }], _meta: { [RELATED]: { taskId } } });

    const about = (method: string) =>
      received.filter((message) => 'method' in message && message.method === method) as {
        params: Record<string, unknown>;
      }[];
    await until(
      () => about('notifications/tasks/status').some(({ params }) => params.status === 'completed'),
      'the completed status',
    );
    expect(about('elicitation/create')[0]?.params._meta).toMatchObject({ [RELATED]: { taskId } });
    expect(about('notifications/progress')).toEqual([
      {
        jsonrpc: '2.0',
        method: 'notifications/progress',
        params: { progressToken: 'mine', progress: 1, total: 2, message: 'Asking', _meta: { [RELATED]: { taskId } } },
      },
    ]);
    expect(about('notifications/message')).toContainEqual(
      expect.objectContaining({
        params: expect.objectContaining({ data: 'asking for p1', _meta: { [RELATED]: { taskId } } }),
      }),
    );
    const statuses = about('notifications/tasks/status').map(({ params }) => params);
    for (const status of statuses) {
      expect(status).toMatchObject({ taskId, ttl: expect.any(Number), pollInterval: 20 });
      // The task's id is in the notification: no related-task `_meta` (2025-11-25).
      expect(status).not.toHaveProperty('_meta');
    }
    const order = statuses.map(({ status }) => status).filter((status, i, all) => status !== all[i - 1]);
    expect(order.slice(-3)).toEqual(['input_required', 'working', 'completed']);
  });

  it('holds a request no stream can carry until the client opens tasks/result, and answers it there', async () => {
    // A raw session: no standalone stream, so the elicitation can only go on the tasks/result stream.
    const session = await openSession(running.mcpUrl, {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: {} },
      headers: bearer('dave'),
    });
    const post = (body: object) => httpExchange(running.mcpUrl, 'POST', session.headers, JSON.stringify(body));
    const created = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'ask_later', arguments: { gate: 'h1' }, task: { ttl: 60_000 } },
    });
    const { taskId } = (JSON.parse(created.text) as { result: { task: { taskId: string } } }).result.task;
    running.app.get(TaskGates).open('h1');
    const getTask = async () =>
      (
        JSON.parse((await post({ jsonrpc: '2.0', id: 2, method: 'tasks/get', params: { taskId } })).text) as {
          result: { status: string };
        }
      ).result;
    await until(async () => (await getTask()).status === 'input_required', 'input_required');

    const results = await HttpStream.open(
      running.mcpUrl,
      'POST',
      session.headers,
      JSON.stringify({ jsonrpc: '2.0', id: 3, method: 'tasks/result', params: { taskId } }),
    );
    await results.waitFor((stream) => stream.withMethod('elicitation/create').length > 0, WAIT_MS);
    const [request] = results.withMethod('elicitation/create') as (RpcMessage & { id: string })[];
    expect(request.params).toMatchObject({ message: 'Go on with h1?', _meta: { [RELATED]: { taskId } } });
    const answered = await post({
      jsonrpc: '2.0',
      id: request.id,
      result: { action: 'accept', content: { ok: false } },
    });
    expect(answered.status).toBe(202);
    await results.waitFor((stream) => stream.responses.some((message) => message.id === 3), WAIT_MS);
    const response = results.responses.find((message) => message.id === 3)!;
    expect(response.result).toMatchObject({
      content: [{ type: 'text', text: 'h1 stopped' }],
      _meta: { [RELATED]: { taskId } },
    });
    const statuses = results.withMethod('notifications/tasks/status').map(({ params }) => params?.status);
    expect(statuses).toEqual(expect.arrayContaining(['working', 'completed']));
    expect(await getTask()).toMatchObject({ status: 'completed' });
    results.close();
  });

  it('stops waiting for a tasks/result the client cancelled; the task goes on, and a later tasks/result has it', async () => {
    const session = await openSession(running.mcpUrl, { protocolVersion: '2025-11-25', headers: bearer('erin') });
    const post = (body: object) => httpExchange(running.mcpUrl, 'POST', session.headers, JSON.stringify(body));
    const created = await post({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'guarded_job', arguments: { gate: 'r1' }, task: { ttl: 60_000 } },
    });
    const { taskId } = (JSON.parse(created.text) as { result: { task: { taskId: string } } }).result.task;
    const waiting = post({ jsonrpc: '2.0', id: 2, method: 'tasks/result', params: { taskId } });
    // The server holds it (the task waits at its gate) before the client cancels it.
    await until(
      () => running.app.get(SessionStore).get(session.id)?.isRunning(2) === true,
      'the tasks/result request held',
    );
    const cancelled = await post({
      jsonrpc: '2.0',
      method: 'notifications/cancelled',
      params: { requestId: 2, reason: 'no longer needed' },
    });
    expect(cancelled.status).toBe(202);
    // Its request ends with no answer, while the task still runs.
    const ended = await waiting;
    expect(ended.status).toBe(200);
    expect(ended.text).not.toContain('"result"');
    expect(ended.text).not.toContain('"error"');
    running.app.get(TaskGates).open('r1');
    const result = await post({ jsonrpc: '2.0', id: 3, method: 'tasks/result', params: { taskId } });
    expect(JSON.parse(result.text)).toMatchObject({
      id: 3,
      result: { content: [{ type: 'text', text: 'Job r1 done' }] },
    });
  });

  it('withdraws what a cancelled task asked: notifications/cancelled with the related-task _meta', async () => {
    const asked: { params: Record<string, unknown> }[] = [];
    const received: JSONRPCMessage[] = [];
    const connection = await sdk.connect(running.mcpUrl, {
      headers: bearer('gina'),
      capabilities: { elicitation: {} },
      prepare: (client) =>
        client.setRequestHandler(ElicitRequestSchema, (request) => {
          asked.push({ params: request.params as Record<string, unknown> });
          // The user never answers.
          return new Promise<never>(() => undefined);
        }),
    });
    const { client, transport } = connection;
    const deliver = transport.onmessage;
    transport.onmessage = (message: JSONRPCMessage) => {
      received.push(message);
      deliver?.call(transport, message);
    };
    const registry = running.app.get(McpSessionRegistry);
    await until(() => registry.get(transport.sessionId!)?.hasStream === true, 'the standalone stream');
    const created = await client.request(
      { method: 'tools/call', params: { name: 'ask_later', arguments: { gate: 'c1' }, task: {} } },
      CreateTaskResultSchema,
    );
    const { taskId } = created.task;
    running.app.get(TaskGates).open('c1');
    await until(() => asked.length === 1, 'the elicitation asked');
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'input_required' });
    expect(await client.experimental.tasks.cancelTask(taskId)).toMatchObject({ status: 'cancelled' });
    const withdrawn = () =>
      received.filter((message) => 'method' in message && message.method === 'notifications/cancelled') as {
        params: Record<string, unknown>;
      }[];
    await until(() => withdrawn().length > 0, 'the elicitation withdrawn');
    expect(withdrawn()[0]!.params).toMatchObject({ requestId: expect.anything(), _meta: { [RELATED]: { taskId } } });
    expect(await client.experimental.tasks.getTask(taskId)).toMatchObject({ status: 'cancelled' });
  });

  it('cancels and forgets the tasks of a session without a principal when the session ends', async () => {
    const { client, transport } = await connect(undefined);
    const created = await client.request(
      { method: 'tools/call', params: { name: 'guarded_job', arguments: { gate: 'e1' }, task: {} } },
      CreateTaskResultSchema,
    );
    await transport.terminateSession();
    const gates = running.app.get(TaskGates);
    await until(() => gates.aborted.has('e1'), 'the task’s signal aborted');
    expect(gates.aborted.get('e1')).toBeInstanceOf(McpCallAbortedError);
    expect(gates.aborted.get('e1')).toMatchObject({ kind: 'session-ended' });
    // Nobody can ask for it: a new session sees nothing.
    const { client: next } = await connect(undefined);
    expect((await next.experimental.tasks.listTasks()).tasks).toEqual([]);
    await expect(next.experimental.tasks.getTask(created.task.taskId)).rejects.toMatchObject({ code: -32602 });
  });

  it('cancels the tasks of a session without a principal when the session expires (idle)', async () => {
    // A raw session: no standalone stream, so nothing keeps it from being idle.
    const session = await openSession(running.mcpUrl, { protocolVersion: '2025-11-25' });
    const created = await httpExchange(
      running.mcpUrl,
      'POST',
      session.headers,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'guarded_job', arguments: { gate: 'e3' }, task: {} },
      }),
    );
    expect(JSON.parse(created.text)).toMatchObject({ result: { task: { status: 'working' } } });
    // The sweep, as if the idle timeout had passed.
    expect(running.app.get(SessionStore).sweep(Date.now() + 31 * 60_000)).toBeGreaterThanOrEqual(1);
    const gates = running.app.get(TaskGates);
    await until(() => gates.aborted.has('e3'), 'the task’s signal aborted');
    expect(gates.aborted.get('e3')).toMatchObject({ kind: 'session-ended' });
  });

  it('keeps a principal’s task past the end of the session that made it', async () => {
    const { client, transport } = await connect('erin');
    const created = await client.request(
      { method: 'tools/call', params: { name: 'guarded_job', arguments: { gate: 'e2' }, task: {} } },
      CreateTaskResultSchema,
    );
    await transport.terminateSession();
    const { client: later } = await connect('erin');
    expect((await later.experimental.tasks.listTasks()).tasks.map((task) => task.taskId)).toContain(
      created.task.taskId,
    );
    running.app.get(TaskGates).open('e2');
    const result = await later.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(result).toMatchObject({ content: [{ type: 'text', text: 'Job e2 done' }] });
    expect(running.app.get(TaskGates).aborted.has('e2')).toBe(false);
  });

  it('asks the guards of a tool once per call: a task, a plain call, and a required task refused', async () => {
    const { client } = await connect('frank');
    const count = running.app.get(GuardCount);
    const gates = running.app.get(TaskGates);
    count.calls = 0;
    const created = await client.request(
      { method: 'tools/call', params: { name: 'guarded_job', arguments: { gate: 'g1' }, task: {} } },
      CreateTaskResultSchema,
    );
    gates.open('g1');
    await client.experimental.tasks.getTaskResult(created.task.taskId, CallToolResultSchema);
    expect(count.calls).toBe(1);

    gates.open('g2');
    await client.callTool({ name: 'guarded_job', arguments: { gate: 'g2' } });
    expect(count.calls).toBe(2);

    await expect(client.callTool({ name: 'guarded_batch', arguments: { gate: 'g3' } })).rejects.toMatchObject({
      code: -32601,
    });
    expect(count.calls).toBe(3);
  });
});
