import { Injectable } from '@nestjs/common';
import { IsIn } from 'class-validator';
import { McpResourceRegistry, McpTool } from 'mcp42';
import { CITIES, WeatherService } from './weather.service.js';

export class RefreshArgs {
  @IsIn(CITIES)
  city!: string;
}

// #region notify
@Injectable()
export class ForecastUpdates {
  constructor(
    private readonly weather: WeatherService,
    private readonly resources: McpResourceRegistry,
  ) {}

  @McpTool({ name: 'refresh_forecast', description: "Fetches a city's forecast again", input: RefreshArgs })
  refresh({ city }: RefreshArgs): string {
    const forecast = this.weather.refresh(city);
    // Subscriptions are to exact URIs: notify the spelling clients read (the template's encoding).
    const told = this.resources.notifyUpdated(`weather://forecast/${encodeURIComponent(city)}`);
    return `Refreshed ${city}: ${forecast} (${told} subscriber(s) told)`;
  }
}
// #endregion notify
