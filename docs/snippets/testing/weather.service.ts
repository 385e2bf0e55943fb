import { Injectable } from '@nestjs/common';

/** Where the forecasts come from: in a real app, an HTTP API or a database. */
@Injectable()
export class WeatherService {
  private readonly forecasts = new Map([
    ['Lisbon', 'sunny, 24 °C'],
    ['Oslo', 'light rain, 9 °C'],
  ]);

  forecast(city: string): string | undefined {
    return this.forecasts.get(city);
  }
}
