import { Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { Subscription } from 'rxjs';
import { McpMethod } from '../protocol/mcp.methods.js';
import { McpSessionRegistry } from '../session/session.registry.js';
import { McpToolRegistry } from './tool.registry.js';

/**
 * Tells connected sessions when the served tools change (`notifications/tools/list_changed`).
 * Only sessions with a GET stream open hear it: one that connects later lists the tools anyway,
 * so queueing the news for it would only cost memory.
 */
@Injectable()
export class ToolListChangedNotifier implements OnApplicationBootstrap, OnModuleDestroy {
  private subscription: Subscription | undefined;

  constructor(
    private readonly tools: McpToolRegistry,
    private readonly sessions: McpSessionRegistry,
  ) {}

  onApplicationBootstrap(): void {
    this.subscription = this.tools.changes.subscribe(() => {
      this.sessions.notifyAll(McpMethod.ToolsListChanged, undefined, { connectedOnly: true });
    });
  }

  onModuleDestroy(): void {
    this.subscription?.unsubscribe();
  }
}
