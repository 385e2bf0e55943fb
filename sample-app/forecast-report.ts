import type { DailyForecast, WeatherService } from './weather.service.js';

/** Days a forecast resource covers. */
export const FORECAST_REPORT_DAYS = 3;

/** A city's forecast as the `weather://forecast/{city}` resource serves it (as JSON). */
export interface ForecastReport {
  readonly city: string;
  readonly units: 'metric';
  /** When the backend last refreshed it (ISO 8601); null when it has not since the cache was cleared. */
  readonly refreshedAt: string | null;
  readonly days: readonly DailyForecast[];
}

/** The forecast report of a known city: the resource's contents, and what the summary prompt embeds. */
export function forecastReport(weather: WeatherService, city: string, signal?: AbortSignal): ForecastReport {
  return {
    city,
    units: 'metric',
    refreshedAt: weather.refreshedAt(city)?.toISOString() ?? null,
    days: weather.forecast(city, FORECAST_REPORT_DAYS, 'metric', signal),
  };
}
