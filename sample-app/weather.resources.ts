import { Injectable } from '@nestjs/common';
import { McpResource, McpResourceTemplate, type McpContext } from '../src/index.js';
import { forecastReport, type ForecastReport } from './forecast-report.js';
import { ForecastVariables } from './forecast.variables.js';
import { WeatherService } from './weather.service.js';
import { CITIES_URI, FORECAST_URI_TEMPLATE } from './weather.uris.js';

/** What a client may read without calling a tool: the known cities, and each one's forecast. */
@Injectable()
export class WeatherResources {
  constructor(private readonly weather: WeatherService) {}

  @McpResource({
    uri: CITIES_URI,
    name: 'cities',
    title: 'Known cities',
    description: 'The cities the weather service has forecasts for, as a JSON array of names',
    mimeType: 'application/json',
  })
  cities(): readonly string[] {
    // A plain value: sent as one JSON text.
    return this.weather.cities;
  }

  @McpResourceTemplate({
    uriTemplate: FORECAST_URI_TEMPLATE,
    name: 'forecast',
    title: 'City forecast',
    description:
      'Three-day forecast of a known city (metric), and when it was last refreshed; subscribe to hear of refreshes',
    mimeType: 'application/json',
    variables: ForecastVariables,
  })
  forecast({ city }: ForecastVariables, ctx: McpContext): ForecastReport | undefined {
    // Undefined: the resource does not exist, which the client hears as -32002.
    if (!this.weather.isKnown(city)) return undefined;
    return forecastReport(this.weather, city, ctx.signal);
  }
}
