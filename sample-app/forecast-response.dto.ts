import { ApiProperty } from '@nestjs/swagger';

/** One day of `GET /api/forecasts/:city`, as the API documents it. */
export class ForecastDayDto {
  @ApiProperty({ description: 'Day number, 1 for today', example: 1 })
  day!: number;

  @ApiProperty({ description: 'Conditions in a few words', example: 'Sunny' })
  summary!: string;

  @ApiProperty({ description: 'High temperature, °C', example: 24 })
  highC!: number;

  @ApiProperty({ description: 'Low temperature, °C', example: 15 })
  lowC!: number;
}

/**
 * The answer of `GET /api/forecasts/:city`, as `@nestjs/swagger` documents it: the `get_forecast`
 * tool advertises it as its output schema.
 */
export class ForecastResponseDto {
  @ApiProperty({ description: 'The city asked about' })
  city!: string;

  @ApiProperty({ description: 'Number of days forecast' })
  days!: number;

  @ApiProperty({ type: [ForecastDayDto] })
  forecasts!: ForecastDayDto[];
}
