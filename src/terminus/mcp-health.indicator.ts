import { Injectable } from '@nestjs/common';
import { HealthIndicatorService, type HealthIndicatorResult } from '@nestjs/terminus';
import { McpStateUnavailableError } from '../errors/mcp-state-unavailable.error.js';
import { McpSessionRegistry } from '../registries/session.registry.js';

/** How long a health check waits for the shared state before it reports it down. */
const DEFAULT_TIMEOUT_MS = 2_000;

/**
 * A `@nestjs/terminus` health indicator for the MCP server of its module: `up` with the live 2025
 * sessions (this instance's, and every instance's when the state is shared), `down` when the shared
 * state (Redis) does not answer, so that a readiness probe takes the instance out of rotation.
 * Provide it in the module that imports the server's `McpModule` and `TerminusModule`.
 *
 * @example
 * ```ts
 * @Get('health')
 * @HealthCheck()
 * check() {
 *   return this.health.check([() => this.mcp.isHealthy('mcp')]);
 * }
 * ```
 * @category Observability
 */
@Injectable()
export class McpHealthIndicator {
  constructor(
    private readonly health: HealthIndicatorService,
    private readonly sessions: McpSessionRegistry,
  ) {}

  /**
   * Checks the server's session store and shared state.
   * @param key the key of the result in the health report.
   * @param timeoutMs how long to wait for the shared state to count the sessions.
   */
  async isHealthy<const K extends string>(key: K, timeoutMs = DEFAULT_TIMEOUT_MS): Promise<HealthIndicatorResult<K>> {
    const check = this.health.check(key);
    const sessions = this.sessions.size;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<never>((_resolve, reject) => {
      timer = setTimeout(() => {
        reject(new McpStateUnavailableError(`the shared state did not answer within ${timeoutMs} ms`));
      }, timeoutMs);
    });
    try {
      const everywhere = await Promise.race([this.sessions.countAll(), late]);
      return check.up({ sessions, sessionsEverywhere: everywhere });
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      if (error instanceof McpStateUnavailableError)
        return check.down({ sessions, sharedState: 'unavailable', message });
      return check.down({ sessions, message });
    } finally {
      clearTimeout(timer);
    }
  }
}
