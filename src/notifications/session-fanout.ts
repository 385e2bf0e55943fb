import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ServerChange, ChangeBus } from '../interfaces/change-bus.interface.js';
import { MCP_CHANGE_BUS } from '../mcp.constants.js';
import { Method } from '../protocol/methods.js';
import { SessionStore } from '../session/session.store.js';

const LIST_CHANGED = {
  tools: Method.ToolsListChanged,
  prompts: Method.PromptsListChanged,
  resources: Method.ResourcesListChanged,
} as const;

/**
 * Tells 2025 sessions of the changes on the bus: a list changed, to sessions with a GET stream open
 * (one that connects later lists anyway, so queueing the news for it would only cost memory); a
 * resource changed, to the sessions subscribed to its URI (waiting on their GET stream, bounded).
 */
@Injectable()
export class SessionFanout implements OnApplicationBootstrap, OnModuleDestroy {
  private unsubscribe: (() => void) | undefined;

  constructor(
    private readonly sessions: SessionStore,
    @Inject(MCP_CHANGE_BUS) private readonly bus: ChangeBus,
  ) {}

  onApplicationBootstrap(): void {
    this.unsubscribe = this.bus.subscribe((change) => this.deliver(change));
  }

  onModuleDestroy(): void {
    this.unsubscribe?.();
  }

  private deliver(change: ServerChange): number {
    if (change.kind === 'list') {
      return this.sessions.notifyHere(LIST_CHANGED[change.list], undefined, { connectedOnly: true });
    }
    // Shared state: the instance that published the update reached the subscribed sessions itself.
    if (this.sessions.isShared) return 0;
    let sent = 0;
    for (const session of this.sessions.fanoutTargets()) {
      if (session.isSubscribed(change.uri) && session.notify(Method.ResourceUpdated, { uri: change.uri })) sent++;
    }
    return sent;
  }
}
