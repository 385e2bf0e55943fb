import { setTimeout as sleep } from 'node:timers/promises';
import { Injectable } from '@nestjs/common';
import { McpTool, McpToolError, type McpContext } from '../../src/index.js';

const CONFIRM_FORM = {
  message: 'Delete this file?',
  requestedSchema: {
    type: 'object' as const,
    properties: { confirm: { type: 'boolean' as const } },
    required: ['confirm'],
  },
};

/** Both answers of `multi_input` carry a name and a confirmation: one form takes either. */
const DETAILS_FORM = {
  message: 'Your details',
  requestedSchema: {
    type: 'object' as const,
    properties: { name: { type: 'string' as const }, confirm: { type: 'boolean' as const } },
  },
};

/**
 * The tools of the `tasks-*` scenarios of the 2026-07-28 tasks extension (SEP-2663). Each is an
 * ordinary handler: declared with `task`, it runs as a task for a request that declares the
 * extension, and `ctx.signal`, `ctx.progress` and `ctx.elicit` are the task's.
 */
@Injectable()
export class ConformanceTaskTools {
  @McpTool({
    name: 'greet',
    description: 'Greets someone, at once (never a task)',
    input: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
  })
  greet({ name }: { name: string }): string {
    return `Hello, ${name}!`;
  }

  @McpTool({
    name: 'slow_compute',
    description: 'Works for `seconds` seconds, then answers (a task when the client can take one)',
    input: {
      type: 'object',
      properties: { seconds: { type: 'number', minimum: 0 }, label: { type: 'string' } },
      required: ['seconds'],
    },
    task: 'optional',
  })
  async slowCompute({ seconds, label }: { seconds: number; label?: string }, ctx: McpContext): Promise<string> {
    if (seconds > 0) {
      ctx.reportProgress({ progress: 0, total: seconds, message: `Computing ${label ?? ''} for ${seconds} s` });
      await sleep(seconds * 1000, undefined, { signal: ctx.signal });
    }
    return `Computed ${label ?? 'result'} in ${seconds} s`;
  }

  @McpTool({ name: 'failing_job', description: 'Fails as a tool after a second (task only)', task: 'required' })
  async failingJob(_args: object, ctx: McpContext): Promise<never> {
    await sleep(1000, undefined, { signal: ctx.signal });
    throw new McpToolError('The job failed: the input data is corrupt');
  }

  @McpTool({ name: 'protocol_error_job', description: 'Breaks with an internal error (a task)', task: 'optional' })
  protocolErrorJob(): never {
    throw new Error('protocol_error_job: simulated crash');
  }

  @McpTool({
    name: 'confirm_delete',
    description: 'Asks for a confirmation, then deletes (a task waiting for input)',
    input: { type: 'object', properties: { filename: { type: 'string' } }, required: ['filename'] },
    task: 'optional',
  })
  async confirmDelete({ filename }: { filename: string }, ctx: McpContext): Promise<string> {
    const answer = await ctx.elicit(CONFIRM_FORM);
    return answer.action === 'accept' && answer.content?.confirm === true ? `Deleted ${filename}` : `Kept ${filename}`;
  }

  @McpTool({ name: 'multi_input', description: 'Asks two questions at once (a task)', task: 'optional' })
  async multiInput(_args: object, ctx: McpContext): Promise<string> {
    const [first, second] = await Promise.all([ctx.elicit(DETAILS_FORM), ctx.elicit(DETAILS_FORM)]);
    return `Got ${String(first.content?.name)} and ${String(second.content?.name)}`;
  }
}

/** The tool of `tasks-mrtr-composition`: asks in its request's rounds, then goes on as a task. */
@Injectable()
export class ConformanceTaskCompositionTools {
  @McpTool({
    name: 'test_tool_with_task',
    description: 'Asks for the user name in its request, then works as a task',
    task: { support: 'required', start: 'handler' },
  })
  async withTask(_args: object, ctx: McpContext): Promise<string> {
    const answer = await ctx.elicit(
      {
        message: 'What is your name?',
        requestedSchema: { type: 'object', properties: { name: { type: 'string' } }, required: ['name'] },
      },
      { key: 'user_name' },
    );
    await ctx.startTask();
    await sleep(200, undefined, { signal: ctx.signal });
    return `Hello, ${String(answer.content?.name)}, from a task!`;
  }
}
