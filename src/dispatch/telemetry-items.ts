import { Inject, Injectable, type OnModuleInit } from '@nestjs/common';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import { PromptStore } from '../prompts/prompt.store.js';
import { ResourceStore } from '../resources/resource.store.js';
import { ToolStore } from '../tools/tool.store.js';

/**
 * Tells the server's telemetry which items it has, so that a tool, prompt or resource is named in
 * span names and metric attributes only when it exists: a name a client makes up would otherwise
 * make a metric series of its own, without bound.
 */
@Injectable()
export class TelemetryItems implements OnModuleInit {
  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly tools: ToolStore,
    private readonly prompts: PromptStore,
    private readonly resources: ResourceStore,
  ) {}

  onModuleInit(): void {
    const { telemetry } = this.options;
    if (!telemetry.enabled) return;
    // Asked per request: items added or removed at run time are seen as they change.
    telemetry.catalog({
      hasTool: (name) => this.tools.has(name),
      hasPrompt: (name) => this.prompts.has(name),
      hasResource: (uri) => this.resources.resolve(uri) !== undefined,
    });
  }
}
