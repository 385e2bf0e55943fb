import { Injectable } from '@nestjs/common';
import { McpArgs, McpResource, McpResourceTemplate, McpUri } from 'mcp42';
import { ForecastVariables } from './weather.args.js';
import { WeatherService } from './weather.service.js';

/** A 1×1 PNG, standing in for a map of the stations. */
const MAP_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

@Injectable()
export class WeatherResources {
  constructor(private readonly weather: WeatherService) {}

  // #region resource
  @McpResource({
    uri: 'weather://cities',
    name: 'cities',
    title: 'Cities with a forecast',
    mimeType: 'application/json',
    // 2026-07-28 clients may keep it an hour, in caches shared between users.
    cache: { ttlMs: 3_600_000, scope: 'public' },
  })
  cities(): string[] {
    return this.weather.cities(); // any JSON value is sent as JSON text
  }
  // #endregion resource

  @McpResource({ uri: 'weather://stations/map.png', name: 'station map', mimeType: 'image/png' })
  stationMap(): Buffer {
    return MAP_PNG; // bytes are sent as a base64 blob
  }

  // #region template
  @McpResourceTemplate({
    uriTemplate: 'weather://forecast/{city}{?days}',
    name: 'forecast',
    description: "A city's forecast, for 1 to 7 days",
    mimeType: 'text/plain',
    variables: ForecastVariables,
  })
  forecast({ city, days = 1 }: ForecastVariables): string | undefined {
    const forecast = this.weather.forecast(city);
    // undefined: answered "resource not found" (-32002), like a URI nobody serves.
    return forecast && `${city}, ${days} day(s): ${forecast}`;
  }
  // #endregion template

  // #region template-uri
  @McpResourceTemplate({
    uriTemplate: 'weather://stations/{id}',
    name: 'station',
    complete: { id: ['lisbon-1', 'oslo-1'] },
  })
  station(@McpArgs('id') id: string, @McpUri() uri: string) {
    // Without `variables`, the variables arrive as the URI filled them: strings.
    return { uri, mimeType: 'application/json', text: JSON.stringify({ id, online: true }) };
  }
  // #endregion template-uri
}
