import { Injectable } from '@nestjs/common';
import { assistantMessage, embeddedText, McpPrompt, userMessage, type PromptMessage } from 'mcp42';
import { SummaryArgs } from './weather.args.js';
import { CITIES, WeatherService } from './weather.service.js';

@Injectable()
export class WeatherPrompts {
  constructor(private readonly weather: WeatherService) {}

  // #region prompt
  @McpPrompt({ name: 'forecast_summary', description: 'Summarise the forecast of a city', args: SummaryArgs })
  summary({ city, style }: SummaryArgs): PromptMessage[] {
    const forecast = this.weather.forecast(city) ?? 'No forecast yet.';
    return [
      userMessage(embeddedText(`weather://forecast/${encodeURIComponent(city)}`, forecast)),
      userMessage(`Summarise the forecast above for a traveller${style === 'brief' ? ', in one sentence' : ''}.`),
    ];
  }
  // #endregion prompt

  // #region prompt-list
  @McpPrompt({
    name: 'packing_list',
    title: 'Packing list',
    description: 'A packing list for a trip, from the forecast',
    args: [
      { name: 'city', description: 'Where to', required: true },
      { name: 'nights', description: 'How many nights (default 3)' },
    ],
    complete: { city: CITIES },
  })
  packingList({ city, nights = '3' }: Record<string, string>): PromptMessage[] {
    return [
      userMessage('What should I pack for 2 nights in Oslo? Rain, 9 °C.'),
      assistantMessage('A waterproof jacket, a warm layer, and shoes that cope with puddles.'),
      userMessage(`And for ${nights} nights in ${city}? ${this.weather.forecast(city) ?? 'No forecast yet.'}`),
    ];
  }
  // #endregion prompt-list
}
