import { Injectable, type ExecutionContext } from '@nestjs/common';
import { ThrottlerGuard } from '@nestjs/throttler';
import { McpExecutionContext } from 'mcp42';

/** Where a tool call's rate-limit headers go: nowhere, since mcp42 writes the response itself. */
const NO_HEADERS = Object.freeze({ header: (): void => undefined });

/**
 * `ThrottlerGuard` for the MCP endpoint and each tool it serves. On the endpoint (type 'http') it is
 * the stock guard. In a tool call (type 'mcp') the request is the HTTP request that carried it, and
 * there is no response object; listings, which ask every tool's guards, are not counted.
 */
@Injectable()
export class McpThrottlerGuard extends ThrottlerGuard {
  protected override shouldSkip(context: ExecutionContext): Promise<boolean> {
    return Promise.resolve(McpExecutionContext.isMcp(context) && McpExecutionContext.of(context).phase === 'list');
  }

  protected override getRequestResponse(context: ExecutionContext): {
    req: Record<string, unknown>;
    res: Record<string, unknown>;
  } {
    if (!McpExecutionContext.isMcp(context)) return super.getRequestResponse(context);
    return { req: McpExecutionContext.of(context).getRequest<Record<string, unknown>>(), res: NO_HEADERS };
  }

  // #region tracker
  /** Counts per authenticated user when there is one, else per client IP. */
  protected override getTracker(req: Record<string, unknown>): Promise<string> {
    const user = req.user as { sub?: unknown } | undefined;
    return typeof user?.sub === 'string' ? Promise.resolve(`user:${user.sub}`) : super.getTracker(req);
  }
  // #endregion tracker
}
