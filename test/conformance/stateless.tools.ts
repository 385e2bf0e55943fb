import { Injectable } from '@nestjs/common';
import { McpTool, McpToolRegistry, McpPromptRegistry, type McpContext } from '../../src/index.js';

/**
 * The diagnostic tools of the 2026-07-28 `server-stateless` and header scenarios
 * (`@modelcontextprotocol/conformance@0.2.0-alpha.12`).
 */
@Injectable()
export class ConformanceStatelessTools {
  private changes = 0;

  constructor(
    private readonly tools: McpToolRegistry,
    private readonly prompts: McpPromptRegistry,
  ) {}

  @McpTool({
    name: 'test_missing_capability',
    description: 'Needs sampling: without it the request is refused (-32021)',
  })
  async missingCapability(_args: object, ctx: McpContext): Promise<string> {
    const result = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Say hello' } }],
      maxTokens: 20,
    });
    return `Sampled: ${JSON.stringify(result.content)}`;
  }

  @McpTool({
    name: 'test_streaming_elicitation',
    description: 'Asks the user a question: on 2026-07-28 as an input_required result, never a request on the stream',
  })
  async streamingElicitation(_args: object, ctx: McpContext): Promise<string> {
    ctx.reportProgress({ progress: 1, total: 2, message: 'about to ask' });
    const answer = await ctx.elicit({
      message: 'Continue?',
      requestedSchema: { type: 'object', properties: { ok: { type: 'boolean' } }, required: ['ok'] },
    });
    return `Answered: ${answer.action}`;
  }

  @McpTool({
    name: 'test_logging_tool',
    description: 'Logs three messages; only a request that set logLevel sees them',
  })
  logging(_args: object, ctx: McpContext): string {
    ctx.log.info('first message');
    ctx.log.warning('second message');
    ctx.log.error('third message');
    return 'Logged three messages';
  }

  @McpTool({ name: 'test_trigger_tool_change', description: 'Changes the tool list (a tool comes or goes)' })
  triggerToolChange(): string {
    const name = 'conformance_transient_tool';
    if (this.tools.has(name)) this.tools.remove(name);
    else this.tools.add({ name, description: 'Comes and goes with test_trigger_tool_change' }, () => 'here');
    return `Tool list changed (${++this.changes})`;
  }

  @McpTool({ name: 'test_trigger_prompt_change', description: 'Changes the prompt list (a prompt comes or goes)' })
  triggerPromptChange(): string {
    const name = 'conformance_transient_prompt';
    if (this.prompts.has(name)) this.prompts.remove(name);
    else this.prompts.add({ name, description: 'Comes and goes with test_trigger_prompt_change' }, () => 'here');
    return `Prompt list changed (${++this.changes})`;
  }

  @McpTool({
    name: 'test_mirrored_header',
    description: 'Echoes a region that 2026-07-28 clients mirror into the Mcp-Param-Region header',
    input: {
      type: 'object',
      properties: {
        region: { type: 'string', description: 'A region', 'x-mcp-header': 'Region' },
        query: { type: 'string', description: 'What to look for' },
      },
      required: ['region'],
    },
  })
  mirrored({ region }: { region: string }): string {
    return `Region: ${region}`;
  }
}
