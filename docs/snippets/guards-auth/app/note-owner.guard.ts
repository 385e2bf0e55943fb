import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { McpExecutionContext } from 'mcp42';
import { NOTES } from './notes.js';

// #region guard
/** Lets a caller read only the notes it owns. */
@Injectable()
export class NoteOwnerGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const mcp = McpExecutionContext.of(context);
    // tools/list asks every tool's guards without arguments: the tool itself may be listed.
    if (mcp.phase === 'list') return true;
    const { id } = mcp.arguments as { id?: unknown };
    const user = mcp.getRequest<{ user?: { sub?: string } }>().user;
    return typeof id === 'string' && NOTES.get(id)?.owner === user?.sub;
  }
}
// #endregion guard
