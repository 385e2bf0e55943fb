import { Type } from 'class-transformer';
import { IsInt, IsOptional, IsString, Length, Max, Min } from 'class-validator';

// #region dtos
export class ForecastQuery {
  @IsOptional()
  @Type(() => Number) // query strings are text: ValidationPipe converts it first
  @IsInt()
  @Min(1)
  @Max(7)
  days: number = 3;
}

export class CreateAlertDto {
  @IsString()
  @Length(1, 100)
  city!: string;

  @IsString()
  @Length(1, 500)
  message!: string;
}
// #endregion dtos
