import { Injectable } from '@nestjs/common';
import { McpTool, type McpContext } from 'mcp42';

// #region tool
@Injectable()
export class CacheTools {
  @McpTool({ name: 'clear_cache', description: 'Forgets every cached forecast, once the user confirms' })
  async clearCache(_args: object, ctx: McpContext): Promise<string> {
    // Asks the user through their client (elicitation): in a test, the kit's onElicitation answers.
    const answer = await ctx.elicit({
      message: 'Clear every cached forecast?',
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    return answer.action === 'accept' && answer.content?.confirm === true ? 'Cache cleared' : 'Cache kept';
  }
}
// #endregion tool
