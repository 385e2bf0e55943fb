import { Injectable } from '@nestjs/common';
import { McpScopes, McpTool, type McpContext } from 'mcp42';

// #region tools
@Injectable()
export class ReportTools {
  @McpTool({ name: 'whoami', description: 'Who the server thinks you are' })
  whoami(_args: object, ctx: McpContext): string {
    // ctx.user is request.user, as the endpoint's guard set it.
    const user = ctx.user as { sub: string; scope: string };
    return `${user.sub} (${user.scope})`;
  }

  @McpScopes('reports:admin')
  @McpTool({ name: 'purge_reports', description: 'Deletes every report' })
  purge(): string {
    return 'Purged';
  }
}
// #endregion tools
