import { Injectable } from '@nestjs/common';
import { McpTool, type McpContext } from '../src/index.js';
import { CityArgs } from './city.args.js';
import { WeatherService } from './weather.service.js';

@Injectable()
export class WeatherTools {
  constructor(private readonly weather: WeatherService) {}

  @McpTool({
    name: 'weather_forecast',
    title: 'Weather forecast',
    description: 'Daily weather forecast for a city: condition and high/low temperature per day',
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
}
