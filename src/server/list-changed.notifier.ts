import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Subscription } from 'rxjs';
import { McpMethod } from '../protocol/mcp.methods.js';
import { PromptStore } from '../prompts/prompt.store.js';
import { ResourceStore } from '../resources/resource.store.js';
import { SessionStore } from '../session/session.store.js';
import { ToolStore } from '../tools/tool.store.js';

/**
 * Tells connected sessions when the served tools, resources (or templates) or prompts change
 * (`notifications/{tools,resources,prompts}/list_changed`). Only sessions with a GET stream open
 * hear it: one that connects later lists them anyway, so queueing the news for it would only cost memory.
 */
@Injectable()
export class ListChangedNotifier implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly subscription = new Subscription();

  constructor(
    private readonly tools: ToolStore,
    private readonly resources: ResourceStore,
    private readonly prompts: PromptStore,
    private readonly sessions: SessionStore,
  ) {}

  onApplicationBootstrap(): void {
    const announce = (method: string) => () => {
      this.sessions.notifyAll(method, undefined, { connectedOnly: true });
    };
    this.subscription.add(this.tools.changes.subscribe(announce(McpMethod.ToolsListChanged)));
    this.subscription.add(this.resources.changes.subscribe(announce(McpMethod.ResourcesListChanged)));
    this.subscription.add(this.prompts.changes.subscribe(announce(McpMethod.PromptsListChanged)));
  }

  onModuleDestroy(): void {
    this.subscription.unsubscribe();
  }
}
