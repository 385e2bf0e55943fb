import { Injectable } from '@nestjs/common';
import { McpTool, type McpContext } from 'mcp42';

@Injectable()
export class EraTools {
  // #region tool
  @McpTool({ name: 'which_era', description: 'Says how this request reached the server' })
  whichEra(_args: object, ctx: McpContext): string {
    // 'legacy': a 2025 session (initialize, Mcp-Session-Id); 'modern': a stateless 2026-07-28 request.
    const session = ctx.sessionId === undefined ? 'no session' : `session ${ctx.sessionId}`;
    const client = ctx.clientInfo?.name ?? 'an unnamed client';
    return `${ctx.era} era, protocol ${ctx.protocolVersion}, ${session}, from ${client}`;
  }
  // #endregion tool
}
