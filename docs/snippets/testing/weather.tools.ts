import { Injectable } from '@nestjs/common';
import { McpTool, McpToolError } from 'mcp42';
import { ForecastArgs } from './forecast.args.js';
import { WeatherService } from './weather.service.js';

// #region tool
@Injectable()
export class WeatherTools {
  constructor(private readonly weather: WeatherService) {}

  @McpTool({ name: 'get_forecast', description: "Today's forecast for a city", input: ForecastArgs })
  getForecast({ city }: ForecastArgs): string {
    const forecast = this.weather.forecast(city);
    // The model reads this message and can try another city.
    if (!forecast) throw new McpToolError(`No forecast for ${city}`);
    return `${city}: ${forecast}`;
  }
}
// #endregion tool
