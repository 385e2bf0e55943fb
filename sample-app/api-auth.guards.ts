import { ForbiddenException, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { defaultScopesOf } from '../src/index.js';
import { BearerAuthGuard, type BearerTokenGrant } from './bearer-auth.guard.js';

/** Injection token of the sample's bearer-token grants (empty: no authentication). */
export const API_GRANTS = Symbol('sample-api-grants');

/**
 * The REST API's authentication: the same bearer tokens as the MCP endpoint (`BearerAuthGuard`),
 * checked only when some are configured.
 */
@Injectable()
export class ApiAuthGuard implements CanActivate {
  private readonly bearer: BearerAuthGuard | undefined;

  constructor(@Inject(API_GRANTS) grants: readonly BearerTokenGrant[]) {
    this.bearer = grants.length > 0 ? new BearerAuthGuard(grants) : undefined;
  }

  canActivate(context: ExecutionContext): boolean {
    return this.bearer?.canActivate(context) ?? true;
  }
}

/**
 * Admits only callers holding `weather:admin` when an admin token is configured (403 otherwise).
 * Runs after {@link ApiAuthGuard}, which put the token's scopes on `request.user`.
 */
@Injectable()
export class AdminScopeGuard implements CanActivate {
  private readonly required: boolean;

  constructor(@Inject(API_GRANTS) grants: readonly BearerTokenGrant[]) {
    this.required = grants.some((grant) => grant.scopes.includes('weather:admin'));
  }

  canActivate(context: ExecutionContext): boolean {
    if (!this.required) return true;
    const { user } = context.switchToHttp().getRequest<{ user?: unknown }>();
    if (defaultScopesOf(user).includes('weather:admin')) return true;
    throw new ForbiddenException('This needs the weather:admin scope');
  }
}
