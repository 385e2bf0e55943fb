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
  /** Cities whose forecasts were refreshed, as a real service would cache them. */
  private readonly refreshed = new Set<string>();

  /** Cities known to the stand-in backend, for the batch refresh. */
  readonly cities: readonly string[] = ['Lisbon', 'Oslo', 'Nairobi', 'Lima', 'Osaka', 'Toronto', 'Cairo', 'Sydney'];

  /** Refreshes one city's forecast, as a slow backend call would (about `delayMs`), stopping when `signal` aborts. */
  async refresh(city: string, delayMs: number, signal: AbortSignal): Promise<void> {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, delayMs);
      signal.addEventListener(
        'abort',
        () => {
          clearTimeout(timer);
          reject(signal.reason);
        },
        { once: true },
      );
    });
    this.refreshed.add(city.toLowerCase());
  }

  /** Forgets every refreshed forecast; returns how many there were. */
  clearCache(): number {
    const count = this.refreshed.size;
    this.refreshed.clear();
    return count;
  }

  /** How many forecasts are cached. */
  get cached(): number {
    return this.refreshed.size;
  }

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
