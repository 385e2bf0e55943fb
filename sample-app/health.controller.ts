import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import { McpHealthIndicator } from '../src/terminus/index.js';

/**
 * `GET /health` for the orchestrator's readiness and liveness probes: unauthenticated (probes carry
 * no credentials) and outside the MCP endpoint, whose guards protect `/mcp` only. Down (503) while
 * the shared state (Redis) does not answer.
 */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mcp: McpHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check(): Promise<HealthCheckResult> {
    return this.health.check([() => this.mcp.isHealthy('mcp')]);
  }
}
