import { IsString, Length } from 'class-validator';

export class ForecastArgs {
  @IsString()
  @Length(1, 80)
  city!: string;
}
