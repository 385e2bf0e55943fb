import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';

/**
 * Stands in for authentication in this runnable example, so that a client without credentials can
 * call it: every request acts as one local user holding the `notes:read` scope. Use the bearer guard
 * or `McpOAuthGuard` in a real application; this one refuses to start in production.
 */
@Injectable()
export class DevUserGuard implements CanActivate {
  constructor() {
    if (process.env.NODE_ENV === 'production') throw new Error('DevUserGuard is for local development only');
  }

  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<{ user?: unknown }>();
    request.user = { sub: 'dev', scope: 'notes:read' };
    return true;
  }
}
