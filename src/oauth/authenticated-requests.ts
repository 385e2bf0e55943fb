import { Injectable } from '@nestjs/common';

/**
 * The requests whose token `McpOAuthGuard` has verified. As a global guard it runs again for every
 * tool, resource and prompt of the request (and for each item of a list, to decide what to show):
 * those runs recognise the request rather than verify its token once per item.
 */
@Injectable()
export class AuthenticatedRequests {
  private readonly verified = new WeakSet<object>();

  add(request: object): void {
    this.verified.add(request);
  }

  has(request: object): boolean {
    return this.verified.has(request);
  }
}
