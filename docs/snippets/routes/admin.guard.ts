import { ForbiddenException, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';

// #region guard
/** The route's own guard: it reads the request's headers, so it decides for HTTP and for MCP alike. */
@Injectable()
export class AdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<IncomingMessage>();
    if (request.headers.authorization === `Bearer ${process.env.ADMIN_TOKEN ?? 'admin-token'}`) return true;
    throw new ForbiddenException('Admins only');
  }
}
// #endregion guard
