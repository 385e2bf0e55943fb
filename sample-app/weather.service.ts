import { Injectable } from '@nestjs/common';
import { createHash } from 'node:crypto';
import { Subject, type Observable } from 'rxjs';
import type { Units } from './city.args.js';

export interface DailyForecast {
  readonly day: number;
  readonly condition: string;
  readonly high: number;
  readonly low: number;
}

const CONDITIONS = ['sunny', 'partly cloudy', 'cloudy', 'light rain', 'showers', 'windy', 'foggy'];

/** Cities known to the stand-in backend, spelled as it spells them. */
export const CITIES = ['Lisbon', 'Oslo', 'Nairobi', 'Lima', 'Osaka', 'Toronto', 'Cairo', 'Sydney'] as const;

/**
 * A stand-in for a real weather backend: deterministic per city and day, no network, so the sample
 * behaves the same on every machine.
 */
@Injectable()
export class WeatherService {
  /** When each city's forecast was last refreshed (by lower-cased name), as a real service would cache them. */
  private readonly lastRefresh = new Map<string, Date>();
  private readonly refreshes = new Subject<string>();

  /** Cities known to the stand-in backend, for the batch refresh. */
  readonly cities: readonly string[] = CITIES;

  /** Emits a city's name each time its forecast has been refreshed, so what serves it can tell its readers. */
  readonly refreshed$: Observable<string> = this.refreshes.asObservable();

  /** Whether the backend knows `city`, spelled exactly as in {@link cities}. */
  isKnown(city: string): boolean {
    return this.cities.includes(city);
  }

  /** The known cities whose names start with `prefix`, ignoring case, in the backend's order. */
  citiesStartingWith(prefix: string): string[] {
    const wanted = prefix.toLowerCase();
    return this.cities.filter((city) => city.toLowerCase().startsWith(wanted));
  }

  /** When `city`'s forecast was last refreshed; undefined when it was not (or the cache was cleared since). */
  refreshedAt(city: string): Date | undefined {
    return this.lastRefresh.get(city.toLowerCase());
  }

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
    this.lastRefresh.set(city.toLowerCase(), new Date());
    this.refreshes.next(city);
  }

  /** Forgets every refreshed forecast; returns how many there were. */
  clearCache(): number {
    const count = this.lastRefresh.size;
    this.lastRefresh.clear();
    return count;
  }

  /** How many forecasts are cached. */
  get cached(): number {
    return this.lastRefresh.size;
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
