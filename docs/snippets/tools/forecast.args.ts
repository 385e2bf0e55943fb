import { Type } from 'class-transformer';
import { IsIn, IsInt, IsObject, IsOptional, IsString, Length, Max, Min, ValidateNested } from 'class-validator';
import { McpParamHeader } from 'mcp42';

// #region dto
export class ForecastArgs {
  @IsString()
  @Length(1, 80)
  city!: string;

  @IsOptional()
  @IsInt()
  @Min(1)
  @Max(7)
  days?: number;

  @IsOptional()
  @IsIn(['metric', 'imperial'])
  units?: 'metric' | 'imperial';
}
// #endregion dto

// #region nested
export class Point {
  @IsInt()
  @Min(-90)
  @Max(90)
  lat!: number;

  @IsInt()
  @Min(-180)
  @Max(180)
  lon!: number;
}

export class NearestStationArgs {
  // @IsObject() beside @ValidateNested(): class-validator alone also lets an array of points through.
  @IsObject()
  @ValidateNested()
  @Type(() => Point)
  near!: Point;
}
// #endregion nested

// #region param-header
export class StationSearchArgs {
  // 2026-07-28 clients copy this argument into an `Mcp-Param-Region` header, for gateways to route on.
  @IsString()
  @McpParamHeader('Region')
  region!: string;

  @IsString()
  query!: string;
}
// #endregion param-header
