import { IsArray, IsIn, IsInt, IsNumber, IsString } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';
import { UNITS, type Units } from './city.args.js';

/** The structured result of `weather_summary`: advertised as its `outputSchema`. */
export class ForecastSummary {
  @JSONSchema({ description: 'The city, as asked' })
  @IsString()
  city!: string;

  @IsIn(UNITS)
  units!: Units;

  @JSONSchema({ description: 'Days the summary covers' })
  @IsInt()
  days!: number;

  @JSONSchema({ description: 'Mean of the daily highs' })
  @IsNumber()
  averageHigh!: number;

  @JSONSchema({ description: 'Mean of the daily lows' })
  @IsNumber()
  averageLow!: number;

  @JSONSchema({ description: 'Distinct conditions over the period', items: { type: 'string' } })
  @IsArray()
  @IsString({ each: true })
  conditions!: string[];
}
