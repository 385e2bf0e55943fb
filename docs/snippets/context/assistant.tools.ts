import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTool, type McpContext } from 'mcp42';

@Injectable()
export class AssistantTools {
  // #region sample
  @McpTool({ name: 'explain_forecast', description: 'Explains the forecast of Lisbon in plain words' })
  async explain(_args: object, ctx: McpContext): Promise<string> {
    const answer = await ctx.sample({
      messages: [{ role: 'user', content: { type: 'text', text: 'Lisbon: 24 °C, wind 40 km/h, UV 9. Explain.' } }],
      systemPrompt: 'You explain weather forecasts to travellers in two sentences.',
      maxTokens: 200,
    });
    const content = answer.content as { type?: string; text?: string };
    return content.type === 'text' && content.text ? content.text : `The model (${answer.model}) answered without text`;
  }
  // #endregion sample

  // #region roots
  @McpTool({ name: 'workspace_folders', description: 'The folders the client lets this server work in' })
  async folders(_args: object, ctx: McpContext): Promise<string> {
    const { roots } = await ctx.listRoots();
    return roots.map((root) => `${root.name ?? 'unnamed'}: ${root.uri}`).join('\n') || 'No roots';
  }
  // #endregion roots

  // #region close-connection
  @McpTool({ name: 'compile_report', description: 'Compiles the monthly report (about a minute)' })
  async compileReport(_args: object, ctx: McpContext): Promise<string> {
    // Frees the connection during the long wait; 2025-11-25 clients reconnect with Last-Event-ID
    // after 5 s, and receive what was sent meanwhile, the result included.
    ctx.closeConnection(5_000);
    await sleep(60_000, undefined, { signal: ctx.signal }); // the long work
    return 'Report compiled';
  }
  // #endregion close-connection
}
