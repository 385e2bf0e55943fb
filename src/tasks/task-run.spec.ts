import { McpClientRequestError } from '../errors/mcp-client-request.error.js';
import type { InputRequest } from '../protocol/mcp.types.js';
import { TaskRun } from './task-run.js';

const ok = (): undefined => undefined;

/** A run whose record's input requests are recorded, as the service keeps them. */
function run(bounds: { messages: number; chars: number }): {
  run: TaskRun;
  requests: () => Readonly<Record<string, InputRequest>>;
} {
  let latest: Readonly<Record<string, InputRequest>> = {};
  const taskRun = new TaskRun(
    { inputRequestsChanged: (requests) => (latest = requests), statusMessage: () => undefined },
    {},
    bounds,
  );
  return { run: taskRun, requests: () => latest };
}

describe('TaskRun pending inputs', () => {
  it('refuses an input past the characters its pending ones may hold, with -32000, and keeps the others', async () => {
    const { run: task, requests } = run({ messages: 100, chars: 3_000 });
    const big = { message: 'x'.repeat(1_000), requestedSchema: { type: 'object', properties: {} } };
    const first = task.ask('elicitation/create', big, undefined, ok);
    const second = task.ask('elicitation/create', big, undefined, ok);
    const refused = task.ask('elicitation/create', big, undefined, ok);
    await expect(refused).rejects.toBeInstanceOf(McpClientRequestError);
    await expect(refused).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining('limits.outboxChars'),
    });
    expect(Object.keys(requests())).toEqual(['elicitation-1', 'elicitation-2']);

    // An answer frees its characters: the next ask fits again.
    task.answer({ 'elicitation-1': { action: 'decline' } });
    await expect(first).resolves.toEqual({ action: 'decline' });
    const fourth = task.ask('elicitation/create', big, undefined, ok);
    expect(Object.keys(requests())).toEqual(['elicitation-2', 'elicitation-4']);
    task.answer({ 'elicitation-2': { action: 'cancel' }, 'elicitation-4': { action: 'cancel' } });
    await Promise.all([second, fourth]);
  });

  it('refuses an input past the number that may wait', async () => {
    const { run: task, requests } = run({ messages: 2, chars: Infinity });
    void task.ask('roots/list', {}, 'a', ok);
    void task.ask('roots/list', {}, 'b', ok);
    await expect(task.ask('roots/list', {}, 'c', ok)).rejects.toMatchObject({
      code: -32000,
      message: expect.stringContaining('limits.outboxMessages'),
    });
    expect(Object.keys(requests())).toEqual(['a', 'b']);
  });

  it('refuses one input larger than the whole bound', async () => {
    const { run: task, requests } = run({ messages: 100, chars: 100 });
    await expect(
      task.ask('sampling/createMessage', { messages: [], maxTokens: 1, systemPrompt: 'y'.repeat(200) }, 's', ok),
    ).rejects.toMatchObject({ code: -32000 });
    expect(requests()).toEqual({});
  });
});
