import { Injectable } from '@nestjs/common';
import { IsIn } from 'class-validator';
import { McpClientRequestError, McpTool, type McpContext } from 'mcp42';
import type { ElicitationSchema } from 'mcp42/protocol';

export class CityArgs {
  @IsIn(['Lisbon', 'Oslo', 'Porto'])
  city!: string;
}

/** A stand-in for a cache of forecasts. */
@Injectable()
export class ForecastCache {
  private readonly entries = new Map([
    ['Lisbon', 12],
    ['Oslo', 7],
  ]);

  async count(city: string): Promise<number> {
    return this.entries.get(city) ?? 0;
  }

  async clear(city: string): Promise<number> {
    const count = this.entries.get(city) ?? 0;
    this.entries.delete(city);
    return count;
  }
}

// #region elicit
/** A form of flat, primitive properties: what clients can render. */
const CONFIRM: ElicitationSchema = {
  type: 'object',
  properties: { confirm: { type: 'boolean', title: 'Yes, delete them', default: false } },
  required: ['confirm'],
};

@Injectable()
export class CacheTools {
  constructor(private readonly cache: ForecastCache) {}

  @McpTool({
    name: 'clear_city_cache',
    description: "Deletes a city's cached forecasts after the user confirms",
    input: CityArgs,
    annotations: { destructiveHint: true },
  })
  async clear({ city }: CityArgs, ctx: McpContext): Promise<string> {
    // Once per request: on 2026-07-28 the handler runs again when the answer comes back.
    const count = await ctx.once('count', () => this.cache.count(city));
    if (count === 0) return `Nothing cached for ${city}`;
    const answer = await ctx.elicit(
      { message: `Delete ${count} cached forecast(s) of ${city}?`, requestedSchema: CONFIRM },
      { key: 'confirm' },
    );
    if (answer.action !== 'accept' || answer.content?.confirm !== true) return 'Nothing was deleted';
    return `Deleted ${await this.cache.clear(city)} cached forecast(s) of ${city}`;
  }
}
// #endregion elicit

// #region fallback
@Injectable()
export class SafeCacheTools {
  constructor(private readonly cache: ForecastCache) {}

  @McpTool({ name: 'clear_city_cache_safely', description: 'The same, refusing when it cannot ask', input: CityArgs })
  async clear({ city }: CityArgs, ctx: McpContext): Promise<string> {
    try {
      const answer = await ctx.elicit({ message: `Delete the cache of ${city}?`, requestedSchema: CONFIRM });
      if (answer.action !== 'accept' || answer.content?.confirm !== true) return 'Nothing was deleted';
    } catch (error) {
      // The client cannot ask its user (no elicitation capability), refused, or did not answer in time.
      if (error instanceof McpClientRequestError) return `Not deleted: ${error.message}`;
      throw error; // anything else, such as the end of a 2026-07-28 round, goes on
    }
    return `Deleted ${await this.cache.clear(city)} cached forecast(s) of ${city}`;
  }
}
// #endregion fallback
