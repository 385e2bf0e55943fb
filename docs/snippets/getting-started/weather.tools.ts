import { Injectable } from '@nestjs/common';
import { McpTool, McpToolError, text, type ContentBlock } from 'mcp42';
import { ForecastArgs } from './forecast.args.js';

const FORECASTS: Record<string, string> = {
  Lisbon: 'sunny, 24 °C',
  Oslo: 'light rain, 9 °C',
};

// #region tool
@Injectable()
export class WeatherTools {
  @McpTool({ name: 'get_forecast', description: "Today's forecast for a city", input: ForecastArgs })
  getForecast({ city }: ForecastArgs): ContentBlock[] {
    const forecast = FORECASTS[city];
    // The model reads this message and can try another city.
    if (!forecast) throw new McpToolError(`No forecast for ${city}; try Lisbon or Oslo.`);
    return [text(`${city}: ${forecast}`)];
  }
}
// #endregion tool
