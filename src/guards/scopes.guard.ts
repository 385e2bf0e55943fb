import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { McpInsufficientScopeException } from '../errors/mcp-insufficient-scope.exception.js';
import { McpExecutionContext } from '../execution/mcp-execution-context.js';
import { MCP_PUBLIC_METADATA, MCP_SCOPES_METADATA } from '../mcp.constants.js';
import { defaultScopesOf } from './scopes-of.js';

/**
 * Lets a tool through when `request.user` holds every scope `@McpScopes()` requires on the method
 * and on its class (read with the module's `auth.scopesOf`; on an HTTP route, with the default one). A
 * method marked `@McpPublic()` needs none.
 * Applied by `@McpScopes()`. A caller without them gets {@link McpInsufficientScopeException}: with
 * the module's `auth.scopeDenial: 'hide'` (the default) the tool is hidden from its `tools/list` and
 * unknown to its calls; with `'challenge'` it is listed, and a call is challenged (403
 * `insufficient_scope`), as long as the tool's other guards admit the caller.
 * @category Guards
 */
@Injectable()
export class ScopesGuard implements CanActivate {
  // Only the Reflector, which every module can inject: Nest instantiates this guard in the module of
  // each tool provider, which need not see McpModule's own providers.
  constructor(private readonly reflector: Reflector) {}

  canActivate(context: ExecutionContext): boolean {
    const handler = context.getHandler();
    const classRef = context.getClass();
    // @McpPublic() waives the class's scopes only: scopes the method asks for itself still apply.
    const waived = this.reflector.getAllAndOverride<boolean | undefined>(MCP_PUBLIC_METADATA, [handler, classRef]);
    const required = [
      ...(this.reflector.get<string[] | undefined>(MCP_SCOPES_METADATA, handler) ?? []),
      ...(waived ? [] : (this.reflector.get<string[] | undefined>(MCP_SCOPES_METADATA, classRef) ?? [])),
    ];
    if (required.length === 0) return true;
    const mcp = McpExecutionContext.isMcp(context) ? McpExecutionContext.of(context) : undefined;
    // Asked again, missing scopes forgiven, to learn what the other guards say (scopeDenial: 'challenge').
    if (mcp?.scopesWaived) return true;
    const granted = new Set(
      mcp
        ? mcp.grantedScopes
        : defaultScopesOf(context.switchToHttp().getRequest<{ user?: unknown } | undefined>()?.user),
    );
    const missing = required.filter((scope) => !granted.has(scope));
    if (missing.length === 0) return true;
    throw new McpInsufficientScopeException(required, missing);
  }
}
