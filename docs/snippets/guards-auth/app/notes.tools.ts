import { Injectable, UseGuards } from '@nestjs/common';
import { McpPublic, McpScopes, McpTool, type McpContext } from 'mcp42';
import { NoteArgs } from './note.args.js';
import { NoteOwnerGuard } from './note-owner.guard.js';
import { NOTES } from './notes.js';

/** What the authentication guard put on `request.user`. */
interface NotesUser {
  readonly sub: string;
}

// #region tools
@Injectable()
@McpScopes('notes:read') // every tool of the class needs it…
export class NotesTools {
  @UseGuards(NoteOwnerGuard)
  @McpTool({ name: 'read_note', description: 'Reads one of your notes', input: NoteArgs })
  readNote({ id }: NoteArgs, ctx: McpContext): string {
    const user = ctx.user as NotesUser;
    return `${NOTES.get(id)!.text} (read by ${user.sub})`;
  }

  @McpScopes('notes:admin') // …and this one also needs notes:admin: hidden from callers without it
  @McpTool({ name: 'delete_note', description: 'Deletes a note', input: NoteArgs })
  deleteNote({ id }: NoteArgs): string {
    NOTES.delete(id);
    return `Deleted ${id}`;
  }

  @McpPublic() // exempt from the class's scopes (the endpoint's guards still run)
  @McpTool({ name: 'notes_status', description: 'How many notes the server holds' })
  status(): string {
    return `${NOTES.size} notes`;
  }
}
// #endregion tools
