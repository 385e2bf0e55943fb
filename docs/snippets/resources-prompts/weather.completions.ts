import { Injectable } from '@nestjs/common';
import { McpCompletion, type McpCompletionRequest, type McpCompletionResult } from 'mcp42';
import { WeatherService } from './weather.service.js';

// #region completion
@Injectable()
export class WeatherCompletions {
  constructor(private readonly weather: WeatherService) {}

  @McpCompletion({ prompt: 'forecast_summary', argument: 'city' })
  cities({ value }: McpCompletionRequest): McpCompletionResult {
    const typed = value.toLowerCase();
    return this.weather.cities().filter((city) => city.toLowerCase().startsWith(typed));
  }
}
// #endregion completion
