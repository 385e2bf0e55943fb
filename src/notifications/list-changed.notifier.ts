import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { Subscription } from 'rxjs';
import type { ChangeBus } from '../interfaces/change-bus.interface.js';
import { MCP_CHANGE_BUS } from '../mcp.constants.js';
import { PromptStore } from '../prompts/prompt.store.js';
import { ResourceStore } from '../resources/resource.store.js';
import { ToolStore } from '../tools/tool.store.js';

/**
 * Publishes each burst of changes to the served tools, resources (or templates) and prompts on the
 * change bus, which tells the clients that listen: sessions with a GET stream open, and
 * `subscriptions/listen` streams that asked for that list.
 */
@Injectable()
export class ListChangedNotifier implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly subscription = new Subscription();

  constructor(
    private readonly tools: ToolStore,
    private readonly resources: ResourceStore,
    private readonly prompts: PromptStore,
    @Inject(MCP_CHANGE_BUS) private readonly bus: ChangeBus,
  ) {}

  onApplicationBootstrap(): void {
    const announce = (list: 'tools' | 'prompts' | 'resources') => () => {
      this.bus.publish({ kind: 'list', list });
    };
    this.subscription.add(this.tools.changes.subscribe(announce('tools')));
    this.subscription.add(this.resources.changes.subscribe(announce('resources')));
    this.subscription.add(this.prompts.changes.subscribe(announce('prompts')));
  }

  onModuleDestroy(): void {
    this.subscription.unsubscribe();
  }
}
