import { Inject, Injectable, type OnApplicationBootstrap, type OnModuleDestroy } from '@nestjs/common';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import { SessionStore } from '../session/session.store.js';
import { ListenStreams } from './listen-streams.js';

/**
 * Reports what an operator watches and no event tells (live sessions, listen streams, whether the
 * shared state answers) as gauges the telemetry reads when its metrics are collected; stops at
 * shutdown, so that a closed application is not read again.
 */
@Injectable()
export class TelemetryGauges implements OnApplicationBootstrap, OnModuleDestroy {
  private stop: (() => void) | undefined;

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly sessions: SessionStore,
    private readonly listens: ListenStreams,
  ) {}

  onApplicationBootstrap(): void {
    const { telemetry, state } = this.options;
    if (!telemetry.enabled) return;
    const { shared } = state;
    this.stop = telemetry.observe({
      sessions: () => this.sessions.size,
      listenStreams: () => this.listens.size,
      ...(shared === undefined ? {} : { stateAvailable: () => shared.available }),
    });
  }

  onModuleDestroy(): void {
    this.stop?.();
    this.stop = undefined;
  }
}
