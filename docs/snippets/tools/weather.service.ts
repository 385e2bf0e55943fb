import { Injectable } from '@nestjs/common';

export interface Day {
  readonly day: number;
  readonly condition: string;
  readonly high: number;
  readonly low: number;
}

const CONDITIONS = ['sunny', 'cloudy', 'light rain'];

/** A stand-in for a real weather backend: the same days for the same city, every time. */
@Injectable()
export class WeatherService {
  readonly stations = new Map([
    ['lisbon-1', { name: 'Lisbon airport', region: 'south', reading: '24 °C, wind 12 km/h' }],
    ['oslo-1', { name: 'Oslo Blindern', region: 'north', reading: '9 °C, rain 2 mm' }],
  ]);

  async daily(city: string, days: number, signal: AbortSignal): Promise<Day[]> {
    // A real client would pass the signal to fetch(): a cancelled call stops the request too.
    signal.throwIfAborted();
    return Array.from({ length: days }, (_, index) => ({
      day: index + 1,
      condition: CONDITIONS[(city.length + index) % CONDITIONS.length]!,
      high: 18 + ((city.length + index) % 7),
      low: 9 + (index % 4),
    }));
  }
}
