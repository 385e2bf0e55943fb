import { Injectable, UseGuards } from '@nestjs/common';
import { McpScopes, McpTool, type McpContext } from 'mcp42';
import { LocalOnlyGuard } from './local-only.guard.js';

// #region tools
@Injectable()
export class NotesTools {
  private notes = ['Buy milk', 'Call Ana'];

  @McpScopes('notes:read')
  @McpTool({ name: 'list_notes', description: 'Lists the notes', annotations: { readOnlyHint: true } })
  list(_args: object, ctx: McpContext): string {
    // Logs go to stderr while stdio is served: stdout carries JSON-RPC only.
    console.log(`list_notes over ${ctx.transport} for`, ctx.user);
    return this.notes.join('\n');
  }

  @McpScopes('notes:write')
  @McpTool({ name: 'delete_notes', description: 'Deletes every note, after asking the user' })
  async deleteAll(_args: object, ctx: McpContext): Promise<string> {
    const answer = await ctx.elicit({
      message: `Delete ${this.notes.length} note(s)?`,
      requestedSchema: { type: 'object', properties: { confirm: { type: 'boolean' } }, required: ['confirm'] },
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return 'Nothing was deleted';
    const deleted = this.notes.length;
    this.notes = [];
    return `Deleted ${deleted} note(s)`;
  }

  @UseGuards(LocalOnlyGuard)
  @McpTool({ name: 'notes_folder', description: 'Where the notes are kept on this machine' })
  folder(): string {
    return process.cwd();
  }
}
// #endregion tools
