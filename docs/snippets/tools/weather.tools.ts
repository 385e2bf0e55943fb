import { Injectable, NotFoundException } from '@nestjs/common';
import {
  embeddedBlob,
  embeddedText,
  image,
  McpTool,
  McpToolError,
  resourceLink,
  text,
  type CallToolResult,
  type ContentBlock,
  type McpContext,
} from 'mcp42';
import { ForecastArgs, NearestStationArgs, StationSearchArgs } from './forecast.args.js';
import { ForecastSummary } from './forecast-summary.dto.js';
import { WeatherService } from './weather.service.js';

/** A 1×1 PNG, standing in for a radar image. */
const RADAR_PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAQAAAC1HAwCAAAAC0lEQVR42mNkYAAAAAYAAjCB0C8AAAAASUVORK5CYII=',
  'base64',
);

// #region raw-schema
/** What class-validator cannot say: one of two shapes. Advertised as written, checked with Ajv. */
const CONVERT_INPUT = {
  type: 'object',
  properties: {
    value: { type: 'number' },
    from: { enum: ['C', 'F'] },
  },
  required: ['value', 'from'],
  additionalProperties: false,
} as const;

interface ConvertArgs {
  readonly value: number;
  readonly from: 'C' | 'F';
}
// #endregion raw-schema

@Injectable()
export class WeatherTools {
  constructor(private readonly weather: WeatherService) {}

  // #region options
  @McpTool({
    name: 'get_forecast',
    title: 'Weather forecast',
    description: 'Daily forecast for a city: condition, high and low, for 1 to 7 days (1 unless told)',
    input: ForecastArgs,
    annotations: { readOnlyHint: true, openWorldHint: false },
    icons: [{ src: 'https://example.com/icons/forecast.png', mimeType: 'image/png', sizes: ['48x48'] }],
    timeoutMs: 5_000,
  })
  async forecast({ city, days = 1, units = 'metric' }: ForecastArgs, ctx: McpContext): Promise<string> {
    // The signal aborts when the client cancels, the session ends or timeoutMs passes.
    const forecast = await this.weather.daily(city, days, ctx.signal);
    const unit = units === 'metric' ? '°C' : '°F';
    return forecast.map((d) => `Day ${d.day}: ${d.condition}, ${d.high}${unit} / ${d.low}${unit}`).join('\n');
  }
  // #endregion options

  // #region structured
  @McpTool({
    name: 'forecast_summary',
    description: 'Summary of the forecast for a city over some days, as structured data',
    input: ForecastArgs,
    output: ForecastSummary,
    annotations: { readOnlyHint: true },
  })
  async summary({ city, days = 3 }: ForecastArgs, ctx: McpContext): Promise<ForecastSummary> {
    const forecast = await this.weather.daily(city, days, ctx.signal);
    return {
      city,
      days,
      averageHigh: forecast.reduce((sum, d) => sum + d.high, 0) / days,
      conditions: [...new Set(forecast.map((d) => d.condition))],
    };
  }
  // #endregion structured

  // #region raw-schema-tool
  @McpTool({ name: 'convert_temperature', description: 'Converts between °C and °F', input: CONVERT_INPUT })
  convert({ value, from }: ConvertArgs): string {
    return from === 'C' ? `${(value * 9) / 5 + 32} °F` : `${((value - 32) * 5) / 9} °C`;
  }
  // #endregion raw-schema-tool

  // #region content
  @McpTool({ name: 'radar', description: 'The latest rain radar image, with a link to its resource' })
  radar(): ContentBlock[] {
    return [
      text('Rain radar, 12:00 UTC'),
      image(RADAR_PNG, 'image/png'),
      resourceLink({ uri: 'weather://radar/latest', name: 'latest radar', mimeType: 'image/png' }),
    ];
  }

  @McpTool({ name: 'bulletin', description: "Today's weather bulletin with its raw data" })
  bulletin(): ContentBlock[] {
    return [
      text('Storm warning for the north coast from 18:00.', { audience: ['user', 'assistant'], priority: 1 }),
      embeddedText('weather://bulletins/today', '{"warnings":1}', { mimeType: 'application/json' }),
      embeddedBlob('weather://bulletins/today.csv', Buffer.from('region,warning\nnorth,storm\n'), {
        mimeType: 'text/csv',
      }),
    ];
  }
  // #endregion content

  // #region whole-result
  @McpTool({ name: 'alerts', description: 'Active weather alerts' })
  alerts(): CallToolResult {
    return {
      content: [text('No active alerts')],
      _meta: { 'example.com/source': 'national weather service' },
    };
  }
  // #endregion whole-result

  // #region errors
  @McpTool({
    name: 'station_reading',
    description: 'The latest reading of a weather station',
    input: StationSearchArgs,
  })
  reading({ region, query }: StationSearchArgs): string {
    if (query.trim() === '') {
      // An isError result with this text: the model reads it and can try again.
      throw new McpToolError('Give part of a station name, such as "lisbon"');
    }
    const station = [...this.weather.stations.values()].find(
      (s) => s.region === region && s.name.toLowerCase().includes(query.toLowerCase()),
    );
    // An HttpException below 500: an isError result, "Tool station_reading failed: No station matches …".
    if (!station) throw new NotFoundException(`No station in the ${region} matches "${query}"`);
    return `${station.name}: ${station.reading}`;
  }
  // #endregion errors

  @McpTool({ name: 'nearest_station', description: 'The weather station nearest a point', input: NearestStationArgs })
  nearest({ near }: NearestStationArgs): string {
    return near.lat > 50 ? 'oslo-1' : 'lisbon-1';
  }
}
