import { Controller, Get } from '@nestjs/common';
import { HealthCheck, HealthCheckService, type HealthCheckResult } from '@nestjs/terminus';
import { McpHealthIndicator } from 'mcp42/terminus';

// #region health
/** `GET /health`: no guard (probes carry no credentials), outside the MCP endpoint's guards. */
@Controller('health')
export class HealthController {
  constructor(
    private readonly health: HealthCheckService,
    private readonly mcp: McpHealthIndicator,
  ) {}

  @Get()
  @HealthCheck()
  check(): Promise<HealthCheckResult> {
    // Down (503) when the shared state does not answer within 2 s (the second argument).
    return this.health.check([() => this.mcp.isHealthy('mcp', 2_000)]);
  }
}
// #endregion health
