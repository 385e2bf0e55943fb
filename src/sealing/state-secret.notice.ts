import { Inject, Injectable, Logger, type OnApplicationBootstrap } from '@nestjs/common';
import cluster from 'node:cluster';
import type { ResolvedMcpOptions } from '../interfaces/resolved-mcp-options.interface.js';
import { MCP_RESOLVED_OPTIONS } from '../mcp.constants.js';
import { Sealer } from './sealer.js';

/** What this process can tell of its deployment: where it runs, and whether it is one of several. */
export interface DeploymentSigns {
  readonly env: NodeJS.ProcessEnv;
  /** A `node:cluster` worker: its siblings serve the same port. */
  readonly clusterWorker: boolean;
}

/**
 * Why a key of this process alone is not enough here, or `undefined` when nothing says so: in
 * production, or where other instances serve the same endpoint (a cluster worker, PM2's cluster mode,
 * a Kubernetes pod). A developer's single instance hears nothing.
 */
export function sealingKeyConcern({ env, clusterWorker }: DeploymentSigns): string | undefined {
  if (env.NODE_ENV === 'production') return 'NODE_ENV is production';
  if (clusterWorker) return 'this process is a cluster worker';
  if (env.NODE_APP_INSTANCE !== undefined) return 'this process is one of a PM2 cluster';
  if (env.KUBERNETES_SERVICE_HOST !== undefined) return 'this process runs in Kubernetes';
  return undefined;
}

/**
 * Says at bootstrap, once, where it matters, that without `state.secret` what clients hand back
 * sealed (a 2026-07-28 `requestState`, list cursors) opens only in this process: another instance,
 * or this one after a restart, refuses it.
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
    const { eras, sessions } = this.options;
    if (!this.sealer.ephemeral || (eras === 'legacy' && sessions.enabled)) return;
    const concern = sealingKeyConcern({ env: process.env, clusterWorker: cluster.isWorker });
    if (concern === undefined) return;
    this.logger.warn(
      `No state.secret is set (${concern}): a client whose next request or next page of a list reaches another ` +
        'instance, or this one after a restart, will get an error; set the same state.secret on every instance',
    );
  }
}
