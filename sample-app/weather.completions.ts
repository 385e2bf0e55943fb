import { Injectable } from '@nestjs/common';
import { McpCompletion, type McpCompletionRequest } from '../src/index.js';
import { WeatherService } from './weather.service.js';
import { FORECAST_URI_TEMPLATE } from './weather.uris.js';

/** Completion of city names, wherever a client asks the user for one. */
@Injectable()
export class WeatherCompletions {
  constructor(private readonly weather: WeatherService) {}

  @McpCompletion({ prompt: 'forecast_summary', argument: 'city' })
  @McpCompletion({ resourceTemplate: FORECAST_URI_TEMPLATE, argument: 'city' })
  cities({ value }: McpCompletionRequest): string[] {
    return this.weather.citiesStartingWith(value);
  }
}
