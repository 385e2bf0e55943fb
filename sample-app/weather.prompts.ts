import { Injectable } from '@nestjs/common';
import { embeddedText, McpPrompt, userMessage, type McpContext, type PromptMessage } from '../src/index.js';
import { ForecastPromptArgs, type SummaryStyle } from './forecast-prompt.args.js';
import { forecastReport } from './forecast-report.js';
import { WeatherService } from './weather.service.js';
import { forecastUri } from './weather.uris.js';

const INSTRUCTIONS: Record<SummaryStyle, (city: string) => string> = {
  brief: (city) => `Summarise the weather in ${city} over the next days in one or two sentences, for a traveller.`,
  detailed: (city) =>
    `Summarise the weather in ${city} day by day: conditions, highs and lows, and what a traveller should pack.`,
};

/** Ready-made requests a user can pick in their client, filled with the data they need. */
@Injectable()
export class WeatherPrompts {
  constructor(private readonly weather: WeatherService) {}

  @McpPrompt({
    name: 'forecast_summary',
    title: 'Summarise a forecast',
    description: "Asks the model to summarise a city's forecast, which comes embedded with the request",
    args: ForecastPromptArgs,
  })
  forecastSummary({ city, style = 'brief' }: ForecastPromptArgs, ctx: McpContext): PromptMessage[] {
    // The same text a read of the forecast resource gives, so the model sees what a client would.
    const report = JSON.stringify(forecastReport(this.weather, city, ctx.signal));
    return [
      userMessage(embeddedText(forecastUri(city), report, { mimeType: 'application/json' })),
      userMessage(INSTRUCTIONS[style](city)),
    ];
  }
}
