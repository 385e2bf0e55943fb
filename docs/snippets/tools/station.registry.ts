import { Injectable, type OnApplicationBootstrap } from '@nestjs/common';
import { IsIn } from 'class-validator';
import { McpToolRegistry } from 'mcp42';
import { WeatherService } from './weather.service.js';

export class ReadingArgs {
  @IsIn(['temperature', 'wind', 'rain'])
  measure!: 'temperature' | 'wind' | 'rain';
}

// #region runtime
/** One tool per weather station, from data: added at startup, removed when a station retires. */
@Injectable()
export class StationTools implements OnApplicationBootstrap {
  constructor(
    private readonly tools: McpToolRegistry,
    private readonly weather: WeatherService,
  ) {}

  onApplicationBootstrap(): void {
    for (const [id, station] of this.weather.stations) {
      this.tools.add(
        {
          name: `station_${id}`,
          description: `The latest ${station.name} reading`,
          input: ReadingArgs,
          annotations: { readOnlyHint: true },
        },
        // The arguments are validated first, as for @McpTool() methods: a ReadingArgs instance.
        ({ measure }: ReadingArgs) => `${station.name} (${measure}): ${station.reading}`,
      );
    }
  }

  /** Clients with a GET stream open get one notifications/tools/list_changed. */
  retire(id: string): boolean {
    this.weather.stations.delete(id);
    return this.tools.remove(`station_${id}`);
  }
}
// #endregion runtime
