import { Inject, Injectable, Logger } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../mcp-options.defaults.js';
import { McpDispatcher, type McpServerPort } from '../protocol/dispatcher.js';
import type { ServerDescription } from '../protocol/initialize.js';
import type { JsonRpcResponse, RequestId } from '../protocol/json-rpc.types.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import type {
  CallToolParams,
  CallToolResult,
  CancelledNotificationParams,
  ListToolsResult,
} from '../protocol/mcp.types.js';
import { McpSessionRegistry } from '../session/session.registry.js';
import { McpToolInvoker } from '../tools/tool.invoker.js';
import { McpToolRegistry } from '../tools/tool.registry.js';
import { CursorSeal } from './cursor-seal.js';
import type { McpCallContext } from './mcp-call-context.js';

/** How long tools/list waits for the guards of the tools it lists. */
const LIST_GUARD_TIMEOUT_MS = 10_000;

/**
 * The application's MCP server: binds the pure dispatcher to this application's tools and logger.
 * One per application, so two applications in one process never share anything.
 */
@Injectable()
export class McpServer implements McpServerPort<McpCallContext> {
  private readonly logger = new Logger('McpServer');
  readonly dispatcher: McpDispatcher<McpCallContext>;
  private readonly pageSize: number;
  private readonly cursors = new CursorSeal();

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) options: ResolvedMcpOptions,
    private readonly tools: McpToolRegistry,
    private readonly invoker: McpToolInvoker,
    private readonly sessions: McpSessionRegistry,
  ) {
    this.dispatcher = new McpDispatcher(describeServer(options), this);
    this.pageSize = options.pageSize;
  }

  async listTools(cursor: string | undefined, context: McpCallContext): Promise<ListToolsResult> {
    const sessionId = context.session.id;
    const after = cursor === undefined ? undefined : this.cursors.open(cursor, sessionId);
    // One deadline for the whole listing: a guard that never settles leaves its tool out, not the page hanging.
    let timer: NodeJS.Timeout | undefined;
    const deadline = new Promise<void>((resolve) => {
      timer = setTimeout(resolve, LIST_GUARD_TIMEOUT_MS);
      timer.unref();
    });
    const listing = this.tools
      .page(after, this.pageSize, (tool) => this.invoker.isVisible(tool, context, deadline))
      .finally(() => clearTimeout(timer));
    const { page, nextCursor } = await listing;
    const tools = page.map((tool) => tool.definition);
    return nextCursor === undefined ? { tools } : { tools, nextCursor: this.cursors.seal(nextCursor, sessionId) };
  }

  callTool(params: CallToolParams, context: McpCallContext, requestId: RequestId): Promise<CallToolResult> {
    return this.invoker.call(params, requestId, context);
  }

  onInitialized(context: McpCallContext): void {
    context.session.initialized = true;
  }

  setLoggingLevel(level: LoggingLevel, context: McpCallContext): void {
    context.session.logLevel = level;
  }

  onCancelled(params: CancelledNotificationParams, context: McpCallContext): void {
    // Unknown and finished ids are ignored, as the specification says: the cancellation crossed the answer.
    if (!context.session.cancelCall(params.requestId, params.reason)) {
      this.logger.debug(`Cancellation of ${JSON.stringify(params.requestId)} ignored: no such call is running`);
    }
  }

  onRootsListChanged(context: McpCallContext): void {
    this.sessions.reportRootsChanged(context.session);
  }

  onResponse(response: JsonRpcResponse, context: McpCallContext): void {
    if (!context.session.settleClientRequest(response)) {
      this.logger.debug(`Answer ${JSON.stringify(response.id)} ignored: no request of this session waits for it`);
    }
  }

  reportError(error: unknown, method: string): void {
    this.logger.error(`Handling ${method} failed`, error instanceof Error ? error.stack : String(error));
  }
}

function describeServer(options: ResolvedMcpOptions): ServerDescription {
  return Object.freeze({
    serverInfo: Object.freeze({
      name: options.name,
      version: options.version,
      ...(options.title === undefined ? {} : { title: options.title }),
    }),
    capabilities: Object.freeze({ tools: Object.freeze({ listChanged: true }), logging: Object.freeze({}) }),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });
}
