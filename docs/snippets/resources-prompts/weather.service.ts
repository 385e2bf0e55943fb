import { Injectable } from '@nestjs/common';

export const CITIES = ['Lisbon', 'Oslo', 'Porto', 'Reykjavik'];

/** A stand-in for a real forecast store. */
@Injectable()
export class WeatherService {
  private readonly forecasts = new Map<string, string>([
    ['Lisbon', 'sunny, 24 °C'],
    ['Oslo', 'light rain, 9 °C'],
  ]);

  cities(): string[] {
    return CITIES;
  }

  forecast(city: string): string | undefined {
    return this.forecasts.get(city);
  }

  refresh(city: string): string {
    const forecast = `cloudy, ${12 + city.length} °C`;
    this.forecasts.set(city, forecast);
    return forecast;
  }
}
