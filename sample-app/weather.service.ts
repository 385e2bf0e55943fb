import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import type { Units } from './city.args.js';

export interface DailyForecast {
  readonly day: number;
  readonly condition: string;
  readonly high: number;
  readonly low: number;
}

const CONDITIONS = ['sunny', 'partly cloudy', 'cloudy', 'light rain', 'showers', 'windy', 'foggy'];

/**
 * A stand-in for a real weather backend: deterministic per city and day, no network, so the sample
 * behaves the same on every machine.
 */
@Injectable()
export class WeatherService {
  forecast(city: string, days: number, units: Units, signal?: AbortSignal): DailyForecast[] {
    signal?.throwIfAborted();
    const seed = createHash('sha256').update(city.trim().toLowerCase()).digest();
    return Array.from({ length: days }, (_, day) => {
      const byte = seed[day % seed.length]!;
      const celsius = 5 + (byte % 25);
      const high = units === 'imperial' ? Math.round((celsius * 9) / 5 + 32) : celsius;
      const spread = units === 'imperial' ? 14 : 8;
      return { day: day + 1, condition: CONDITIONS[byte % CONDITIONS.length]!, high, low: high - spread };
    });
  }
}
