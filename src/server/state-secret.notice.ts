import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import { Sealer } from '../sealing/sealer.js';

/**
 * Says at bootstrap, once, that what clients hand back sealed (`requestState`, cursors) is sealed
 * with a key of this process: fine for one instance, but another instance of the deployment could
 * not open it, and a restart forgets it.
 */
@Injectable()
export class StateSecretNotice implements OnApplicationBootstrap {
  private readonly logger = new Logger('McpModule');

  constructor(
    @Inject(MCP_RESOLVED_OPTIONS) private readonly options: ResolvedMcpOptions,
    private readonly sealer: Sealer,
  ) {}

  onApplicationBootstrap(): void {
    // 2025 sessions alone seal nothing that outlives this process's sessions.
    const { eras, legacySessions } = this.options;
    if (!this.sealer.ephemeral || (eras === 'legacy' && legacySessions)) return;
    this.logger.log(
      'requestState and list cursors are sealed with a random key of this process; when several instances ' +
        'serve this endpoint (or it restarts while clients retry), give them all the same `stateSecret`',
    );
  }
}
