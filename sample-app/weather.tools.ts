import { Injectable } from '@nestjs/common';
import { McpTool, type McpContext } from '../src/index.js';
import { CityArgs } from './city.args.js';
import { ForecastSummary } from './forecast-summary.dto.js';
import { WeatherService } from './weather.service.js';

@Injectable()
export class WeatherTools {
  constructor(private readonly weather: WeatherService) {}

  @McpTool({
    name: 'weather_forecast',
    title: 'Weather forecast',
    description: 'Daily weather forecast for a city: condition and high/low temperature per day (1 day unless told)',
    input: CityArgs,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  forecast(args: CityArgs, ctx: McpContext): string {
    const units = args.units ?? 'metric';
    const symbol = units === 'imperial' ? '°F' : '°C';
    // A real backend call would take the signal too, so a call whose session ends stops early.
    const lines = this.weather
      .forecast(args.city, args.days ?? 1, units, ctx.signal)
      .map((d) => `Day ${d.day}: ${d.condition}, high ${d.high}${symbol}, low ${d.low}${symbol}`);
    return [`Forecast for ${args.city}:`, ...lines].join('\n');
  }

  @McpTool({
    name: 'weather_summary',
    title: 'Weather summary',
    description: 'Summary of the forecast for a city over some days (3 unless told), as structured data',
    input: CityArgs,
    output: ForecastSummary,
    annotations: { readOnlyHint: true, openWorldHint: false },
  })
  summary(args: CityArgs, ctx: McpContext): ForecastSummary {
    const units = args.units ?? 'metric';
    const days = this.weather.forecast(args.city, args.days ?? 3, units, ctx.signal);
    const mean = (values: number[]): number =>
      Math.round((values.reduce((a, b) => a + b, 0) / values.length) * 10) / 10;
    return {
      city: args.city,
      units,
      days: days.length,
      averageHigh: mean(days.map((d) => d.high)),
      averageLow: mean(days.map((d) => d.low)),
      conditions: [...new Set(days.map((d) => d.condition))],
    };
  }
}
