import { ForbiddenException, Inject, Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { MCP_PUBLIC_METADATA, MCP_RESOLVED_OPTIONS, MCP_SCOPES_METADATA } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../mcp-options.defaults.js';

/**
 * Lets a tool through when `request.user` holds every scope `@McpScopes()` requires on the method
 * and on its class (read with the module's `scopesOf`). A method marked `@McpPublic()` needs none.
 * Applied by `@McpScopes()`; a denied tool is hidden from the caller's `tools/list`.
 */
@Injectable()
export class McpScopesGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
  ) {}

  canActivate(context: ExecutionContext): boolean {
    const targets = [context.getHandler(), context.getClass()];
    if (this.reflector.getAllAndOverride<boolean | undefined>(MCP_PUBLIC_METADATA, targets)) return true;
    const required = this.reflector.getAllAndMerge<string[]>(MCP_SCOPES_METADATA, targets);
    if (required.length === 0) return true;
    const user = context.switchToHttp().getRequest<{ user?: unknown } | undefined>()?.user;
    const granted = new Set(this.options.scopesOf(user));
    const missing = required.filter((scope) => !granted.has(scope));
    if (missing.length === 0) return true;
    throw new ForbiddenException(`Missing scope(s): ${missing.join(', ')}`);
  }
}
