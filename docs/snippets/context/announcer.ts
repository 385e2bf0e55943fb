import { Injectable, Logger, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import { McpSessionRegistry } from 'mcp42';
import type { Subscription } from 'rxjs';

// #region registry
@Injectable()
export class Announcer implements OnApplicationBootstrap, OnModuleDestroy {
  private readonly logger = new Logger(Announcer.name);
  private rootsChanged?: Subscription;

  constructor(private readonly sessions: McpSessionRegistry) {}

  onApplicationBootstrap(): void {
    this.rootsChanged = this.sessions.rootsChanged.subscribe((session) =>
      this.logger.log(`The roots of ${session.clientInfo.name} (${session.id}) changed`),
    );
  }

  onModuleDestroy(): void {
    this.rootsChanged?.unsubscribe();
  }

  /** Called by host code (a scheduler, an admin endpoint): no MCP call is running. */
  maintenanceSoon(): number {
    return this.sessions.logAll('warning', { message: 'Maintenance in 10 minutes' }, 'ops');
  }

  /** A notification of your own, to the sessions that listen now (it is stale for later ones). */
  forecastsChanged(): number {
    return this.sessions.notifyAll('notifications/example.com/forecasts_changed', {}, { connectedOnly: true });
  }

  /** One client, by its session id. */
  tell(sessionId: string, message: string): boolean {
    return this.sessions.get(sessionId)?.log('info', { message }) ?? false;
  }

  describe(): string {
    return this.sessions
      .list()
      .map((s) => `${s.id}: ${s.clientInfo.name} ${s.protocolVersion}, ${s.hasStream ? 'listening' : 'not listening'}`)
      .join('\n');
  }
}
// #endregion registry
