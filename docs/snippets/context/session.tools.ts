import { Inject, Injectable, Scope } from '@nestjs/common';
import { MCP_SESSION, McpCtx, McpSession, McpTool, type McpContext, type McpSessionHandle } from 'mcp42';

// #region session-param
@Injectable()
export class SessionTools {
  @McpTool({ name: 'who_am_i', description: 'Says which client is calling' })
  whoAmI(@McpSession() session: McpSessionHandle | undefined, @McpCtx() ctx: McpContext): string {
    // A stateless 2026-07-28 request has no session; its context still says who the client is.
    const client = session?.clientInfo.name ?? ctx.clientInfo?.name ?? 'a client that did not say';
    return `${client}, protocol ${ctx.protocolVersion} (${ctx.era})`;
  }
}
// #endregion session-param

// #region session-inject
@Injectable({ scope: Scope.REQUEST })
export class AuditedTools {
  constructor(@Inject(MCP_SESSION) private readonly session: McpSessionHandle | undefined) {}

  @McpTool({ name: 'session_id', description: 'The id of the calling session, if it has one' })
  sessionId(): string {
    return this.session?.id ?? 'no session (a stateless request)';
  }
}
// #endregion session-inject
