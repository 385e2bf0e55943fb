import { Injectable, UnauthorizedException, type CanActivate, type ExecutionContext } from '@nestjs/common';
import type { IncomingMessage } from 'node:http';

/** The main server's endpoint guard, reduced to a header check for the example. */
@Injectable()
export class AdminGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const request = context.switchToHttp().getRequest<IncomingMessage>();
    if (request.headers['x-admin-key'] !== process.env.ADMIN_KEY || !process.env.ADMIN_KEY) {
      throw new UnauthorizedException();
    }
    return true;
  }
}
