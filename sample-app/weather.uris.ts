/** The URI of the list of known cities. */
export const CITIES_URI = 'weather://cities';

/** The URI template of a city's forecast: one resource per city. */
export const FORECAST_URI_TEMPLATE = 'weather://forecast/{city}';

/** The URI of `city`'s forecast, as clients read and subscribe to it. */
export function forecastUri(city: string): string {
  return `weather://forecast/${encodeURIComponent(city)}`;
}
