import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';
import { JSONSchema } from 'class-validator-jsonschema';

/** The path of `GET /api/forecasts/:city`. */
export class ForecastParams {
  @JSONSchema({ description: 'City name, e.g. "Lisbon"' })
  @IsString()
  @Length(1, 100)
  city!: string;
}

/** The query of `GET /api/forecasts/:city`: query strings are text, so `days` is converted first. */
export class ForecastQuery {
  @JSONSchema({ description: 'Number of days, 1 to 7 (3 when omitted)', default: 3 })
  @IsOptional()
  @Type(() => Number)
  @IsInt()
  @Min(1)
  @Max(7)
  days: number = 3;
}
