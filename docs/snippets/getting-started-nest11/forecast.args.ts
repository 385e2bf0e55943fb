import { IsString, Length } from 'class-validator';

// #region dto
export class ForecastArgs {
  @IsString()
  @Length(1, 80)
  city!: string;
}
// #endregion dto
