// #region guard
import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { McpExecutionContext } from 'mcp42';

/** Admits a call only from the local user, on stdio: the tool stays hidden over HTTP. */
@Injectable()
export class LocalOnlyGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    return McpExecutionContext.of(context).transport === 'stdio';
  }
}
// #endregion guard
