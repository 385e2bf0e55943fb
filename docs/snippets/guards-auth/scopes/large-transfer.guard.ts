import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { McpExecutionContext, McpInsufficientScopeException } from 'mcp42';

const LARGE_CENTS = 100_000;

// #region guard
/** Transfers of 1,000.00 or more need `payments:large`: a scope decided by the arguments of each call. */
@Injectable()
export class LargeTransferGuard implements CanActivate {
  canActivate(context: ExecutionContext): boolean {
    const mcp = McpExecutionContext.of(context);
    // Listing (no arguments yet), or mcp42 asking the other guards with missing scopes forgiven.
    if (mcp.phase === 'list' || mcp.scopesWaived) return true;
    const { amountCents } = mcp.arguments as { amountCents?: unknown };
    if (typeof amountCents !== 'number' || amountCents < LARGE_CENTS) return true;
    if (mcp.grantedScopes.includes('payments:large')) return true;
    // Every scope the call needs, not only the missing one: a challenge asks for all of them at once.
    throw new McpInsufficientScopeException(['payments:write', 'payments:large'], ['payments:large']);
  }
}
// #endregion guard
