/**
 * A 2025-11-25 task's requests to its client are bounded as a session's are: past
 * `limits.outboxMessages` requests waiting for the client, or `limits.outboxChars` characters of
 * them, a new one is refused at once with -32000 naming the limits (the handler gets the error, as
 * outside a task), and what was asked before goes on. Here no stream carries them until the client
 * opens `tasks/result`: they wait in the server all that time.
 */
import { bearer } from '../../fixtures/modern.fixture.js';
import { AskingTools, AskRefusals, tasksApp } from '../../fixtures/tasks.fixture.js';
import { httpExchange } from '../../utils/http-exchange.js';
import { openSession, type OpenedSession } from '../../utils/open-session.js';
import { HttpStream, type RpcMessage } from '../../utils/sse-reader.js';
import { startApp, type RunningApp } from '../../utils/start-app.js';
import { until } from '../../utils/wait.js';

const WAIT_MS = 10_000;
const MAX_WAITING = 3;
const MAX_CHARS = 2_000;

describe('Tasks, 2025-11-25: the requests a task waits on are bounded', () => {
  let running: RunningApp;

  beforeAll(async () => {
    const base = tasksApp({
      tasks: { pollIntervalMs: 20 },
      limits: { outboxMessages: MAX_WAITING, outboxChars: MAX_CHARS },
    });
    running = await startApp({ ...base, providers: [...(base.providers ?? []), AskRefusals, AskingTools] });
  });
  afterAll(() => running.close());

  /** Starts `ask_many` as a task on a raw session (no standalone stream); resolves with its id. */
  async function askMany(session: OpenedSession, count: number, size: number): Promise<string> {
    const created = await httpExchange(
      running.mcpUrl,
      'POST',
      session.headers,
      JSON.stringify({
        jsonrpc: '2.0',
        id: 1,
        method: 'tools/call',
        params: { name: 'ask_many', arguments: { count, size }, task: { ttl: 60_000 } },
      }),
    );
    return (JSON.parse(created.text) as { result: { task: { taskId: string } } }).result.task.taskId;
  }

  /** Opens `tasks/result`, answers every request it carries, and resolves with them and the result. */
  async function answerAll(
    session: OpenedSession,
    taskId: string,
    expected: number,
  ): Promise<{ asked: RpcMessage[]; result: unknown }> {
    const results = await HttpStream.open(
      running.mcpUrl,
      'POST',
      session.headers,
      JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tasks/result', params: { taskId } }),
    );
    await results.waitFor((stream) => stream.withMethod('elicitation/create').length >= expected, WAIT_MS);
    const asked = results.withMethod('elicitation/create');
    for (const request of asked) {
      const answered = await httpExchange(
        running.mcpUrl,
        'POST',
        session.headers,
        JSON.stringify({ jsonrpc: '2.0', id: request.id, result: { action: 'accept', content: { ok: true } } }),
      );
      expect(answered.status).toBe(202);
    }
    await results.waitFor((stream) => stream.responses.some((message) => message.id === 2), WAIT_MS);
    const result = results.responses.find((message) => message.id === 2)!.result;
    results.close();
    return { asked, result };
  }

  it('refuses a request past limits.outboxMessages waiting ones with -32000; those asked before are answered', async () => {
    const session = await openSession(running.mcpUrl, {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: {} },
      headers: bearer('ann'),
    });
    const refusals = running.app.get(AskRefusals).seen;
    refusals.length = 0;
    const taskId = await askMany(session, MAX_WAITING + 2, 10);
    await until(() => refusals.length === 2, 'two requests refused');
    for (const refusal of refusals) {
      expect(refusal.code).toBe(-32000);
      expect(refusal.message).toContain(`the task's ${String(MAX_WAITING)} pending inputs`);
      expect(refusal.message).toContain('(limits.outboxMessages, limits.outboxChars)');
    }
    const { asked, result } = await answerAll(session, taskId, MAX_WAITING);
    expect(asked).toHaveLength(MAX_WAITING);
    expect(result).toMatchObject({ content: [{ type: 'text', text: '3 answered, 2 not asked' }] });
  });

  it('refuses a request that would take the waiting ones past limits.outboxChars', async () => {
    const session = await openSession(running.mcpUrl, {
      protocolVersion: '2025-11-25',
      capabilities: { elicitation: {} },
      headers: bearer('ben'),
    });
    const refusals = running.app.get(AskRefusals).seen;
    refusals.length = 0;
    const taskId = await askMany(session, 1, MAX_CHARS + 1);
    await until(() => refusals.length === 1, 'the request refused');
    expect(refusals[0]).toMatchObject({ code: -32000, message: expect.stringContaining('limits.outboxChars') });
    const { asked, result } = await answerAll(session, taskId, 0);
    expect(asked).toEqual([]);
    expect(result).toMatchObject({ content: [{ type: 'text', text: '0 answered, 1 not asked' }] });
  });
});
