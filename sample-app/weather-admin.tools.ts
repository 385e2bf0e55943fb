import { Injectable } from '@nestjs/common';
import { McpScopes, McpTool, McpToolError, type McpContext } from '../src/index.js';
import { WeatherService } from './weather.service.js';

/** How long the stand-in backend takes per city: long enough to watch progress and cancel. */
const REFRESH_DELAY_MS = 250;

/** Long-running and destructive operations: progress, cancellation, elicitation and scopes in use. */
@Injectable()
export class WeatherAdminTools {
  constructor(private readonly weather: WeatherService) {}

  @McpTool({
    name: 'refresh_forecasts',
    title: 'Refresh all forecasts',
    description:
      'Refreshes the forecast of every known city (takes a few seconds); reports progress and can be cancelled',
    annotations: { readOnlyHint: false, idempotentHint: true, openWorldHint: false },
    timeoutMs: 60_000,
    // A task for clients that can take one: its progress becomes the task's status message, and
    // tasks/cancel aborts ctx.signal. A plain call for the others, with the same result.
    task: 'optional',
  })
  async refreshAll(_args: object, ctx: McpContext): Promise<string> {
    const { cities } = this.weather;
    ctx.log.info(`Refreshing ${cities.length} cities`);
    for (const [index, city] of cities.entries()) {
      ctx.reportProgress({ progress: index, total: cities.length, message: `Refreshing ${city}` });
      // Throws when the client cancels: the call stops here, and no answer is sent for it.
      await this.weather.refresh(city, REFRESH_DELAY_MS, ctx.signal);
    }
    ctx.reportProgress({ progress: cities.length, total: cities.length, message: 'Done' });
    return `Refreshed ${cities.length} forecasts`;
  }

  @McpScopes('weather:admin')
  @McpTool({
    name: 'clear_forecast_cache',
    title: 'Clear the forecast cache',
    description: 'Deletes every cached forecast after asking the user to confirm; needs the weather:admin scope',
    annotations: { destructiveHint: true, idempotentHint: true, openWorldHint: false },
    // As a task, the confirmation waits for the user as long as the task lives: the task is
    // input_required until the client answers (tasks/update in 2026-07-28, the request it
    // delivers on tasks/result in 2025-11-25).
    task: 'optional',
  })
  async clearCache(_args: object, ctx: McpContext): Promise<string> {
    if (!ctx.clientCapabilities.elicitation) {
      throw new McpToolError('This client cannot ask the user for confirmation (no elicitation); nothing was deleted');
    }
    const answer = await ctx.elicit({
      message: `Delete ${this.weather.cached} cached forecast(s)?`,
      requestedSchema: {
        type: 'object',
        properties: { confirm: { type: 'boolean', title: 'Yes, delete them', default: false } },
        required: ['confirm'],
      },
    });
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return 'Nothing was deleted';
    return `Deleted ${this.weather.clearCache()} cached forecast(s)`;
  }
}
