import { Injectable } from '@nestjs/common';
import { McpScopes, McpTool, type McpContext } from 'mcp42';
import type { McpOAuthUser } from 'mcp42/oauth';

// #region tools
@Injectable()
export class NotesTools {
  @McpTool({ name: 'whoami', description: 'Who the token belongs to' })
  whoami(_args: object, ctx: McpContext): string {
    const user = ctx.user as McpOAuthUser; // sub is `<iss>#<sub>`; the token itself is not kept
    return `${user.subject} at ${user.iss}, scopes: ${user.scope}`;
  }

  @McpScopes('notes:write') // listed in scopes_supported, hidden from tokens without it
  @McpTool({ name: 'write_note', description: 'Writes a note' })
  writeNote(): string {
    return 'written';
  }
}
// #endregion tools
