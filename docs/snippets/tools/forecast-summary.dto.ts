import { IsArray, IsInt, IsNumber, IsString } from 'class-validator';

// #region output
export class ForecastSummary {
  @IsString()
  city!: string;

  @IsInt()
  days!: number;

  @IsNumber()
  averageHigh!: number;

  @IsArray()
  @IsString({ each: true })
  conditions!: string[];
}
// #endregion output
