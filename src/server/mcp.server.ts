import { Inject, Injectable, Logger } from '@nestjs/common';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { McpDispatcher, type McpServerPort } from '../protocol/dispatcher.js';
import type { ServerDescription } from '../protocol/initialize.js';
import type { JsonRpcResponse, RequestId } from '../protocol/json-rpc.types.js';
import type { LoggingLevel } from '../protocol/logging-level.js';
import type {
  CallToolParams,
  CallToolResult,
  CancelledNotificationParams,
  CompleteParams,
  CompleteResult,
  GetPromptParams,
  GetPromptResult,
  ListPromptsResult,
  ListResourcesResult,
  ListResourceTemplatesResult,
  ListToolsResult,
  ReadResourceResult,
  ResourceUriParams,
} from '../protocol/mcp.types.js';
import type { Page } from '../protocol/pagination.js';
import { McpCompletionService } from '../completion/completion.service.js';
import { GuardClock, GUARD_DEADLINE_MS } from '../execution/guard-clock.js';
import { ItemVisibility } from '../execution/item-visibility.js';
import type { McpCallContext } from '../execution/mcp-call-context.js';
import type { ItemRequest } from '../execution/item-request.js';
import type { ServedHandler } from '../execution/served-handler.js';
import { McpPromptRenderer } from '../prompts/prompt.renderer.js';
import { PromptStore } from '../prompts/prompt.store.js';
import { McpResourceReader } from '../resources/resource.reader.js';
import { ResourceStore } from '../resources/resource.store.js';
import { SessionStore } from '../session/session.store.js';
import { McpToolCaller } from '../tools/tool.caller.js';
import { ToolStore } from '../tools/tool.store.js';
import { CursorSeal } from './cursor-seal.js';

/**
 * The application's MCP server: binds the pure dispatcher to this application's items, sessions and logger.
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
    private readonly tools: ToolStore,
    private readonly resources: ResourceStore,
    private readonly prompts: PromptStore,
    private readonly sessions: SessionStore,
    private readonly visibility: ItemVisibility,
    private readonly clock: GuardClock,
    private readonly toolCaller: McpToolCaller,
    private readonly reader: McpResourceReader,
    private readonly renderer: McpPromptRenderer,
    private readonly completions: McpCompletionService,
  ) {
    this.dispatcher = new McpDispatcher(describeServer(options), this);
    this.pageSize = options.pageSize;
  }

  async listTools(cursor: string | undefined, context: McpCallContext): Promise<ListToolsResult> {
    const { items, nextCursor } = await this.list('tools', cursor, context, (after, visible) =>
      this.tools.page(after, this.pageSize, (tool) => visible(tool, { kind: 'tool', name: tool.definition.name })),
    );
    return { tools: items.map((tool) => tool.definition), ...nextCursor };
  }

  async listResources(cursor: string | undefined, context: McpCallContext): Promise<ListResourcesResult> {
    const { items, nextCursor } = await this.list('resources', cursor, context, (after, visible) =>
      this.resources.resources.page(after, this.pageSize, (resource) =>
        visible(resource, { kind: 'resource', name: resource.definition.name, uri: resource.definition.uri }),
      ),
    );
    return { resources: items.map((resource) => resource.definition), ...nextCursor };
  }

  async listResourceTemplates(
    cursor: string | undefined,
    context: McpCallContext,
  ): Promise<ListResourceTemplatesResult> {
    const { items, nextCursor } = await this.list('templates', cursor, context, (after, visible) =>
      this.resources.templates.page(after, this.pageSize, (template) =>
        visible(template, { kind: 'resourceTemplate', name: template.definition.name }),
      ),
    );
    return { resourceTemplates: items.map((template) => template.definition), ...nextCursor };
  }

  readResource(params: ResourceUriParams, context: McpCallContext, requestId: RequestId): Promise<ReadResourceResult> {
    return this.reader.read(params, context, requestId);
  }

  subscribeResource(params: ResourceUriParams, context: McpCallContext, requestId: RequestId): Promise<void> {
    return this.reader.subscribe(params, context, requestId);
  }

  unsubscribeResource(params: ResourceUriParams, context: McpCallContext): void {
    this.reader.unsubscribe(params, context);
  }

  async listPrompts(cursor: string | undefined, context: McpCallContext): Promise<ListPromptsResult> {
    const { items, nextCursor } = await this.list('prompts', cursor, context, (after, visible) =>
      this.prompts.page(after, this.pageSize, (prompt) =>
        visible(prompt, { kind: 'prompt', name: prompt.definition.name }),
      ),
    );
    return { prompts: items.map((prompt) => prompt.definition), ...nextCursor };
  }

  getPrompt(params: GetPromptParams, context: McpCallContext, requestId: RequestId): Promise<GetPromptResult> {
    return this.renderer.get(params, context, requestId);
  }

  complete(params: CompleteParams, context: McpCallContext, requestId: RequestId): Promise<CompleteResult> {
    return this.completions.complete(params, context, requestId);
  }

  /**
   * One page of a list method, its cursors sealed to the session and to the list they belong to.
   * One guard deadline for the whole listing: a guard that never settles leaves its item out,
   * rather than the page hanging, and a page of hung guards takes 10 s, not 10 s per turn of items.
   */
  private async list<T>(
    list: string,
    cursor: string | undefined,
    context: McpCallContext,
    page: (
      after: string | undefined,
      visible: (handler: ServedHandler, item: ItemRequest) => Promise<boolean>,
    ) => Promise<Page<T>>,
  ): Promise<{ items: T[]; nextCursor: { nextCursor?: string } }> {
    const scope = `${list}\0${context.session.id}`;
    const after = cursor === undefined ? undefined : this.cursors.open(cursor, scope);
    const deadline = this.clock.deadline(GUARD_DEADLINE_MS);
    const visible = (handler: ServedHandler, item: ItemRequest): Promise<boolean> =>
      this.visibility.isVisible(handler, item, context, deadline.passed);
    const result = await page(after, visible).finally(() => deadline.cancel());
    return {
      items: result.page,
      nextCursor: result.nextCursor === undefined ? {} : { nextCursor: this.cursors.seal(result.nextCursor, scope) },
    };
  }

  callTool(params: CallToolParams, context: McpCallContext, requestId: RequestId): Promise<CallToolResult> {
    return this.toolCaller.call(params, context, requestId);
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
    capabilities: Object.freeze({
      tools: Object.freeze({ listChanged: true }),
      resources: Object.freeze({ subscribe: true, listChanged: true }),
      prompts: Object.freeze({ listChanged: true }),
      completions: Object.freeze({}),
      logging: Object.freeze({}),
    }),
    ...(options.instructions === undefined ? {} : { instructions: options.instructions }),
  });
}
