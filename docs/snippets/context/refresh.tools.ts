import { Injectable } from '@nestjs/common';
import { setTimeout as sleep } from 'node:timers/promises';
import { McpTool, type McpContext } from 'mcp42';

const CITIES = ['Lisbon', 'Oslo', 'Porto'];

// #region progress
@Injectable()
export class RefreshTools {
  @McpTool({
    name: 'refresh_forecasts',
    description: 'Refreshes the forecast of every city (a few seconds); reports progress and can be cancelled',
    timeoutMs: 60_000,
  })
  async refreshAll(_args: object, ctx: McpContext): Promise<string> {
    ctx.log.info(`Refreshing ${CITIES.length} cities`);
    for (const [index, city] of CITIES.entries()) {
      ctx.reportProgress({ progress: index, total: CITIES.length, message: `Refreshing ${city}` });
      // Rejects as soon as the call is cancelled, times out or its session ends: the loop stops there.
      await sleep(100, undefined, { signal: ctx.signal });
      ctx.log.debug({ city, refreshed: true }, 'refresher');
    }
    ctx.reportProgress({ progress: CITIES.length, total: CITIES.length, message: 'Done' });
    return `Refreshed ${CITIES.length} forecast(s)`;
  }
}
// #endregion progress
