import { Type } from 'class-transformer';
import { IsIn, IsInt, IsOptional, IsString, Max, Min } from 'class-validator';
import { CITIES } from './weather.service.js';

// #region variables
/** Exactly the variables of `weather://forecast/{city}{?days}`; values arrive as strings. */
export class ForecastVariables {
  // An enum in the schema: clients can complete `city` from it, and other cities are refused (-32602).
  @IsIn(CITIES)
  city!: string;

  @IsOptional()
  @Type(() => Number) // '3' → 3
  @IsInt()
  @Min(1)
  @Max(7)
  days?: number;
}
// #endregion variables

// #region prompt-args
export class SummaryArgs {
  @IsString()
  city!: string;

  @IsOptional()
  @IsIn(['brief', 'detailed'])
  style?: 'brief' | 'detailed';
}
// #endregion prompt-args
